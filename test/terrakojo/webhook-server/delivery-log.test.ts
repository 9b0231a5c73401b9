// The remembered delivery ids: a duplicate is seen as one, a failed delivery is forgotten, and the log is bounded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DeliveryLog } from '../../../src/terrakojo/webhook-server/delivery-log.ts';

test('a claimed id is a duplicate until released; the oldest ids are forgotten past the capacity', () => {
  const log = new DeliveryLog(2);
  assert.equal(log.claim('a'), true);
  assert.equal(log.claim('a'), false);
  log.release('a');
  assert.equal(log.claim('a'), true);
  assert.equal(log.claim('b'), true);
  assert.equal(log.claim('c'), true);
  assert.equal(log.size, 2);
  assert.equal(log.claim('a'), true, 'a was the oldest, and is forgotten');
  assert.equal(log.claim('c'), false);
  const long = 'x'.repeat(200);
  assert.equal(log.claim(long), true);
  assert.equal(log.claim(long), true, 'an id longer than any of GitHub\'s is not remembered');
  assert.throws(() => new DeliveryLog(0), RangeError);
});
