// The Disruption controller against the embedded API server, the test playing the kubelet: finalizer, chaos
// pods (labels, nodeName, args), status counts and injection status, dynamic targeting, events, deletion with
// cleanedAt and the finalizer delay, stuck on removal, expiry, and the RBAC the family declares.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { podsResource } from '../../../src/apimachinery/builtin-resources.ts';
import { disruptionsResource } from '../../../src/chaos/api/resources.ts';
import type { Disruption } from '../../../src/chaos/api/types.ts';
import type { Pod } from '../../../src/apimachinery/api/index.ts';
import { chaosFamily } from '../../../src/chaos/family.ts';
import { unauthorizedRequests } from '../../helpers/rbac.ts';
import { CHAOS_NS, CONTROLLER_USER_AGENT, startHarness, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const counts = (d: Disruption) => {
  const s = d.status;
  return { desired: s?.desiredTargetsCount, ignored: s?.ignoredTargetsCount, selected: s?.selectedTargetsCount, injected: s?.injectedTargetsCount };
};
const argsOf = (pod: Pod | undefined): string[] => (pod?.spec?.containers?.[0]?.['args'] as string[] | undefined) ?? [];
const reasons = (ns: string, name: string) => h.events(ns, name).map((e) => `${e.type}/${e.reason}`);

async function readyAll(ns: string, name: string): Promise<void> {
  for (const pod of h.chaosPods(ns, name)) if (!pod.metadata.deletionTimestamp) await h.kubelet(pod, 'ready');
}

test('a disruption gets its finalizer, one chaos pod per target × kind on the target\'s node, counts, then Injected once every chaos pod is ready', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'web-0', { app: 'web' }, { node: 'node-a', containers: ['app', 'sidecar'] });
  await h.targetPod(ns, 'web-1', { app: 'web' }, { node: 'node-b' });
  await h.targetPod(ns, 'other', { app: 'other' });
  await h.createDisruption(ns, 'two-kinds', { count: '100%', selector: { app: 'web' }, network: { drop: 10 }, cpuPressure: {} });

  const partial = await h.untilDisruption(ns, 'two-kinds', 'targets selected', (d) => d.status?.selectedTargetsCount === 2 && d.status.injectionStatus === 'PartiallyInjected');
  assert.deepEqual(partial.metadata.finalizers, ['finalizer.chaos.datadoghq.com']);
  assert.deepEqual(counts(partial), { desired: 2, ignored: 0, selected: 2, injected: 0 });
  assert.deepEqual(Object.keys(partial.status?.targetInjections ?? {}).sort(), ['web-0', 'web-1']);
  assert.deepEqual(Object.keys(partial.status?.targetInjections?.['web-0'] ?? {}).sort(), ['cpu-pressure', 'network-disruption']);

  const pods = await h.until('four chaos pods', () => h.chaosPods(ns, 'two-kinds'), (p) => p.length === 4);
  const byTarget = pods.map((p) => `${p.metadata.labels?.['chaos.datadoghq.com/target']}/${p.metadata.labels?.['chaos.datadoghq.com/disruption-kind']}@${p.spec?.nodeName}`).sort();
  assert.deepEqual(byTarget, ['web-0/cpu-pressure@node-a', 'web-0/network-disruption@node-a', 'web-1/cpu-pressure@node-b', 'web-1/network-disruption@node-b']);
  for (const p of pods) {
    assert.match(p.metadata.name ?? '', /^chaos-two-kinds-/);
    assert.equal(p.metadata.namespace, CHAOS_NS);
    assert.deepEqual(p.metadata.finalizers, ['finalizer.chaos.datadoghq.com/chaos-pod']);
    assert.equal(p.metadata.labels?.['chaos.datadoghq.com/disruption-namespace'], ns);
  }
  const web0 = pods.find((p) => p.metadata.labels?.['chaos.datadoghq.com/target'] === 'web-0' && p.metadata.labels['chaos.datadoghq.com/disruption-kind'] === 'cpu-pressure');
  const args = argsOf(web0);
  assert.deepEqual(args.slice(0, 3), ['cpu-pressure', '--count', '100%']);
  assert.equal(args[args.indexOf('--target-containers') + 1], `app;containerd://web-0-app,sidecar;containerd://web-0-sidecar`);
  assert.equal(args[args.indexOf('--target-pod-ip') + 1], '10.1.0.9');
  assert.equal(args[args.indexOf('--log-context-target-node-name') + 1], 'node-a');

  // Three of four ready: still partial; the fourth: Injected.
  const [first, ...rest] = h.chaosPods(ns, 'two-kinds');
  for (const p of rest) await h.kubelet(p, 'ready');
  const three = await h.untilDisruption(ns, 'two-kinds', 'one target injected', (d) => d.status?.injectedTargetsCount === 1);
  assert.equal(three.status?.injectionStatus, 'PartiallyInjected');
  await h.kubelet(first!, 'ready');
  const injected = await h.untilDisruption(ns, 'two-kinds', 'Injected', (d) => d.status?.injectionStatus === 'Injected');
  assert.deepEqual(counts(injected), { desired: 2, ignored: 0, selected: 2, injected: 2 });
  assert.ok(Object.values(injected.status?.targetInjections ?? {}).every((kinds) => Object.values(kinds).every((t) => t.injectionStatus === 'Injected' && t.injectorPodName?.startsWith('chaos-two-kinds-'))));
  await h.until('ChaosPodCreated events', () => reasons(ns, 'two-kinds'), (r) => r.includes('Normal/ChaosPodCreated'));
  await h.until('Disrupted on the target', () => reasons(ns, 'web-1'), (r) => r.includes('Normal/Disrupted'));
  // The other pod was matched by nothing.
  assert.equal(h.chaosPods(ns, 'two-kinds').filter((p) => p.metadata.labels?.['chaos.datadoghq.com/target'] === 'other').length, 0);
});

