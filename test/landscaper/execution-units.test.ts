// Pure parts of the execution and deploy item controllers: classes A–E, cycles, template validation,
// deploy item matching, deployItemsCompressed, lastError updates and the timeout helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import type { DeployItem } from '../../src/landscaper/api/deploy-item.ts';
import type { Execution } from '../../src/landscaper/api/execution.ts';
import { isPickedUp, pickupRemainingMs } from '../../src/landscaper/deployitem/index.ts';
import { checkProgressingTimeout, untilDeadlineMs } from '../../src/landscaper/deployers/contract/timeout.ts';
import { formatGoDuration } from '../../src/apimachinery/duration.ts';
import { InvalidTimeoutError, parseTimeout, progressingDeadline } from '../../src/landscaper/timeouts.ts';
import {
  classifyForDelete,
  classifyForReconcile,
  desiredDeployItem,
  formatCycle,
  updatedLsError,
  validateTemplates,
  type ExecutionItem,
} from '../../src/landscaper/execution/index.ts';
import { deployItemChanged } from '../../src/landscaper/execution/materialize.ts';
import { matchDeployItems } from '../../src/landscaper/execution/phases/init.ts';
import { compressExecutionSpec, deployItemTemplates, DeployItemsCompressedError } from '../../src/landscaper/api/execution-spec.ts';
import { deletionItem } from '../../src/landscaper/execution/deletion.ts';
import { item } from './execution-harness.ts';
import type { ExecutionEnv } from '../../src/landscaper/execution/env.ts';
import { forgetProgress, rememberProgress, unchangedProgress } from '../../src/landscaper/execution/progress-memo.ts';
import { ConfigurationError } from '../../src/landscaper/ls-error.ts';

function di(name: string, status: DeployItem['status'] = {}, meta: Partial<DeployItem['metadata']> = {}): DeployItem {
  return { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'DeployItem', metadata: { name, namespace: 'ns', ...meta }, spec: { type: 't' }, status };
}
const ei = (name: string, dependsOn: string[], deployItem?: DeployItem): ExecutionItem => ({ name, dependsOn, ...(deployItem ? { deployItem } : {}) });
const classNames = (c: ReturnType<typeof classifyForReconcile>): Record<string, string[]> =>
  Object.fromEntries(Object.entries(c).map(([k, v]) => [k, (v as ExecutionItem[]).map((i) => i.name)]));

test('classes A–E for reconcile', () => {
  const items = [
    ei('a', [], di('a', { jobID: 'j2', jobIDFinished: 'j2', phase: 'Succeeded' })),
    ei('b', ['a'], di('b', { jobID: 'j2', jobIDFinished: 'j1', phase: 'Progressing' })),
    ei('c', ['a'], di('c', { jobID: 'j1', jobIDFinished: 'j1', phase: 'Succeeded' })),
    ei('d', ['b', 'c'], di('d', { jobID: 'j1', jobIDFinished: 'j1' })),
    ei('e', [], di('e', { jobID: 'j2', jobIDFinished: 'j2', phase: 'Failed' })),
    ei('gone', []),
    ei('deleting', [], di('deleting', { jobID: 'j1', jobIDFinished: 'j1' }, { deletionTimestamp: '2024-01-01T00:00:00Z' })),
  ];
  assert.deepEqual(classNames(classifyForReconcile('j2', items)), {
    succeeded: ['a'],
    failed: ['e', 'gone', 'deleting'],
    running: ['b'],
    runnable: ['c'],
    pending: ['d'],
  });
  assert.throws(() => classifyForReconcile('j2', [ei('x', ['nope'], di('x'))]), ConfigurationError);
});

