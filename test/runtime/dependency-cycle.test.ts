// The cycle finder controllers use for objects that wait on each other.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findCycle } from '../../src/runtime/dependency-cycle.ts';

test('cycles are found, named from the same start every time; names without an entry are ignored', () => {
  assert.deepEqual(findCycle(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', []]])), ['a', 'b', 'c', 'a']);
  assert.deepEqual(findCycle(new Map([['c', ['a']], ['b', ['c']], ['a', ['b']]])), ['a', 'b', 'c', 'a']);
  assert.equal(findCycle(new Map([['a', []], ['b', ['a']], ['c', ['a', 'b']]])), undefined);
  assert.equal(findCycle(new Map([['a', ['unknown']]])), undefined);
});
