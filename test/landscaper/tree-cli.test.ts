// `bosun tree installation` end to end: objects and statuses written directly into a test server (no
// controllers), the CLI spawned as a user runs it; --watch re-renders after a status change.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { after, before, test } from 'node:test';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { loadBosunCrds } from '../../src/crds/index.ts';
import type { DeployItem } from '../../src/landscaper/api/deploy-item.ts';
import type { Execution } from '../../src/landscaper/api/execution.ts';
import type { Installation } from '../../src/landscaper/api/installation.ts';
import { deployItemsResource, executionsResource, installationsResource } from '../../src/landscaper/api/resources.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { bin, runToEnd } from '../helpers/bosun-process.ts';

const API = 'landscaper.gardener.cloud/v1alpha1';
const NS = 'tree';
const JOB = 'aaaabbbb-1111-4222-8333-444455556666';
const times = (start: number, end: number) => ({ triggerTime: `2026-01-01T10:00:0${start}Z`, initTime: `2026-01-01T10:00:0${start}Z`, finishedTime: `2026-01-01T10:00:0${end}Z` });
const finished = { jobID: JOB, jobIDFinished: JOB };

let server: TestServer;
let client: KubeClient;
// The root's uid, for owner references.
let rootRef: { apiVersion: string; kind: string; name: string; uid: string; controller: boolean };

async function createWithStatus<T extends KubeObject>(resource: typeof installationsResource, obj: T, status: Record<string, unknown>): Promise<T> {
  const created = await client.create<T>(resource, obj);
  return client.updateStatus<T>(resource, { ...created, status });
}

before(async () => {
  server = await startTestServer({ crds: loadBosunCrds() });
  client = createKubeClient({ kubeconfigPath: server.kubeconfigFile });
  await client.create({ apiVersion: 'v1', kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  const blueprint = { inline: { filesystem: { 'blueprint.yaml': 'apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n' } } };
  const root = await createWithStatus<Installation>(installationsResource, { apiVersion: API, kind: 'Installation', metadata: { name: 'root', namespace: NS }, spec: { blueprint } }, {
    observedGeneration: 1, phase: 'Succeeded', ...finished, executionRef: { name: 'root', namespace: NS }, transitionTimes: times(0, 9),
  });
  rootRef = { apiVersion: API, kind: 'Installation', name: 'root', uid: root.metadata.uid!, controller: true };
  const sub = await createWithStatus<Installation>(installationsResource, {
    apiVersion: API, kind: 'Installation',
    metadata: { name: 'child-x7k2m', namespace: NS, labels: { 'landscaper.gardener.cloud/encompassed-by': 'root' }, ownerReferences: [rootRef] },
    spec: { blueprint },
  }, { observedGeneration: 1, phase: 'Succeeded', ...finished, executionRef: { name: 'child-x7k2m', namespace: NS }, transitionTimes: times(1, 5) });
  const subRef = { apiVersion: API, kind: 'Installation', name: sub.metadata.name!, uid: sub.metadata.uid!, controller: true };
  await createWithStatus<Execution>(executionsResource, { apiVersion: API, kind: 'Execution', metadata: { name: 'child-x7k2m', namespace: NS, ownerReferences: [subRef] }, spec: {} }, {
    phase: 'Succeeded', ...finished, transitionTimes: times(2, 4),
  });
  const exec = await createWithStatus<Execution>(executionsResource, { apiVersion: API, kind: 'Execution', metadata: { name: 'root', namespace: NS, ownerReferences: [rootRef] }, spec: {} }, {
    phase: 'Succeeded', ...finished, transitionTimes: times(5, 8),
  });
  const execRef = { apiVersion: API, kind: 'Execution', name: 'root', uid: exec.metadata.uid!, controller: true };
  const item = (name: string, spec: string, dependsOn?: string): DeployItem => ({
    apiVersion: API, kind: 'DeployItem',
    metadata: {
      name, namespace: NS, ownerReferences: [execRef],
      labels: { 'execution.landscaper.gardener.cloud/managed-by': 'root', 'execution.landscaper.gardener.cloud/name': spec },
      ...(dependsOn ? { annotations: { 'execution.landscaper.gardener.cloud/dependsOn': dependsOn } } : {}),
    },
    spec: { type: 'landscaper.gardener.cloud/mock', config: { apiVersion: 'mock.deployer.landscaper.gardener.cloud/v1alpha1', kind: 'ProviderConfiguration', phase: 'Succeeded' } },
  });
  // "b-second" depends on "z-first": the tree lists it after, despite the name order.
  await createWithStatus(deployItemsResource, item('root-second-abc', 'second', 'first'), { observedGeneration: 1, phase: 'Succeeded', ...finished, transitionTimes: times(7, 8) });
  await createWithStatus(deployItemsResource, item('root-first-def', 'first'), { observedGeneration: 1, phase: 'Succeeded', ...finished, transitionTimes: times(5, 6) });
});

after(async () => {
  await client.close();
  await server.close();
});

const bosun = (args: string[]) => ['bin/bosun.js', 'tree', 'installation', ...args, '--kubeconfig', server.kubeconfigFile];

test('bosun tree installation prints the whole tree', () => {
  // Async spawn: a synchronous one would block the event loop the in-process test server answers on.
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, bosun(['root', '-n', NS]), { env: { ...process.env, NO_COLOR: '' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => {
      try {
        assert.equal(code, 0, err);
        assert.equal(out, [
          '[Succeeded]  Installation tree/root  job aaaabbbb  took 9s',
          '├── [Succeeded]  Installation child-x7k2m  job aaaabbbb  took 4s',
          '│   └── [Succeeded]  Execution child-x7k2m  job aaaabbbb  took 2s',
          '└── [Succeeded]  Execution root  job aaaabbbb  took 3s',
          '    ├── [Succeeded]  DeployItem root-first-def (mock)  job aaaabbbb  took 1s',
          '    └── [Succeeded]  DeployItem root-second-abc (mock)  job aaaabbbb  took 1s',
          '6 objects: 6 Succeeded',
          '',
        ].join('\n'));
        resolve();
      } catch (e) {
        reject(e as Error);
      }
    });
  });
});

test('bosun tree installation exits 1 for a missing installation', () => {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, bosun(['nope', '-n', NS]));
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => {
      try {
        assert.equal(code, 1);
        assert.equal(out, 'not found: Installation tree/nope\n');
        resolve();
      } catch (e) {
        reject(e as Error);
      }
    });
  });
});

