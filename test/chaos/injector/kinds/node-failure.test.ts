// node-failure: inject returns at once; the failure comes after the (injected) 31 s wait, through the node
// runtime when there is one, else as upstream's sysrq writes; a clean before then cancels it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NodeFailureRequest } from '../../../../src/client/node-runtime/protocol.ts';
import { NODE_FAILURE_DELAY_MS, nodeFailureKind } from '../../../../src/chaos/injector/kinds/node-failure.ts';
import { context, RecordingWrites } from './host-doubles.ts';

/** A sleep the test releases by hand, recording the requested duration. */
function controlledSleep() {
  const waits: { ms: number; release: () => void }[] = [];
  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      waits.push({ ms, release: resolve });
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
  return { waits, sleep };
}

const nodeTarget = { level: 'node' as const, targetName: 'node-a', nodeName: 'node-a' };

test('through the node runtime: ready at once, the failure after 31 s', async () => {
  const requests: NodeFailureRequest[] = [];
  let failed!: () => void;
  const called = new Promise<void>((resolve) => (failed = resolve));
  const { waits, sleep } = controlledSleep();
  const kind = nodeFailureKind({ actions: { nodeFailure: (r) => Promise.resolve(void requests.push(r)).then(failed) }, sleep, env: {} });
  const writes = new RecordingWrites();
  const injector = kind.create(context(nodeTarget, writes), { shutdown: true });
  await injector.inject();
  assert.deepEqual(requests, []);
  assert.equal(waits.length, 1);
  assert.equal(waits[0]?.ms, NODE_FAILURE_DELAY_MS);
  assert.equal(NODE_FAILURE_DELAY_MS, 31_000);
  waits[0]?.release();
  await called;
  assert.deepEqual(requests, [{ shutdown: true }]);
  assert.deepEqual(writes.recorded, [{ op: 'runtimeCall', description: 'node shutdown' }]);
  await injector.clean();
});

test("without a runtime: upstream's sysrq writes, crash by default", async () => {
  const { waits, sleep } = controlledSleep();
  const writes = new RecordingWrites();
  const kind = nodeFailureKind({ sleep, env: { CHAOS_INJECTOR_MOUNT_SYSRQ: '/mnt/sysrq', CHAOS_INJECTOR_MOUNT_SYSRQ_TRIGGER: '/mnt/sysrq-trigger' } });
  const ctx = context(nodeTarget, writes);
  await kind.create(ctx, {}).inject();
  await kind.create(ctx, {}).inject(); // a second targeted container: one failure only
  assert.deepEqual(writes.recorded, [{ op: 'writeFile', path: '/mnt/sysrq', content: '1' }]);
  assert.equal(waits.length, 1);
  waits[0]?.release();
  await new Promise<void>((resolve) => {
    const poll = () => (writes.recorded.length === 2 ? resolve() : setImmediate(poll));
    poll();
  });
  assert.deepEqual(writes.recorded[1], { op: 'writeFile', path: '/mnt/sysrq-trigger', content: 'c' });
});

test('a clean before the delay cancels the failure', async () => {
  const { waits, sleep } = controlledSleep();
  const requests: NodeFailureRequest[] = [];
  const ctx = context(nodeTarget, new RecordingWrites());
  const injector = nodeFailureKind({ actions: { nodeFailure: (r) => Promise.resolve(void requests.push(r)) }, sleep, env: {} }).create(ctx, {});
  await injector.inject();
  await injector.clean();
  waits[0]?.release(); // too late: already rejected by the abort
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(requests, []);
  assert.ok(ctx.log.lines.some((l) => l.message === 'node failure cancelled before it was triggered'));
});