test('dynamic targeting: a new matching pod is added, a deleted one is dropped and its chaos pod removed', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'a', { app: 'dyn' });
  await h.targetPod(ns, 'b', { app: 'dyn' });
  await h.createDisruption(ns, 'dyn', { count: '100%', selector: { app: 'dyn' }, cpuPressure: {} });
  await h.untilDisruption(ns, 'dyn', 'two targets', (d) => d.status?.selectedTargetsCount === 2);
  await readyAll(ns, 'dyn');
  await h.untilDisruption(ns, 'dyn', 'Injected', (d) => d.status?.injectionStatus === 'Injected');

  await h.targetPod(ns, 'c', { app: 'dyn' });
  const three = await h.untilDisruption(ns, 'dyn', 'three targets', (d) => d.status?.selectedTargetsCount === 3);
  assert.deepEqual(counts(three), { desired: 3, ignored: 0, selected: 3, injected: 2 });
  assert.equal(three.status?.injectionStatus, 'PartiallyInjected');
  await h.until('chaos pod for c', () => h.chaosPods(ns, 'dyn'), (p) => p.length === 3);
  await readyAll(ns, 'dyn');
  await h.untilDisruption(ns, 'dyn', 'Injected with three', (d) => d.status?.injectionStatus === 'Injected' && d.status.injectedTargetsCount === 3);

  await h.client.delete(podsResource, 'c', { namespace: ns, gracePeriodSeconds: 0 });
  const two = await h.untilDisruption(ns, 'dyn', 'back to two', (d) => d.status?.selectedTargetsCount === 2 && d.status.desiredTargetsCount === 2);
  assert.equal(two.status?.targetInjections?.['c'], undefined);
  // c's chaos pod is deleted; its target is gone, so its finalizer goes and the pod with it.
  await h.until('c\'s chaos pod gone', () => h.chaosPods(ns, 'dyn').map((p) => p.metadata.labels?.['chaos.datadoghq.com/target']).sort(), (t) => t.join() === 'a,b');
  await h.untilDisruption(ns, 'dyn', 'Injected again', (d) => d.status?.injectionStatus === 'Injected' && d.status.injectedTargetsCount === 2);
});

