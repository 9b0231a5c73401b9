// Target selection as pure functions: selector, eligibility, count scaling, disrupted targets, random picks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DisruptionSpec } from '../../../src/chaos/api/types.ts';
import type { ConditionStatus, Node, Pod, PodPhase } from '../../../src/apimachinery/api/index.ts';
import { podFixture, type PodStatusFixture } from './pod-fixture.ts';
import { EmptySelectorError, isDisrupting, isEligibleNode, isEligiblePod, isTargetAvailable, scaledCount, selectTargets, targetSelector, type SelectionInput } from '../../../src/chaos/controller/selection.ts';
import { formatLabelSelector } from '../../../src/apimachinery/label-selector.ts';

const spec = (s: Partial<DisruptionSpec> = {}): DisruptionSpec => ({ count: 1, selector: { app: 'demo' }, ...s });

test('scaledCount: integers as is, percentages rounded up', () => {
  const table: Array<[number | string, number, number]> = [
    [1, 5, 1],
    [3, 2, 3],
    ['3', 2, 3],
    ['100%', 2, 2],
    ['30%', 2, 1],
    ['50%', 3, 2],
    ['1%', 1000, 10],
    ['1%', 0, 0],
    ['bad', 3, 0],
  ];
  for (const [count, total, expected] of table) assert.equal(scaledCount(count, total), expected, `${count} of ${total}`);
});

test('targetSelector: selector and advancedSelector; onInit adds the on-init label; empty is an error', () => {
  assert.equal(formatLabelSelector(targetSelector(spec({ advancedSelector: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] }))), 'app=demo,tier in (a,b)');
  assert.equal(formatLabelSelector(targetSelector(spec({ onInit: true }))), 'app=demo,chaos.datadoghq.com/disrupt-on-init');
  assert.throws(() => targetSelector(spec({ selector: {} })), EmptySelectorError);
  assert.throws(() => targetSelector(spec({ selector: null, advancedSelector: [] })), EmptySelectorError);
});

const pod = (name: string, phase: PodPhase, extra: Partial<Pod['metadata']> = {}, nodeName = 'n1'): Pod => podFixture({ metadata: { name, ...extra }, spec: { nodeName }, status: { phase } });

test('isEligiblePod: Running and not terminating, annotation filter, safeguards for nodeFailure', () => {
  const c = { spec: spec(), currentTargets: new Set<string>(), safeguardNode: undefined };
  assert.equal(isEligiblePod(pod('a', 'Running'), c), true);
  assert.equal(isEligiblePod(pod('a', 'Pending'), c), false);
  assert.equal(isEligiblePod(pod('a', 'Succeeded'), c), false);
  // Upstream's missing check: a Terminating pod still Running is not a target.
  assert.equal(isEligiblePod(pod('a', 'Running', { deletionTimestamp: '2026-01-01T00:00:00Z' }), c), false);
  const filtered = { ...c, spec: spec({ filter: { annotations: { foo: 'baz' } } }) };
  assert.equal(isEligiblePod(pod('a', 'Running', { annotations: { foo: 'bar' } }), filtered), false);
  assert.equal(isEligiblePod(pod('a', 'Running', { annotations: { foo: 'baz', x: 'y' } }), filtered), true);
  const guarded = { ...c, spec: spec({ nodeFailure: {} }), safeguardNode: 'ctrl' };
  assert.equal(isEligiblePod(pod('a', 'Running', {}, 'ctrl'), guarded), false);
  assert.equal(isEligiblePod(pod('a', 'Running', {}, 'n1'), guarded), true);
  assert.equal(isEligiblePod(pod('a', 'Running', {}, 'ctrl'), { ...guarded, spec: spec({ network: {} }) }), true);
});

test('isEligiblePod: onInit takes Pending pods whose chaos-handler runs, and keeps Running ones already targeted', () => {
  const c = { spec: spec({ onInit: true }), currentTargets: new Set(['kept']), safeguardNode: undefined };
  const waiting = podFixture({ metadata: { name: 'w' }, status: { phase: 'Pending', initContainerStatuses: [{ name: 'chaos-handler', state: { running: {} } }] } });
  assert.equal(isEligiblePod(waiting, c), true);
  assert.equal(isEligiblePod(pod('fresh', 'Running'), c), false);
  assert.equal(isEligiblePod(pod('kept', 'Running'), c), true);
  // Released: the handler has exited, the app not started yet; the target must not be dropped in between.
  const released = podFixture({ metadata: { name: 'kept' }, status: { phase: 'Pending', initContainerStatuses: [{ name: 'chaos-handler', state: { terminated: { exitCode: 0 } } }] } });
  assert.equal(isEligiblePod(released, c), true);
  assert.equal(isEligiblePod({ ...released, metadata: { name: 'other' } }, c), false);
});

