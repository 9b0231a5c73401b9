// Delete-only mode: the controller only cleans up; a live disruption is deleted, with no chaos pod created.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness({ config: { deleteOnly: true } });
});
after(() => h.close());

test('delete-only: a disruption is deleted and never gets a chaos pod', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'p', { app: 'x' });
  await h.createDisruption(ns, 'd', { selector: { app: 'x' }, cpuPressure: {} });
  await h.until('disruption deleted', () => h.getDisruption(ns, 'd'), (d) => d === undefined);
  assert.equal(h.chaosPods(ns, 'd').length, 0);
});