test('a selector matching nothing gives NoTargetsFound; matching pods that are Pending or terminating give NoMoreTargets', async () => {
  const ns = await h.namespace();
  await h.createDisruption(ns, 'none', { selector: { app: 'nothing' }, cpuPressure: {} });
  await h.until('NoTargetsFound', () => reasons(ns, 'none'), (r) => r.includes('Warning/NoTargetsFound'));
  const none = await h.untilDisruption(ns, 'none', 'status written', (x) => x.status?.injectionStatus === 'NotInjected');
  assert.deepEqual(counts(none), { desired: 1, ignored: 0, selected: 0, injected: 0 });

  // One pod never leaves Pending; another runs but is terminating (a finalizer holds it).
  await h.client.create(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pending', namespace: ns, labels: { app: 'idle' } }, spec: { nodeName: 'node-a', containers: [{ name: 'app', image: 'busybox' }] } });
  await h.client.create(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'leaving', namespace: ns, labels: { app: 'idle' }, finalizers: ['test/hold'] }, spec: { nodeName: 'node-a', containers: [{ name: 'app', image: 'busybox' }] } });
  await h.client.patchStatus(podsResource, 'leaving', { status: { phase: 'Running' } }, { type: 'merge', namespace: ns });
  await h.client.delete(podsResource, 'leaving', { namespace: ns, gracePeriodSeconds: 0 });
  await h.createDisruption(ns, 'idle', { count: '100%', selector: { app: 'idle' }, cpuPressure: {} });
  await h.until('NoMoreTargets', () => reasons(ns, 'idle'), (r) => r.includes('Normal/NoMoreTargets'));
  const idle = await h.untilDisruption(ns, 'idle', 'status written', (x) => x.status?.injectionStatus === 'NotInjected');
  assert.deepEqual(counts(idle), { desired: 0, ignored: 2, selected: 0, injected: 0 });
  assert.equal(h.chaosPods(ns, 'idle').length, 0);
  await h.client.patch(podsResource, 'leaving', { metadata: { finalizers: null } }, { type: 'merge', namespace: ns });
});

test('a container the target does not have: InvalidSpec, no chaos pod for that target', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'p', { app: 'ctn' }, { containers: ['app'] });
  await h.createDisruption(ns, 'bad-ctn', { selector: { app: 'ctn' }, containers: ['missing'], cpuPressure: {} });
  await h.until('InvalidSpec', () => h.events(ns, 'bad-ctn'), (e) => e.some((x) => x.reason === 'InvalidSpec' && x.message.includes('missing')));
  assert.equal(h.chaosPods(ns, 'bad-ctn').length, 0);
});

test('another disruption\'s target is skipped: two identical disruptions never share a target', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'only', { app: 'shared' });
  await h.createDisruption(ns, 'first', { selector: { app: 'shared' }, cpuPressure: {} });
  await h.untilDisruption(ns, 'first', 'a target', (d) => d.status?.selectedTargetsCount === 1);
  await h.until('first\'s chaos pod', () => h.chaosPods(ns, 'first'), (p) => p.length === 1);
  await h.createDisruption(ns, 'second', { selector: { app: 'shared' }, cpuPressure: {} });
  await h.until('NoMoreTargets for the second', () => reasons(ns, 'second'), (r) => r.includes('Normal/NoMoreTargets'));
  const second = await h.untilDisruption(ns, 'second', 'status', (d) => d.status?.injectionStatus === 'NotInjected');
  assert.equal(second.status?.selectedTargetsCount, 0);
  assert.equal(h.chaosPods(ns, 'second').length, 0);
});

test('deletion: chaos pods are deleted, their finalizer goes once they succeed, cleanedAt and Cleaned, then the finalizer after the delay with Finished', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'p', { app: 'del' });
  await h.createDisruption(ns, 'del', { selector: { app: 'del' }, cpuPressure: {}, network: { drop: 5 } });
  await h.until('two chaos pods', () => h.chaosPods(ns, 'del'), (p) => p.length === 2);
  await readyAll(ns, 'del');
  await h.untilDisruption(ns, 'del', 'Injected', (d) => d.status?.injectionStatus === 'Injected');

  // The controller deletes the chaos pods; the (test's) kubelet stops them, the injectors exit 0 after
  // cleaning, and the controller drops their finalizer.
  await h.client.delete(disruptionsResource, 'del', { namespace: ns });
  const cleaned = await h.untilDisruption(ns, 'del', 'cleanedAt', (d) => d.status?.cleanedAt !== undefined);
  assert.deepEqual(cleaned.metadata.finalizers, ['finalizer.chaos.datadoghq.com']);
  assert.equal(h.chaosPods(ns, 'del').length, 0);
  await h.until('disruption gone', () => h.getDisruption(ns, 'del'), (d) => d === undefined);
  const r = reasons(ns, 'del');
  assert.ok(r.includes('Normal/Cleaned') && r.includes('Normal/Finished'), r.join());
});