test('classes for delete: reverse dependsOn order, gone = done, finished-not-failed = still running', () => {
  const items = [
    ei('a', [], di('a', { jobID: 'j1', jobIDFinished: 'j1' })),
    ei('b', ['a'], di('b', { jobID: 'j1' })),
    ei('c', ['b'], di('c', { jobID: 'j2', jobIDFinished: 'j2', phase: 'Succeeded' })),
    ei('d', ['b'], di('d', { jobID: 'j2', jobIDFinished: 'j2', phase: 'DeleteFailed' })),
    ei('gone', ['a']),
  ];
  assert.deepEqual(classNames(classifyForDelete('j2', items)), { succeeded: ['gone'], failed: ['d'], running: ['c'], runnable: [], pending: ['a', 'b'] });
  const leaf = [ei('a', [], di('a', { jobID: 'j1' })), ei('b', ['a'], di('b', { jobID: 'j1' }))];
  assert.deepEqual(classNames(classifyForDelete('j2', leaf)).runnable, ['b']);
});

test('cycles are named', () => {
  assert.equal(formatCycle(['x', 'x']), 'dependsOn cycle: x → x');
  assert.throws(() => validateTemplates([item('a', ['a'])]), /dependsOn cycle: a → a/);
  assert.throws(() => validateTemplates([item('a'), item('a')]), /used more than once/);
  assert.throws(() => validateTemplates([item('a', ['zz'])]), /depends on "zz"/);
  assert.doesNotThrow(() => validateTemplates([item('a'), item('b', ['a'])]));
});

test('deployItemsCompressed is read like upstream (it wins over the plain list) and written gzipped', () => {
  const list = [item('p'), item('q', ['p'])];
  const compressed = gzipSync(Buffer.from(JSON.stringify(list))).toString('base64');
  assert.deepEqual(deployItemTemplates({ deployItems: [item('plain')], deployItemsCompressed: compressed }), list);
  assert.deepEqual(deployItemTemplates({ deployItems: list }), list);
  assert.deepEqual(deployItemTemplates({}), []);
  const spec = compressExecutionSpec({ context: 'c', deployItems: list });
  assert.equal(spec.deployItems, undefined);
  assert.deepEqual(deployItemTemplates(spec), list);
  assert.throws(() => deployItemTemplates({ deployItemsCompressed: 'bm90IGd6aXA=' }), DeployItemsCompressedError);
});

