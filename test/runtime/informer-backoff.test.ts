// Reconnect backoff on a manual clock: doubling from 800 ms to 30 s, jitter within bounds, reset after quiet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../src/runtime/workqueue/fake-clock.ts';
import { Backoff } from '../../src/runtime/informer/backoff.ts';

test('doubles from 800 ms and caps at 30 s without jitter', () => {
  const clock = new FakeClock();
  const b = new Backoff(clock, { jitter: 0 });
  const delays = Array.from({ length: 8 }, () => b.next());
  assert.deepEqual(delays, [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
});

test('jitter keeps delays within [50%, 100%] of the exponential value', () => {
  const clock = new FakeClock();
  let r = 0;
  const b = new Backoff(clock, { jitter: 0.5 }, () => (r = (r + 0.37) % 1));
  for (let i = 0; i < 10; i++) {
    const expected = Math.min(30000, 800 * 2 ** i);
    const d = b.next();
    assert.ok(d >= expected * 0.5 && d <= expected, `${d} vs ${expected}`);
  }
});

test('resets after a healthy period', () => {
  const clock = new FakeClock();
  const b = new Backoff(clock, { jitter: 0, resetAfterMs: 120_000 });
  b.next();
  b.next();
  clock.advance(60_000);
  assert.equal(b.next(), 3200);
  clock.advance(120_000);
  assert.equal(b.next(), 800);
});
