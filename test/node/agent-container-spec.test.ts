// How the agent turns a core/v1 Container into the sandbox's argv and environment.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BOSUN_IMAGE, imageBaseName, resolveArgv } from '../../src/node/agent/container-argv.ts';
import { containerLogPath } from '../../src/node/agent/log-paths.ts';
import { restartDelayMs } from '../../src/node/agent/restart-backoff.ts';
import { SandboxSpecError } from '../../src/node/sandbox/errors.ts';

test('image names reduce to their base name', () => {
  assert.equal(imageBaseName('docker.io/library/busybox:1.36@sha256:abc'), 'busybox');
  assert.equal(imageBaseName('alpine'), 'alpine');
  assert.equal(imageBaseName('registry:5000/team/node:20'), 'node');
});

test('command and args form argv, with $(VAR) expanded and $$ escaped', () => {
  const env = new Map([['WHO', 'world']]);
  assert.deepEqual(resolveArgv({ name: 'c', image: 'anything', command: ['sh', '-c'], args: ['echo $(WHO) $$(WHO) $(NONE)'] }, env), ['sh', '-c', 'echo world $(WHO) $(NONE)']);
});

test('a known image without command runs its default; args replace the default cmd', () => {
  assert.deepEqual(resolveArgv({ name: 'c', image: 'busybox:1.36' }, new Map()), ['sh']);
  assert.deepEqual(resolveArgv({ name: 'c', image: 'python:3.12', args: ['-c', 'print(1)'] }, new Map()), ['-c', 'print(1)']);
});

test('an unknown image without command is a CreateContainerError saying to set command', () => {
  assert.throws(
    () => resolveArgv({ name: 'app', image: 'example.com/app:1' }, new Map()),
    (error: unknown) => error instanceof SandboxSpecError && error.reason === 'CreateContainerError' && /set command/.test(error.message) && /app:1/.test(error.message),
  );
});

test("Bosun's own default image runs this install's CLI; another bosun image needs its command", () => {
  const argv = resolveArgv({ name: 'controllers', image: BOSUN_IMAGE, args: ['controllers', '--leader-elect'] }, new Map());
  assert.equal(argv[0], process.execPath);
  assert.match(argv[1] ?? '', /\/bin\/bosun\.js$/);
  assert.deepEqual(argv.slice(2), ['controllers', '--leader-elect']);
  assert.throws(() => resolveArgv({ name: 'c', image: 'registry.example.com/bosun:1' }, new Map()), SandboxSpecError);
});

test('log paths follow kubelet layout, one file per restart', () => {
  const run = { namespace: 'shop', podName: 'web', podUid: 'u-1', container: 'app', restartCount: 2 };
  assert.equal(containerLogPath('/data', run), '/data/logs/pods/shop_web_u-1/app/2.log');
});

test('restart back-off doubles from 10 s and is capped at 5 min', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((n) => restartDelayMs(n)), [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
  assert.equal(restartDelayMs(3, { initialMs: 10, maxMs: 50 }), 50);
});
