// The node's pod start queue: set-ups take turns, oldest pod first, and a pod deleted while it waits leaves
// without having started anything. Unit tests on the queue, then a node agent that starts one pod at a time.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { podsResource } from '../../src/apimachinery/builtin-resources.ts';
import { PodStartQueue } from '../../src/node/agent/pods/start-queue.ts';
import { busybox, startPodHarness, type PodHarness } from './pod-harness.ts';

/** A set-up that runs until released, recording when it began. */
function blocker(log: string[], name: string): { setup: () => Promise<string>; release: () => void } {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    setup: async () => {
      log.push(name);
      await done;
      return name;
    },
    release: () => release(),
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('PodStartQueue', () => {
  test('runs at most its concurrency at once, and then the oldest ticket waiting, not the first to ask', async () => {
    const queue = new PodStartQueue(2);
    const tickets = [0, 1, 2, 3, 4].map(() => queue.ticket());
    const log: string[] = [];
    const never = new AbortController().signal;
    const blockers = tickets.map((t) => blocker(log, `pod${t}`));
    // The two oldest take the turns; the others ask newest first.
    const results = [0, 1, 4, 3, 2].map((t) => queue.run(tickets[t]!, never, blockers[t]!.setup));
    await turn();
    assert.deepEqual(log, ['pod0', 'pod1']);
    blockers[1]!.release();
    await turn();
    assert.deepEqual(log, ['pod0', 'pod1', 'pod2']);
    blockers[0]!.release();
    blockers[2]!.release();
    await turn();
    assert.deepEqual(log, ['pod0', 'pod1', 'pod2', 'pod3', 'pod4']);
    blockers[3]!.release();
    blockers[4]!.release();
    assert.deepEqual(await Promise.all(results), ['pod0', 'pod1', 'pod4', 'pod3', 'pod2']);
  });

  test('a pod halted while it waits leaves the line with the halt\'s reason, and its set-up never runs', async () => {
    const queue = new PodStartQueue(1);
    const log: string[] = [];
    const never = new AbortController().signal;
    const first = blocker(log, 'first');
    const running = queue.run(queue.ticket(), never, first.setup);
    const halted = new AbortController();
    const waiting = queue.run(queue.ticket(), halted.signal, blocker(log, 'halted').setup);
    const next = blocker(log, 'next');
    const after = queue.run(queue.ticket(), never, next.setup);
    halted.abort();
    await assert.rejects(waiting, (error) => error === halted.signal.reason);
    first.release();
    next.release();
    assert.deepEqual(await Promise.all([running, after]), ['first', 'next']);
    assert.deepEqual(log, ['first', 'next']);
    // A signal aborted before the pod asks: it does not even queue.
    const gone = new AbortController();
    gone.abort();
    await assert.rejects(queue.run(queue.ticket(), gone.signal, blocker(log, 'gone').setup), (error) => error === gone.signal.reason);
    assert.deepEqual(log, ['first', 'next']);
  });

  test('a set-up that began runs to its end when its pod halts, and keeps its turn until then', async () => {
    const queue = new PodStartQueue(1);
    const log: string[] = [];
    const halted = new AbortController();
    const started = blocker(log, 'started');
    const running = queue.run(queue.ticket(), halted.signal, started.setup);
    await turn();
    const next = blocker(log, 'next');
    const queued = queue.run(queue.ticket(), new AbortController().signal, next.setup);
    halted.abort();
    await turn();
    // What the set-up made (a started container) comes back to its pod, which then stops it.
    assert.deepEqual(log, ['started']);
    started.release();
    assert.equal(await running, 'started');
    next.release();
    assert.equal(await queued, 'next');
    assert.deepEqual(log, ['started', 'next']);
  });

  test('a concurrency that is not a positive integer is refused', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) assert.throws(() => new PodStartQueue(bad), RangeError);
  });
});

describe('a node agent that starts one pod at a time', () => {
  let h: PodHarness;
  before(async () => {
    h = await startPodHarness({ maxParallelPodStarts: 1 });
  });
  after(async () => {
    await h.close();
  });

  test('runs every pod of a burst, init containers and all: a running container does not hold the turn', { timeout: 60_000 }, async () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    await Promise.all(
      names.map((name) =>
        h.create(`burst-${name}`, {
          terminationGracePeriodSeconds: 1,
          initContainers: [busybox('init', 'sleep 0.2')],
          containers: [busybox('main', 'sleep 3600'), busybox('side', 'sleep 3600')],
        }),
      ),
    );
    await h.until(() => names.every((name) => h.pod(`burst-${name}`)?.status?.phase === 'Running'), 'every pod of the burst Running', 45_000);
    await Promise.all(names.map((name) => h.client.delete(podsResource, `burst-${name}`, { namespace: 'default' })));
    await h.until(() => names.every((name) => h.pod(`burst-${name}`) === undefined), 'the burst deleted', 30_000);
  });

  test('pods deleted while they wait for their turn go without an error: nothing of theirs started', { timeout: 60_000 }, async () => {
    const names = Array.from({ length: 8 }, (_, i) => `line-${i}`);
    for (const name of names) await h.create(name, { terminationGracePeriodSeconds: 1, containers: [busybox('main', 'sleep 3600')] });
    // At once, while most of them are still in line behind the first.
    await Promise.all(names.map((name) => h.client.delete(podsResource, name, { namespace: 'default' })));
    await h.until(() => names.every((name) => h.pod(name) === undefined), 'every pod in line deleted', 45_000);
    const failures = names.flatMap((name) => h.events(name).filter((e) => e.type === 'Warning'));
    assert.deepEqual(failures.map((e) => `${e.involvedObject.name}: ${e.reason} ${e.message}`), []);
    assert.deepEqual(await h.agent.sandbox.listPods(), []);
  });
});
