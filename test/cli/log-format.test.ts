// --log-format of bosun up, controllers and node: text for a person at a terminal, JSON for collectors; and the
// metrics address in bosun up's ready line, where /metrics is served over HTTPS to the API server's token only.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { formatLogLine } from '../../src/cli/log-format.ts';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'bosun.js');

/** Runs bosun up until `until` has matched stdout (then `meanwhile`), stops it with SIGTERM; resolves with stdout. */
async function upUntil(flags: string[], until: RegExp, meanwhile: (out: string, dataDir: string) => Promise<void> = async () => {}): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosun-log-format-'));
  const child = spawn(process.execPath, [bin, 'up', '--data-dir', dataDir, '--port', '0', '--metrics-port', '0', '--dashboard-port', '0', '--no-node', ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (until.test(out)) resolve();
    });
    child.once('exit', () => reject(new Error(`exited before ${until}: ${out} ${err}`)));
  });
  await meanwhile(out, dataDir);
  child.kill('SIGTERM');
  assert.deepEqual(await exit, [0, null], err);
  return out;
}

test('a pino line as text: time, level, message, fields; an error inline with its stack below', () => {
  const line = JSON.stringify({ level: 50, time: '2026-11-24T20:43:50.462Z', controller: 'landscaper-installation', key: 'demo/my app', msg: 'reconcile failed', err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at reconcile (file.ts:1:1)' } });
  assert.equal(formatLogLine(line, { color: false }), '20:43:50.462 ERROR reconcile failed err=boom controller=landscaper-installation key="demo/my app"\n    at reconcile (file.ts:1:1)');
  assert.equal(formatLogLine(JSON.stringify({ level: 30, time: '2026-11-24T20:43:50.462Z', name: 'bosun-node', msg: 'ready', port: 1 }), { color: true }), '20:43:50.462 \x1b[36mINFO \x1b[0m bosun-node: ready port=1');
  assert.equal(formatLogLine('not json', { color: false }), 'not json');
});

/** GET over https trusting the data dir's serving certificate, with the given headers. */
function get(url: string, ca: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('bosun up --log-format text: readable lines; the ready line names the metrics URL, which serves metrics to the token', async () => {
  let metrics = { status: 0, body: '' };
  let anonymous = { status: 0, body: '' };
  let healthz = { status: 0, body: '' };
  const out = await upUntil(['--controllers', 'landscaper', '--log-format', 'text'], /controller started controller=landscaper-installation/, async (sofar, dataDir) => {
    const ready = /^bosun is ready: API server listening on https:\/\/127\.0\.0\.1:\d+; metrics on (https:\/\/127\.0\.0\.1:\d+\/metrics); bosun \d+\.\d+\.\d+$/m.exec(sofar);
    assert.ok(ready, sofar);
    const ca = readFileSync(join(dataDir, 'serving.crt'), 'utf8');
    const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
    metrics = await get(ready[1]!, ca, { authorization: `Bearer ${token}` });
    anonymous = await get(ready[1]!, ca);
    healthz = await get(ready[1]!.replace('/metrics', '/healthz'), ca);
  });
  assert.match(metrics.body, /^# TYPE controller_runtime_\w+/m);
  // A pod on the host network reaches this port: without the token it learns nothing.
  assert.deepEqual(anonymous, { status: 401, body: 'Unauthorized\n' });
  assert.equal(healthz.status, 200, 'the probes stay open, as kubelet probes them');
  assert.match(out, /^\d\d:\d\d:\d\d\.\d{3} INFO {2}bosun controllers started families=\["landscaper"\]/m);
  assert.doesNotMatch(out, /^\{/m, 'no JSON line');
});

test('bosun up logs JSON lines when asked, and by default when stdout is not a terminal', async () => {
  for (const flags of [['--log-format', 'json'], []]) {
    const out = await upUntil(['--controllers', 'landscaper', ...flags], /"msg":"controller started"/);
    const entry = JSON.parse(out.split('\n').find((l) => l.includes('bosun controllers started'))!) as { level: number; families: string[] };
    assert.deepEqual([entry.level, entry.families], [30, ['landscaper']]);
  }
});

test('--log-format is offered by up, controllers and node, text by default on a terminal', () => {
  for (const command of ['up', 'controllers', 'node']) {
    const piped = spawnSync(process.execPath, [bin, command, '--help'], { encoding: 'utf8' });
    assert.match(piped.stdout.replace(/\s+/g, ' '), /--log-format <format> .*\(choices: "text", "json", default: "json"\)/, command);
    // script(1) gives the command a terminal.
    const onTerminal = spawnSync('script', ['-qec', `${process.execPath} ${bin} ${command} --help`, '/dev/null'], { encoding: 'utf8' });
    assert.match(onTerminal.stdout.replace(/\s+/g, ' '), /default: "text"\)/, command);
  }
});
