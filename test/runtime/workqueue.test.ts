// The work queue's invariants and the default rate limiter's backoff, measured on a manual clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../src/runtime/workqueue/fake-clock.ts';
import { Heap } from '../../src/runtime/workqueue/heap.ts';
import { WorkQueue } from '../../src/runtime/workqueue/queue.ts';
import {
  ExponentialRateLimiter,
  TokenBucketRateLimiter,
  defaultControllerRateLimiter,
} from '../../src/runtime/workqueue/rate-limiter.ts';

test('heap pops in order', () => {
  const heap = new Heap<number>((a, b) => a < b);
  const values = [5, 3, 9, 1, 7, 2, 8, 2, 0, 6];
  for (const v of values) heap.push(v);
  const out: number[] = [];
  for (let v = heap.pop(); v !== undefined; v = heap.pop()) out.push(v);
  assert.deepEqual(out, [...values].sort((a, b) => a - b));
});

test('per-key backoff doubles from 5 ms and caps at 1000 s', () => {
  const clock = new FakeClock();
  const limiter = defaultControllerRateLimiter({ clock });
  const delays: number[] = [];
  for (let i = 0; i < 25; i++) delays.push(limiter.when('a'));
  assert.deepEqual(delays.slice(0, 5), [5, 10, 20, 40, 80]);
  // 5 ms × 2^17 = 655.36 s; 2^18 would be 1310.72 s, so the cap takes over.
  assert.equal(delays[17], 655_360);
  assert.equal(delays[18], 1_000_000);
  assert.equal(delays[24], 1_000_000);
  assert.equal(limiter.numRequeues('a'), 25);
  // Another key has its own history.
  assert.equal(limiter.when('b'), 5);
  limiter.forget('a');
  assert.equal(limiter.numRequeues('a'), 0);
  assert.equal(limiter.when('a'), 5);
});

test('global token bucket: burst 100, then 10 per second', () => {
  const clock = new FakeClock();
  const bucket = new TokenBucketRateLimiter(10, 100, clock);
  for (let i = 0; i < 100; i++) assert.equal(bucket.when(`k${i}`), 0);
  assert.equal(bucket.when('x'), 100);
  assert.equal(bucket.when('y'), 200);
  clock.advance(1000);
  // 10 tokens came back, 2 were owed: 8 free ones.
  for (let i = 0; i < 8; i++) assert.equal(bucket.when(`z${i}`), 0);
  assert.equal(bucket.when('late'), 100);
  // The combined limiter takes the max: fresh keys wait for the bucket once it is empty.
  const combined = defaultControllerRateLimiter({ clock: new FakeClock(), qps: 1, burst: 1 });
  assert.equal(combined.when('a'), 5);
  assert.equal(combined.when('b'), 1000);
});

test('addRateLimited: a key reappears after 5, 10, 20, 40 ms of clock time', async () => {
  const clock = new FakeClock();
  const queue = new WorkQueue({ clock });
  const waits: number[] = [];
  for (let attempt = 0; attempt < 6; attempt++) {
    queue.addRateLimited('ns/a');
    const start = clock.now();
    while (queue.length === 0) clock.advance(1);
    waits.push(clock.now() - start);
    assert.equal(await queue.get(), 'ns/a');
    queue.done('ns/a');
  }
  assert.deepEqual(waits, [5, 10, 20, 40, 80, 160]);
  queue.forget('ns/a');
  queue.addRateLimited('ns/a');
  clock.advance(4);
  assert.equal(queue.length, 0);
  clock.advance(1);
  assert.equal(queue.length, 1);
});

test('the exponential limiter alone honours custom bounds', () => {
  const limiter = new ExponentialRateLimiter(1, 8);
  assert.deepEqual([1, 2, 3, 4, 5].map(() => limiter.when('k')), [1, 2, 4, 8, 8]);
});

test('adds of a queued key are deduplicated', async () => {
  const queue = new WorkQueue({ clock: new FakeClock() });
  queue.add('a');
  queue.add('b');
  queue.add('a');
  queue.add('a');
  assert.equal(queue.length, 2);
  assert.equal(await queue.get(), 'a');
  assert.equal(await queue.get(), 'b');
  assert.equal(queue.length, 0);
});