test('stuck on removal: a chaos pod that failed after starting keeps its finalizer, and the disruption says which', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'p', { app: 'stuck' });
  await h.createDisruption(ns, 'stuck', { selector: { app: 'stuck' }, cpuPressure: {} });
  const [pod] = await h.until('chaos pod', () => h.chaosPods(ns, 'stuck'), (p) => p.length === 1);
  await h.kubelet(pod!, 'ready');
  await h.untilDisruption(ns, 'stuck', 'Injected', (d) => d.status?.injectionStatus === 'Injected');
  // The injector fails (its clean will not have run); then the disruption is deleted.
  await h.kubelet(pod!, 'failed-started');
  await h.client.delete(disruptionsResource, 'stuck', { namespace: ns });
  const stuck = await h.untilDisruption(ns, 'stuck', 'isStuckOnRemoval', (d) => d.status?.isStuckOnRemoval === true);
  assert.equal(stuck.status?.targetInjections?.['p']?.['cpu-pressure']?.injectionStatus, 'IsStuckOnRemoval');
  assert.equal(stuck.status?.cleanedAt, undefined);
  await h.until('StuckOnRemoval naming the pod', () => h.events(ns, 'stuck'), (e) => e.some((x) => x.reason === 'StuckOnRemoval' && x.message.includes(pod!.metadata.name ?? '?')));
  assert.deepEqual(h.chaosPods(ns, 'stuck')[0]?.metadata.finalizers, ['finalizer.chaos.datadoghq.com/chaos-pod']);

  // The operator's runbook: remove the chaos pod's finalizer by hand; the disruption then finishes.
  await h.client.patch(podsResource, pod!.metadata.name ?? '', { metadata: { finalizers: null } }, { type: 'merge', namespace: CHAOS_NS });
  await h.until('disruption gone', () => h.getDisruption(ns, 'stuck'), (d) => d === undefined);
});

test('a target that goes: it leaves the status and its chaos pod is deleted (finalizer dropped: nothing left to clean)', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'p', { app: 'gone' });
  await h.createDisruption(ns, 'gone', { count: '100%', selector: { app: 'gone' }, cpuPressure: {} });
  await h.until('chaos pod', () => h.chaosPods(ns, 'gone'), (p) => p.length === 1);
  await h.client.delete(podsResource, 'p', { namespace: ns, gracePeriodSeconds: 0 });
  await h.until('chaos pod removed', () => h.chaosPods(ns, 'gone'), (p) => p.length === 0);
  const d = await h.untilDisruption(ns, 'gone', 'no target left', (x) => x.status?.selectedTargetsCount === 0);
  assert.equal(d.status?.desiredTargetsCount, 0);
});

test('expiry: an Injected disruption becomes PreviouslyInjected once its duration is over; its chaos pods deadline is the end + 2 s', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'p', { app: 'short' });
  const created = await h.createDisruption(ns, 'short', { selector: { app: 'short' }, cpuPressure: {}, duration: '3s' });
  const [pod] = await h.until('chaos pod', () => h.chaosPods(ns, 'short'), (p) => p.length === 1);
  const args = argsOf(pod);
  const deadline = Date.parse(args[args.indexOf('--deadline') + 1] ?? '');
  const end = Date.parse(created.metadata.creationTimestamp ?? '') + 3000;
  assert.ok(deadline >= end + 1000 && deadline <= end + 3000, `deadline ${new Date(deadline).toISOString()} vs end ${new Date(end).toISOString()}`);
  assert.ok((pod!.spec?.['activeDeadlineSeconds'] as number) <= 13);
  await h.kubelet(pod!, 'ready');
  await h.untilDisruption(ns, 'short', 'Injected', (d) => d.status?.injectionStatus === 'Injected' || d.status?.injectionStatus === 'PreviouslyInjected');
  await h.untilDisruption(ns, 'short', 'PreviouslyInjected', (d) => d.status?.injectionStatus === 'PreviouslyInjected');
  // Expired without a GC delay: it stays, its chaos pod too (the injector exits at its deadline).
  assert.equal(h.chaosPods(ns, 'short').length, 1);
});

