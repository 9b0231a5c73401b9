// The sync-requested-at value: distinct for every poke, so no poke is an update that changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SyncStamp } from '../../../src/terrakojo/webhook-server/sync-stamp.ts';

test('stamps within one millisecond differ and increase; a clock stepping back does not move them back', () => {
  let now = Date.parse('2026-11-24T22:17:49.123Z');
  const stamp = new SyncStamp(() => now);
  assert.equal(stamp.next(), '2026-11-24T22:17:49.123000000Z');
  assert.equal(stamp.next(), '2026-11-24T22:17:49.123000001Z');
  now -= 5_000;
  assert.equal(stamp.next(), '2026-11-24T22:17:49.123000002Z');
  now = Date.parse('2026-11-24T22:17:50Z');
  assert.equal(stamp.next(), '2026-11-24T22:17:50.000000000Z');
});