const exec: Execution = { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Execution', metadata: { name: 'ex', namespace: 'ns', uid: 'u1' }, spec: {} };

test('Init keeps one live deploy item per template; twins, unknown and deleting ones are orphans', () => {
  const label = (n: string, name: string, extra: Partial<DeployItem['metadata']> = {}): DeployItem =>
    di(n, {}, { labels: { 'execution.landscaper.gardener.cloud/name': name }, ...extra });
  const items = [
    label('ex-a-1', 'a', { creationTimestamp: '2024-01-01T00:00:02Z' }),
    label('ex-a-2', 'a', { creationTimestamp: '2024-01-01T00:00:01Z' }),
    label('ex-b-1', 'b', { deletionTimestamp: '2024-01-01T00:00:00Z' }),
    label('ex-old-1', 'old'),
  ];
  const { active, orphans } = matchDeployItems(exec, [item('a'), item('b')], items);
  assert.equal(active.get('a')?.metadata.name, 'ex-a-2');
  assert.equal(active.has('b'), false);
  assert.deepEqual(orphans.map((o) => o.metadata.name).sort(), ['ex-a-1', 'ex-b-1', 'ex-old-1']);
  const known = { ...exec, status: { deployItemCache: { activeDIs: [{ specName: 'a', objectName: 'ex-a-1' }] } } };
  assert.equal(matchDeployItems(known, [item('a')], items).active.get('a')?.metadata.name, 'ex-a-1');
});

test('a deploy item is rewritten only when more than its reconcile-time changed', () => {
  const first = desiredDeployItem(exec, item('a', [], { timeout: 'none' }), undefined, new Date('2024-01-01T00:00:00Z'));
  assert.equal(first.metadata.generateName, 'ex-a-');
  assert.equal(first.spec.context, 'default');
  assert.equal(first.spec.timeout, 'none');
  const stored = { ...first, metadata: { ...first.metadata, name: 'ex-a-x', resourceVersion: '1' } };
  const again = desiredDeployItem(exec, item('a', [], { timeout: 'none' }), stored, new Date('2024-02-01T00:00:00Z'));
  assert.equal(deployItemChanged(stored, again), false);
  assert.equal(deployItemChanged(stored, desiredDeployItem(exec, item('a', ['b']), stored, new Date())), true);
  assert.deepEqual(deletionItem(desiredDeployItem(exec, item('c', ['a', 'b']), undefined, new Date())).dependsOn, ['a', 'b']);
});

test('lastError keeps its timestamps unless it changes (UpdatedError)', () => {
  const t1 = new Date('2024-01-01T00:00:00Z');
  const t2 = new Date('2024-01-01T00:01:00Z');
  const e1 = updatedLsError(undefined, 'Op', 'R', 'm', [], t1);
  assert.equal(updatedLsError(e1, 'Op', 'R', 'm', [], t2), e1);
  const e2 = updatedLsError(e1, 'Op', 'R', 'other', [], t2);
  assert.equal(e2.lastTransitionTime, '2024-01-01T00:00:00Z');
  assert.equal(e2.lastUpdateTime, '2024-01-01T00:01:00Z');
  assert.equal(updatedLsError(e2, 'Op2', 'R', 'other', [], t2).lastTransitionTime, '2024-01-01T00:01:00Z');
});

test('timeouts: Go durations, "none" and zero disable, invalid is an error', () => {
  assert.deepEqual(parseTimeout('10m'), { disabled: false, ms: 600_000 });
  assert.deepEqual(parseTimeout(undefined), { disabled: false, ms: 600_000 });
  assert.deepEqual(parseTimeout(undefined, '5m'), { disabled: false, ms: 300_000 });
  assert.deepEqual(parseTimeout('1h30m'), { disabled: false, ms: 5_400_000 });
  assert.deepEqual(parseTimeout('none'), { disabled: true });
  assert.deepEqual(parseTimeout('0s'), { disabled: true });
  assert.deepEqual(parseTimeout(1500), { disabled: false, ms: 1500 });
  assert.throws(() => parseTimeout('ten minutes'), InvalidTimeoutError);
  assert.equal(formatGoDuration(300_000), '5m0s');
  assert.equal(formatGoDuration(1500), '1.5s');
  assert.equal(formatGoDuration(3_600_000), '1h0m0s');
  assert.equal(formatGoDuration(250), '250ms');
});

test('progressing timeout: deadline = initTime + spec.timeout; "none" never expires (upstream fails at once)', () => {
  const running = (timeout: string | undefined): DeployItem => ({ ...di('x', { jobID: 'j', transitionTimes: { initTime: '2024-01-01T00:00:00Z' } }), spec: { type: 't', ...(timeout ? { timeout } : {}) } });
  assert.equal(progressingDeadline(running(undefined)), Date.parse('2024-01-01T00:10:00Z'));
  assert.equal(progressingDeadline(running('none')), undefined);
  // The deployer's checkpoint: no error while time is left; a wait is cut at the deadline (+10 ms).
  assert.doesNotThrow(() => checkProgressingTimeout(running('none'), 'test', Date.parse('2030-01-01T00:00:00Z')));
  assert.equal(untilDeadlineMs(running('none'), Date.parse('2030-01-01T00:00:00Z')), undefined);
  assert.doesNotThrow(() => checkProgressingTimeout(running('1m'), 'test', Date.parse('2024-01-01T00:00:30Z')));
  assert.equal(untilDeadlineMs({ ...running('1m'), status: { ...running('1m').status, phase: 'Progressing' } }, Date.parse('2024-01-01T00:00:30Z')), 30_010);
  assert.throws(() => checkProgressingTimeout(running('1m'), 'test', Date.parse('2024-01-01T00:01:00Z')), (err: unknown) => {
    const e = err as { reason: string; codes: string[]; message: string };
    assert.equal(e.reason, 'ProgressingTimeout');
    assert.deepEqual(e.codes, ['ERR_TIMEOUT']);
    assert.match(e.message, /timed out after 1m \(progressing timeout/);
    return true;
  });
  assert.equal(progressingDeadline(di('y', { jobID: 'j' })), undefined, 'not started: no deadline yet');
});

test('pickup: picked up at second precision; remaining time never fires early', () => {
  const pickup = parseTimeout('5m');
  const triggered = di('x', { jobID: 'j2', jobIDFinished: 'j1', jobIDGenerationTime: '2024-01-01T00:00:00Z' });
  assert.equal(isPickedUp(triggered), false);
  assert.equal(pickupRemainingMs(triggered, pickup, new Date('2024-01-01T00:00:00.500Z')), 300_499);
  assert.ok((pickupRemainingMs(triggered, pickup, new Date('2024-01-01T00:05:01Z')) ?? 1) <= 0);
  const picked = { ...triggered, status: { ...triggered.status, lastReconcileTime: '2024-01-01T00:00:00Z' } };
  assert.equal(isPickedUp(picked), true);
  assert.equal(pickupRemainingMs(picked, pickup, new Date('2024-01-02T00:00:00Z')), undefined);
  assert.equal(pickupRemainingMs(triggered, parseTimeout('none'), new Date('2030-01-01T00:00:00Z')), undefined);
  const finished = di('x', { jobID: 'j2', jobIDFinished: 'j2', jobIDGenerationTime: '2024-01-01T00:00:00Z' });
  assert.equal(pickupRemainingMs(finished, pickup, new Date('2030-01-01T00:00:00Z')), undefined);
});

test('incremental classification: a wake-up that changes nothing skips the walk; anything else walks', () => {
  const cache = new Map<string, DeployItem>();
  const env = {
    progressMemos: new Map(),
    deployItemInformer: { store: { get: (key: string) => cache.get(key) } },
    deployItemWrites: { resolve: (d: DeployItem) => d, pending: () => undefined },
  } as unknown as ExecutionEnv;
  const exec: Execution = { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Execution', metadata: { name: 'e', namespace: 'ns', uid: 'u1', generation: 1 }, spec: {}, status: { jobID: 'j2' } };
  const running = { jobID: 'j2', jobIDFinished: 'j1', phase: 'Progressing' } as const;
  const set = (d: DeployItem): void => void cache.set(`ns/${d.metadata.name ?? ''}`, d);
  for (const n of ['a1', 'a2', 'a3']) set(di(n, running));
  // a1..a3 run; b1 waits for a1 first, b2 for b1.
  const items = [ei('a1', [], cache.get('ns/a1')), ei('a2', [], cache.get('ns/a2')), ei('a3', [], cache.get('ns/a3')), ei('b1', ['a1', 'a2'], di('b1')), ei('b2', ['b1'], di('b2'))];
  rememberProgress(env, exec, classifyForReconcile('j2', items), { reason: 'WaitingForDeployItems', message: 'waiting' });
  const none = new Map<string, DeployItem>();
  assert.deepEqual(unchangedProgress(env, exec, none), { reason: 'WaitingForDeployItems', message: 'waiting' }, 'nothing finished');
  set(di('a2', { jobID: 'j2', jobIDFinished: 'j2', phase: 'Succeeded' }));
  assert.ok(unchangedProgress(env, exec, none), 'b1 still waits for a1');
  set(di('a3', { jobID: 'j2', jobIDFinished: 'j2', phase: 'Failed' }));
  assert.equal(unchangedProgress(env, exec, none), undefined, 'a failure walks');
  set(di('a3', { jobID: 'j2', jobIDFinished: 'j2', phase: 'Succeeded' }));
  assert.ok(unchangedProgress(env, exec, none));
  set(di('a1', { jobID: 'j2', jobIDFinished: 'j2', phase: 'Succeeded' }));
  assert.equal(unchangedProgress(env, exec, none), undefined, 'b1 is free: walk to trigger it');
  set(di('a1', running));
  cache.delete('ns/a1');
  assert.equal(unchangedProgress(env, exec, none), undefined, 'a running item gone');
  set(di('a1', running));
  assert.equal(unchangedProgress(env, { ...exec, status: { jobID: 'j3' } }, none), undefined, 'another job');
  assert.equal(unchangedProgress(env, { ...exec, metadata: { ...exec.metadata, generation: 2 } }, none), undefined, 'another spec');
  forgetProgress(env, exec);
  assert.equal(unchangedProgress(env, exec, none), undefined, 'forgotten');
});
