// The process metrics a manager exposes: the event loop's delay is sampled every 100 ms (not prom-client's 10 ms,
// a hundred wake-ups a second in an idle `bosun up`) and still shows a stall.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'node:test';
import { RuntimeMetrics } from '../../src/runtime/metrics.ts';

function gauge(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  assert.ok(line, `${name} in the scrape`);
  return Number(line.split(' ')[1]);
}

test('process metrics: a 300 ms stall of the event loop shows in nodejs_eventloop_lag_max_seconds', async () => {
  const metrics = new RuntimeMetrics({ processMetrics: true });
  await metrics.registry.metrics(); // the lag histogram starts from this scrape
  await sleep(250);
  const until = performance.now() + 300;
  while (performance.now() < until); // a synchronous stall, as a long reconcile would be
  await sleep(250);
  const text = await metrics.registry.metrics();
  // The sampling timer last fired less than 100 ms before the stall, so it reads at least 300 - 100 ms late.
  assert.ok(gauge(text, 'nodejs_eventloop_lag_max_seconds') >= 0.15, text.split('\n').filter((l) => l.startsWith('nodejs_eventloop_lag')).join('\n'));
  assert.ok(gauge(text, 'process_cpu_user_seconds_total') > 0);
});
