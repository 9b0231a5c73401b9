// `bosun inject` through the real entry point (bin/bosun.js), as a chaos pod runs it: at node level no node
// runtime is needed, so these run the shipped command unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin } from '../../helpers/bosun-process.ts';

function inject(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [bin, 'inject', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exit, output: () => out };
}

async function until(what: string, check: () => boolean, output: () => string): Promise<void> {
  const end = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('bosun --help does not list inject (what chaos pods run)', () => {
  const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.doesNotMatch(help.stdout, /inject/);
  const kinds = spawnSync(process.execPath, [bin, 'inject', '--help'], { encoding: 'utf8' });
  assert.match(kinds.stdout, /cpu-pressure/);
  assert.match(kinds.stdout, /memory-pressure/);
  assert.match(kinds.stdout, /container-failure/);
});

test('node level, --dry-run: readiness file, SIGTERM, clean, exit 0; JSON lines on stdout', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-inject-cli-'));
  const ready = join(dir, 'readiness_probe');
  const run = inject(['cpu-pressure', '--level', 'node', '--dry-run', '--count', '1', '--readiness-file', ready, '--log-context-target-name', 'node-1', '--log-context-disruption-name', 'd1']);
  try {
    await until('the readiness file', () => existsSync(ready), run.output);
    assert.equal(readFileSync(ready, 'utf8'), '1');
    run.child.kill('SIGTERM');
    assert.equal(await run.exit, 0, run.output());
    const lines = run.output().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.ok(lines.every((line) => line['disruptionName'] === 'd1' && typeof line['level'] === 'string'));
    assert.ok(lines.some((line) => line['msg'] === 'dry-run: would start process'));
    assert.ok(lines.some((line) => line['msg'] === 'stopping' && line['reason'] === 'signal'));
    assert.ok(lines.some((line) => line['msg'] === 'cleaned'));
  } finally {
    run.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test("node-failure and pod-replacement take upstream's `inject` word", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-inject-cli-'));
  try {
    const run = inject(['node-failure', 'inject', '--level', 'node', '--dry-run', '--readiness-file', join(dir, 'r'), '--deadline', new Date(Date.now() + 3000).toISOString()]);
    assert.equal(await run.exit, 0, run.output());
    assert.equal(readFileSync(join(dir, 'r'), 'utf8'), '1');
    const wrong = inject(['node-failure', 'crash', '--level', 'node']);
    assert.notEqual(await wrong.exit, 0);
    assert.match(wrong.output(), /unknown action 'crash'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the deadline ends the injector: exit 0', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-inject-cli-'));
  const run = inject(['cpu-pressure', '--level', 'node', '--dry-run', '--readiness-file', join(dir, 'r'), '--deadline', new Date(Date.now() + 4000).toISOString()]);
  try {
    assert.equal(await run.exit, 0, run.output());
    assert.match(run.output(), /"reason":"deadline"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('initialization failures exit 1: a bad flag, pod level without a node runtime', { timeout: 120_000 }, async () => {
  const bad = inject(['cpu-pressure', '--level', 'cluster']);
  assert.equal(await bad.exit, 1, bad.output());
  assert.match(bad.output(), /InjectorFlagError: --level/);
  const noRuntime = inject(['container-failure', '--level', 'pod', '--target-containers', 'app;bosun://abc'], { BOSUN_NODE_RUNTIME_SOCKET: '' });
  assert.equal(await noRuntime.exit, 1, noRuntime.output());
  assert.match(noRuntime.output(), /TargetResolutionError/);
});