test('isEligibleNode: Ready, annotation filter, never the controller node with safeguards', () => {
  const node = (name: string, ready: ConditionStatus): Node => ({ metadata: { name }, status: { conditions: [{ type: 'Ready', status: ready }] } });
  const c = { spec: spec({ level: 'node' }), currentTargets: new Set<string>(), safeguardNode: 'ctrl' };
  assert.equal(isEligibleNode(node('n1', 'True'), c), true);
  assert.equal(isEligibleNode(node('n1', 'False'), c), false);
  assert.equal(isEligibleNode(node('ctrl', 'True'), c), false);
});

test('isDisrupting and isTargetAvailable: other disruptions\' live chaos pods block a target unless allowDisruptedTargets and no shared kind', () => {
  const chaos = (kind: string, status: PodStatusFixture): Pod => podFixture({ metadata: { name: 'c', labels: { 'chaos.datadoghq.com/disruption-kind': kind } }, status });
  const running = chaos('cpu-pressure', { phase: 'Running', containerStatuses: [{ name: 'injector', state: { running: {} } }] });
  const done = chaos('cpu-pressure', { phase: 'Succeeded', containerStatuses: [{ name: 'injector', state: { terminated: { exitCode: 0 } } }] });
  const failed = chaos('cpu-pressure', { phase: 'Failed', containerStatuses: [{ name: 'injector', state: { terminated: { exitCode: 1 } } }] });
  const fresh = chaos('cpu-pressure', {});
  assert.deepEqual([running, done, failed, fresh].map(isDisrupting), [true, false, true, true]);
  assert.equal(isTargetAvailable([], spec(), ['network-disruption']), true);
  assert.equal(isTargetAvailable([done], spec(), ['cpu-pressure']), true);
  assert.equal(isTargetAvailable([running], spec(), ['network-disruption']), false);
  assert.equal(isTargetAvailable([running], spec({ allowDisruptedTargets: true }), ['network-disruption']), true);
  assert.equal(isTargetAvailable([running], spec({ allowDisruptedTargets: true }), ['network-disruption', 'cpu-pressure']), false);
});

const base = (s: Partial<SelectionInput>): SelectionInput => ({ count: 1, matching: [], eligible: [], current: [], unavailable: new Set(), staticTargeting: false, rng: () => 0, ...s });

test('selectTargets: nothing matches → NoTargetsFound; matches but none available → NoMoreTargets', () => {
  assert.deepEqual(selectTargets(base({})), { targets: [], added: [], removed: [], desired: 1, noTargetsFound: true, noMoreTargets: false });
  const r = selectTargets(base({ matching: ['a'], eligible: ['a'], unavailable: new Set(['a']) }));
  assert.equal(r.noMoreTargets, true);
  assert.deepEqual(r.targets, []);
});

test('selectTargets: picks randomly with the RNG, 30% of 2 is 1, integers above the eligible count take all', () => {
  assert.deepEqual(selectTargets(base({ count: '30%', matching: ['a', 'b'], eligible: ['a', 'b'], rng: () => 0.99 })).targets, ['b']);
  assert.deepEqual(selectTargets(base({ count: '30%', matching: ['a', 'b'], eligible: ['a', 'b'], rng: () => 0 })).targets, ['a']);
  const r = selectTargets(base({ count: '3', matching: ['a', 'b'], eligible: ['a', 'b'] }));
  assert.deepEqual([r.targets.sort(), r.desired], [['a', 'b'], 3]);
});

test('selectTargets: dynamic targeting adds new pods, drops dead targets, and trims to count', () => {
  const grown = selectTargets(base({ count: '100%', matching: ['a', 'b', 'c'], eligible: ['a', 'b', 'c'], current: ['a', 'b'] }));
  assert.deepEqual([grown.targets, grown.added, grown.removed], [['a', 'b', 'c'], ['c'], []]);
  const shrunk = selectTargets(base({ count: '100%', matching: ['a', 'b'], eligible: ['a', 'b'], current: ['a', 'b', 'c'] }));
  assert.deepEqual([shrunk.targets, shrunk.removed], [['a', 'b'], ['c']]);
  const trimmed = selectTargets(base({ count: 1, matching: ['a', 'b'], eligible: ['a', 'b'], current: ['a', 'b'], rng: () => 0 }));
  assert.deepEqual([trimmed.targets, trimmed.removed], [['b'], ['a']]);
  // A target another disruption holds is not added, but one already ours stays.
  const held = selectTargets(base({ count: '100%', matching: ['a', 'b'], eligible: ['a', 'b'], current: ['a'], unavailable: new Set(['b']) }));
  assert.deepEqual(held.targets, ['a']);
});

test('selectTargets: static targeting keeps its targets whatever happens', () => {
  const r = selectTargets(base({ count: '100%', matching: ['b', 'c'], eligible: ['b', 'c'], current: ['a'], staticTargeting: true }));
  assert.deepEqual([r.targets, r.added, r.removed], [['a'], [], []]);
  // Until it has targets, it selects as usual.
  assert.deepEqual(selectTargets(base({ count: 1, matching: ['b'], eligible: ['b'], staticTargeting: true })).targets, ['b']);
});