test('a chaos pod deleted by someone is recreated while the target stays; with maxRuns 1 it is not', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'p', { app: 'again' });
  await h.targetPod(ns, 'q', { app: 'once' });
  await h.createDisruption(ns, 'again', { selector: { app: 'again' }, cpuPressure: {} });
  await h.createDisruption(ns, 'once', { selector: { app: 'once' }, cpuPressure: {}, maxRuns: 1 });
  const [first] = await h.until('again\'s chaos pod', () => h.chaosPods(ns, 'again'), (p) => p.length === 1);
  const [only] = await h.until('once\'s chaos pod', () => h.chaosPods(ns, 'once'), (p) => p.length === 1);
  await h.untilDisruption(ns, 'once', 'runCount 1', (d) => d.status?.runCount === 1);
  await h.client.delete(podsResource, first!.metadata.name ?? '', { namespace: CHAOS_NS });
  await h.client.delete(podsResource, only!.metadata.name ?? '', { namespace: CHAOS_NS });
  const [second] = await h.until('a new chaos pod for again', () => h.chaosPods(ns, 'again'), (p) => p.length === 1 && p[0]?.metadata.name !== first!.metadata.name && !p[0]?.metadata.deletionTimestamp);
  assert.equal(second?.metadata.labels?.['chaos.datadoghq.com/target'], 'p');
  await h.until('once\'s chaos pod gone', () => h.chaosPods(ns, 'once'), (p) => p.length === 0);
  const once = await h.untilDisruption(ns, 'once', 'reconciled after the pod went', (d) => d.status?.injectionStatus === 'NotInjected' || d.status?.injectionStatus === 'PausedPartiallyInjected');
  assert.equal(once.status?.runCount, 1);
  assert.equal(h.chaosPods(ns, 'once').length, 0);
});

test('a chaos pod that fails while the disruption is live: replaced when its end left nothing behind, else stuck with a Warning', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'p', { app: 'refail' });
  await h.targetPod(ns, 'q', { app: 'lost' });
  await h.createDisruption(ns, 'refail', { selector: { app: 'refail' }, cpuPressure: {} });
  await h.createDisruption(ns, 'lost', { selector: { app: 'lost' }, cpuPressure: {} });
  const [first] = await h.until('refail\'s chaos pod', () => h.chaosPods(ns, 'refail'), (p) => p.length === 1);
  const [lost] = await h.until('lost\'s chaos pod', () => h.chaosPods(ns, 'lost'), (p) => p.length === 1);
  await h.kubelet(lost!, 'ready');
  await h.untilDisruption(ns, 'lost', 'Injected', (d) => d.status?.injectionStatus === 'Injected');

  // Its injector never started: nothing to clean, so a new chaos pod takes its place (after a backoff).
  await h.kubelet(first!, 'failed-unstarted');
  const [second] = await h.until('a new chaos pod for refail', () => h.chaosPods(ns, 'refail'), (p) => p.length === 1 && p[0]?.metadata.name !== first!.metadata.name);
  await h.until('ChaosPodWarningState naming the failed pod', () => h.events(ns, 'refail'), (e) => e.some((x) => x.type === 'Warning' && x.reason === 'ChaosPodWarningState' && x.message.includes(first!.metadata.name ?? '?')));
  await h.kubelet(second!, 'ready');
  const refail = await h.untilDisruption(ns, 'refail', 'Injected again', (d) => d.status?.injectionStatus === 'Injected');
  assert.equal(refail.status?.targetInjections?.['p']?.['cpu-pressure']?.injectorPodName, second!.metadata.name);

  // Its injector ran and died (as when the node agent restarts and cannot adopt it): it may have left the target
  // disrupted, so it keeps its finalizer, no new chaos pod is made, and a Warning says why.
  await h.kubelet(lost!, 'failed-started');
  await h.untilDisruption(ns, 'lost', 'isStuckOnRemoval', (d) => d.status?.isStuckOnRemoval === true);
  await h.until('StuckOnRemoval naming the pod', () => h.events(ns, 'lost'), (e) => e.some((x) => x.type === 'Warning' && x.reason === 'StuckOnRemoval' && x.message.includes(lost!.metadata.name ?? '?')));
  assert.deepEqual(h.chaosPods(ns, 'lost').map((p) => p.metadata.name), [lost!.metadata.name]);
  await h.client.patch(podsResource, lost!.metadata.name ?? '', { metadata: { finalizers: null } }, { type: 'merge', namespace: CHAOS_NS });
});

