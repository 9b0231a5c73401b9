// The cycle finder controllers use for objects that wait on each other.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findCycle, findCycleThrough, reachableFrom } from '../../src/runtime/dependency-cycle.ts';

test('cycles are found, named from the same start every time; names without an entry are ignored', () => {
  assert.deepEqual(findCycle(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', []]])), ['a', 'b', 'c', 'a']);
  assert.deepEqual(findCycle(new Map([['c', ['a']], ['b', ['c']], ['a', ['b']]])), ['a', 'b', 'c', 'a']);
  assert.equal(findCycle(new Map([['a', []], ['b', ['a']], ['c', ['a', 'b']]])), undefined);
  assert.equal(findCycle(new Map([['a', ['unknown']]])), undefined);
});

test('the shortest cycle through one node is named from that node; other cycles do not count', () => {
  const graph = new Map([['x', ['y']], ['y', ['z', 'x']], ['z', ['x']], ['a', ['b']], ['b', ['a']], ['c', ['a']]]);
  assert.deepEqual(findCycleThrough(graph, 'x'), ['x', 'y', 'x']);
  assert.deepEqual(findCycleThrough(graph, 'z'), ['z', 'x', 'y', 'z']);
  assert.equal(findCycleThrough(graph, 'c'), undefined, 'c waits on a cycle but is not on one');
  assert.deepEqual(findCycleThrough(new Map([['s', ['s']]]), 's'), ['s', 's']);
  assert.equal(findCycleThrough(new Map([['a', ['unknown']]]), 'a'), undefined);
});

test('reachableFrom collects what a node waits on through others, itself only on a cycle', () => {
  const graph = new Map([['a', ['b']], ['b', ['c', 'unknown']], ['c', []], ['d', ['a']], ['x', ['y']], ['y', ['x']]]);
  assert.deepEqual([...reachableFrom(graph, 'd')].sort(), ['a', 'b', 'c']);
  assert.deepEqual([...reachableFrom(graph, 'c')], []);
  assert.deepEqual([...reachableFrom(graph, 'x')].sort(), ['x', 'y']);
});