/** Runs `bosun tree ARGS` to its end (asynchronously: the in-process test server must keep answering). */
async function runTree(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const { code, stdout, stderr } = await runToEnd(process.execPath, [bin, 'tree', ...args, '--kubeconfig', server.kubeconfigFile]);
  return { code, out: stdout, err: stderr };
}

test('bosun tree execution, deployitem and installations: the other roots', async () => {
  const exec = await runTree(['execution', 'root', '-n', NS]);
  assert.equal(exec.code, 0, exec.err);
  assert.equal(exec.out, [
    '[Succeeded]  Execution tree/root  job aaaabbbb  took 3s',
    '├── [Succeeded]  DeployItem root-first-def (mock)  job aaaabbbb  took 1s',
    '└── [Succeeded]  DeployItem root-second-abc (mock)  job aaaabbbb  took 1s',
    '3 objects: 3 Succeeded',
    '',
  ].join('\n'));
  const item = await runTree(['deployitem', 'root-first-def', '-n', NS, '--wide']);
  assert.equal(item.code, 0, item.err);
  assert.equal(item.out, '[Succeeded]  DeployItem tree/root-first-def (mock)  job aaaabbbb  took 1s\n1 object: 1 Succeeded\n');
  const all = await runTree(['installations', '-n', NS]);
  assert.equal(all.code, 0, all.err);
  assert.match(all.out, /^\[Succeeded\] {2}Installation tree\/root {2}job aaaabbbb {2}took 9s\n├── \[Succeeded\] {2}Installation child-x7k2m/);
  assert.match(all.out, /\n6 objects: 6 Succeeded\n$/, 'the subinstallation is in its parent\'s tree, not listed again');
  const missing = await runTree(['execution', 'nope', '-n', NS]);
  assert.equal(missing.code, 1);
  assert.equal(missing.out, 'not found: Execution tree/nope\n');
  const empty = await runTree(['installations', '-n', 'default']);
  assert.equal(empty.code, 0, empty.err);
  assert.equal(empty.out, 'no installations in namespace default\n');
});