test('spec step 2: the spec hash is stored in status; a spec change the webhook did not stop gives a Mutated Warning', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'p', { app: 'hash' });
  await h.createDisruption(ns, 'hash', { selector: { app: 'hash' }, cpuPressure: {} });
  const first = await h.untilDisruption(ns, 'hash', 'specHash', (d) => typeof d.status?.specHash === 'string');
  // A count change is allowed under dynamic targeting: no event, the same hash.
  await h.client.patch(disruptionsResource, 'hash', { spec: { count: 2 } }, { type: 'merge', namespace: ns });
  await h.untilDisruption(ns, 'hash', 'desired 1 of count 2 (one pod matches)', (d) => d.metadata.generation === 2 && d.status?.desiredTargetsCount === 1);
  assert.equal((await h.getDisruption(ns, 'hash'))?.status?.specHash, first.status?.specHash);
  assert.ok(!reasons(ns, 'hash').includes('Warning/Mutated'));
  await h.client.patch(disruptionsResource, 'hash', { spec: { dryRun: true } }, { type: 'merge', namespace: ns });
  const changed = await h.untilDisruption(ns, 'hash', 'a new specHash', (d) => d.status?.specHash !== first.status?.specHash);
  assert.ok(changed.status?.specHash);
  const mutated = await h.until('a Mutated Warning', () => h.events(ns, 'hash'), (e) => e.some((x) => x.reason === 'Mutated'));
  assert.match(mutated.find((x) => x.reason === 'Mutated')?.message ?? '', /immutable except for its count/);
});

test('a random pick stays picked: target events and reconciles never move count 1 to another target', async () => {
  const ns = await h.namespace();
  for (const name of ['s1', 's2', 's3']) await h.targetPod(ns, name, { app: 'stable' });
  await h.createDisruption(ns, 'stable', { selector: { app: 'stable' }, cpuPressure: {} });
  const [pod] = await h.until('one chaos pod', () => h.chaosPods(ns, 'stable'), (p) => p.length === 1);
  const chosen = pod!.metadata.labels?.['chaos.datadoghq.com/target'];
  await h.kubelet(pod!, 'ready');
  await h.untilDisruption(ns, 'stable', 'Injected', (d) => d.status?.injectionStatus === 'Injected');
  // Every touch of a matching pod reconciles the disruption; wait until all of them were handled.
  const before = await h.mgr.metrics.value('chaos_controller_reconcile_total');
  for (let i = 0; i < 10; i++) await h.client.patch(podsResource, `s${(i % 3) + 1}`, { metadata: { annotations: { touch: String(i) } } }, { type: 'merge', namespace: ns });
  await h.until('the touches reconciled', () => h.mgr.metrics.value('chaos_controller_reconcile_total'), (n) => n >= before + 3);
  await h.until('the queue drained', () => h.controllers.disruptions.queue.length, (n) => n === 0);
  const after = await h.untilDisruption(ns, 'stable', 'still Injected', (d) => d.status?.injectionStatus === 'Injected');
  assert.deepEqual(Object.keys(after.status?.targetInjections ?? {}), [chosen]);
  assert.deepEqual(h.chaosPods(ns, 'stable').map((p) => p.metadata.name), [pod!.metadata.name]);
});

test('every request of the controllers is one the family\'s RBAC allows', () => {
  const own = h.server.requests.filter((r) => r.userAgent === CONTROLLER_USER_AGENT);
  assert.ok(own.length > 0);
  assert.deepEqual(unauthorizedRequests(own, chaosFamily.rbac), []);
});