test('N adds while a key is in flight collapse into one extra run, after done()', async () => {
  const queue = new WorkQueue({ clock: new FakeClock() });
  queue.add('a');
  assert.equal(await queue.get(), 'a');
  for (let i = 0; i < 50; i++) queue.add('a');
  // Not handed out again while in flight, even to another worker.
  let second: string | undefined;
  const otherWorker = queue.get().then((k) => (second = k));
  await new Promise((r) => setImmediate(r));
  assert.equal(second, undefined);
  queue.done('a');
  await otherWorker;
  assert.equal(second, 'a');
  assert.equal(queue.length, 0, 'fifty adds became one run');
  queue.done('a');
  assert.equal(queue.length, 0);
});

test('concurrent workers never hold the same key at once', async () => {
  const queue = new WorkQueue({ clock: new FakeClock() });
  const inFlight = new Set<string>();
  const runs = new Map<string, number>();
  let overlaps = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      if (inFlight.has(key)) overlaps++;
      inFlight.add(key);
      runs.set(key, (runs.get(key) ?? 0) + 1);
      await new Promise((r) => setImmediate(r));
      inFlight.delete(key);
      queue.done(key);
    }
  };
  const workers = Array.from({ length: 4 }, () => worker());
  for (let round = 0; round < 20; round++) {
    for (let k = 0; k < 5; k++) queue.add(`k${k}`);
    await new Promise((r) => setImmediate(r));
  }
  await queue.shutDownWithDrain();
  await Promise.all(workers);
  assert.equal(overlaps, 0);
  for (let k = 0; k < 5; k++) assert.ok((runs.get(`k${k}`) ?? 0) >= 1);
});

test('addAfter keeps the earliest due time and fires from one timer', async () => {
  const clock = new FakeClock();
  const queue = new WorkQueue({ clock });
  queue.addAfter('a', 100);
  queue.addAfter('a', 50);
  queue.addAfter('a', 200);
  queue.addAfter('b', 70);
  assert.equal(queue.delayedCount, 2);
  assert.equal(clock.pending(), 1, 'only the earliest due time holds a timer');
  clock.advance(49);
  assert.equal(queue.length, 0);
  clock.advance(1);
  assert.equal(queue.length, 1);
  clock.advance(20);
  assert.equal(queue.length, 2);
  assert.equal(await queue.get(), 'a');
  assert.equal(await queue.get(), 'b');
  clock.advance(1000);
  assert.equal(queue.length, 0, 'the later addAfter(a) calls were absorbed');
  assert.equal(clock.pending(), 0);
});

test('shutDownWithDrain processes queued and in-flight keys, refuses new ones, drops delayed ones', async () => {
  const clock = new FakeClock();
  const queue = new WorkQueue({ clock });
  for (const k of ['a', 'b', 'c']) queue.add(k);
  queue.addAfter('later', 10);
  const first = await queue.get();
  assert.equal(first, 'a');
  queue.add('a'); // dirty while in flight: must still run once more
  let drained = false;
  const drain = queue.shutDownWithDrain().then(() => (drained = true));
  queue.add('d');
  assert.equal(queue.length, 2);
  const seen: string[] = [];
  const worker = (async () => {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      seen.push(key);
      queue.done(key);
    }
  })();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(seen, ['b', 'c']);
  assert.equal(drained, false, 'a is still in flight');
  queue.done('a');
  await drain;
  await worker;
  assert.deepEqual(seen, ['b', 'c', 'a']);
  clock.advance(100);
  assert.equal(queue.length, 0);
  assert.equal(await queue.get(), undefined);
});

test('shutDown stops waiting workers at once', async () => {
  const queue = new WorkQueue({ clock: new FakeClock() });
  const pending = queue.get();
  queue.add('x');
  assert.equal(await pending, 'x');
  const waiting = queue.get();
  queue.shutDown();
  assert.equal(await waiting, undefined);
});

test('work metrics: durations come from the injected clock', async () => {
  const clock = new FakeClock();
  const events: string[] = [];
  const queue = new WorkQueue({
    clock,
    metrics: {
      added: () => events.push('add'),
      depth: (n) => events.push(`depth=${n}`),
      dequeued: (s) => events.push(`waited=${s}`),
      finished: (s) => events.push(`worked=${s}`),
      retried: () => events.push('retry'),
    },
  });
  queue.add('a');
  clock.advance(250);
  const key = await queue.get();
  assert.equal(key, 'a');
  clock.advance(1500);
  assert.equal(queue.unfinishedWorkSeconds(), 1.5);
  assert.equal(queue.longestRunningProcessorSeconds(), 1.5);
  queue.done('a');
  queue.addRateLimited('a');
  assert.deepEqual(events, ['add', 'depth=1', 'waited=0.25', 'depth=0', 'worked=1.5', 'retry']);
});