test('bosun tree installation --watch re-renders after a status change', async () => {
  const child = spawn(process.execPath, bosun(['root', '-n', NS, '--watch']));
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (const w of waiters) w();
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const waitFor = (pattern: RegExp, what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(out)) {
          cleanup();
          resolve();
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}; stdout: ${out}; stderr: ${err}`));
      }, 15_000);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  try {
    await waitFor(/6 objects: 6 Succeeded/, 'the first render');
    const di = await client.get<DeployItem>(deployItemsResource, 'root-second-abc', { namespace: NS });
    const stamp = '2026-01-01T10:00:09Z';
    await client.updateStatus(deployItemsResource, {
      ...di,
      status: { ...di.status, phase: 'Failed', lastError: { operation: 'Reconcile', reason: 'MockFailed', message: 'the mock was told to fail', lastTransitionTime: stamp, lastUpdateTime: stamp } },
    });
    await waitFor(/\[Failed\] {2}DeployItem root-second-abc \(mock\)[^\n]*\n {12}Last error \(Reconcile\/MockFailed\): the mock was told to fail\n6 objects: 1 Failed, 5 Succeeded/, 'the updated tree');
    assert.match(out, /^\nInstallation tree\/root at .*, updated on every change\n\n\[Succeeded\] {2}Installation tree\/root/);
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await exited, 0, err);
});

// A terminal (script(1) gives the CLI a pseudo-terminal): a burst of status writes is drawn at most ten times a
// second, ends on the latest state, and a change that alters nothing shown draws nothing. How many writes a draw
// coalesces depends on how fast they come (on a loaded machine each write may take longer than the interval), so
// the test checks the throttle itself: no two draws closer than its interval, read from the headers' times, which
// the CLI stamps by its own clock as it draws. Coalescing writes that arrive while a draw is held back is
// Redraw's unit test, on a controlled clock (tree-render.test.ts).
test('bosun tree --watch on a terminal coalesces redraws and skips unchanged pictures', async () => {
  const CLEAR = '\x1b[H\x1b[2J\x1b[3J';
  const command = [process.execPath, ...bosun(['root', '-n', NS, '--watch'])].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '' } });
  let out = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (const w of waiters) w();
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const plain = () => stripVTControlCharacters(out).replace(/\r/g, '');
  const draws = () => out.split(CLEAR).length - 1;
  const waitFor = (pattern: RegExp, what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(plain())) {
          cleanup();
          resolve();
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}; output: ${plain()}`));
      }, 15_000);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  try {
    await waitFor(/objects: /, 'the first render');
    assert.equal(draws(), 1);
    const writes = 40;
    for (let i = 1; i <= writes; i++) {
      const di = await client.get<DeployItem>(deployItemsResource, 'root-first-def', { namespace: NS });
      const stamp = '2026-01-01T10:00:09Z';
      await client.updateStatus(deployItemsResource, {
        ...di,
        status: { ...di.status, phase: 'Failed', lastError: { operation: 'Reconcile', reason: 'MockFailed', message: `attempt ${i} of ${writes}`, lastTransitionTime: stamp, lastUpdateTime: stamp } },
      });
    }
    await waitFor(new RegExp(`Last error \\(Reconcile/MockFailed\\): attempt ${writes} of ${writes}\n`), 'the last state');
    const afterBurst = draws();
    assert.ok(afterBurst <= 1 + writes, `${afterBurst} draws for ${writes} writes`);
    const drawnAt = [...plain().matchAll(/ at (\S+), updated on every change/g)].map((m) => Date.parse(m[1]!));
    assert.equal(drawnAt.length, afterBurst, 'one header per draw');
    // The headers carry milliseconds: two draws 100 ms apart may read 99 ms apart.
    const gaps = drawnAt.slice(1).map((at, i) => at - drawnAt[i]!);
    assert.ok(gaps.every((gap) => gap >= 99), `draws closer than 100 ms apart: gaps ${gaps.join(', ')} ms`);
    // An annotation is not in the picture: no redraw.
    const di = await client.get<DeployItem>(deployItemsResource, 'root-first-def', { namespace: NS });
    await client.update(deployItemsResource, { ...di, metadata: { ...di.metadata, annotations: { ...di.metadata.annotations, note: 'unseen' } } });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(draws(), afterBurst, 'an unchanged picture is not drawn again');
  } finally {
    child.kill('SIGTERM');
  }
  await exited;
});
