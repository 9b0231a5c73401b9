// `bosun up`'s side of its node thread, against threads that play each part of the contract: ready, a failed
// start (with its errno code, for the "needs root" hint), a crash after ready (the control plane is told, and a
// later stop does not hang), a thread that ends before it is ready, and a stop that returns the agent's count.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { NodeThreadStartError, superviseNodeThread } from '../../../src/cli/node-thread/start-node-thread.ts';

const node = { nodeName: 'n1', kubeletUrl: 'https://127.0.0.1:10250', podNetwork: 'host', runtimeSocketPath: '/run/x.sock' };

/** A thread running `body` with `post` (to the main thread) and `onStop` (called with the stop message's options). */
function thread(body: string): Worker {
  return new Worker(
    `const { parentPort } = require('node:worker_threads');
     const post = (m) => parentPort.postMessage(m);
     const onStop = (f) => parentPort.on('message', (m) => { if (m.type === 'stop') f(m.options); });
     ${body}`,
    { eval: true },
  );
}

test('a ready thread: its node, and a stop that hands the options over and returns what the agent stopped', async () => {
  const running = await superviseNodeThread(
    thread(`post({ type: 'ready', node: ${JSON.stringify(node)} });
            onStop((options) => { post({ type: 'stopped', result: { pods: options.killPods ? 3 : 0, kept: options.keepImageContainers ? 1 : 0 } }); process.exit(0); });`),
    () => assert.fail('no crash'),
  );
  assert.deepEqual({ nodeName: running.nodeName, kubeletUrl: running.kubeletUrl, podNetwork: running.podNetwork, runtimeSocketPath: running.runtimeSocketPath }, node);
  assert.deepEqual(await running.stop({ killPods: true, keepImageContainers: true }), { pods: 3, kept: 1 });
});

test('a start that failed in the thread rejects with its message and errno code', async () => {
  const failed = superviseNodeThread(thread(`post({ type: 'failed', message: 'cgroups: permission denied', code: 'EACCES' }); process.exit(0);`), () => assert.fail('no crash'));
  await assert.rejects(failed, (error: unknown) => error instanceof NodeThreadStartError && error.message === 'cgroups: permission denied' && error.code === 'EACCES');
});

test('a thread that throws or ends before it is ready rejects the start', async () => {
  await assert.rejects(superviseNodeThread(thread(`throw new Error('boom at start');`), () => assert.fail('no crash')), /boom at start/);
  await assert.rejects(superviseNodeThread(thread(`process.exit(3);`), () => assert.fail('no crash')), /ended with code 3 before its node was ready/);
});

test('a crash after ready is reported once, and a later stop resolves with no pods instead of waiting forever', async () => {
  const crashes: Error[] = [];
  let crashed = (): void => {};
  const reported = new Promise<void>((resolve) => (crashed = resolve));
  const running = await superviseNodeThread(thread(`post({ type: 'ready', node: ${JSON.stringify(node)} }); setTimeout(() => { throw new Error('agent bug'); }, 10);`), (error) => {
    crashes.push(error);
    crashed();
  });
  await reported;
  assert.deepEqual(crashes.map((e) => e.message), ['agent bug']);
  assert.deepEqual(await running.stop({ killPods: true }), { pods: 0, kept: 0 });
});

test('a stop the agent could not finish rejects with its message, and the thread still ends', async () => {
  const running = await superviseNodeThread(
    thread(`post({ type: 'ready', node: ${JSON.stringify(node)} }); onStop(() => { post({ type: 'stop-failed', message: 'umount: busy' }); process.exit(0); });`),
    () => assert.fail('no crash'),
  );
  await assert.rejects(running.stop(), /umount: busy/);
});
