// DaemonSets with kube-controller-manager's semantics, driven with real kubectl against the embedded server, the
// workloads family's scheduler and pods' status written by the fake kubelet: one pod per eligible node (taints,
// node selector), pinned by node affinity and carrying the daemon tolerations, a node label change that adds a
// pod, RollingUpdate with maxUnavailable and with maxSurge, rollout status and history, OnDelete.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Informer } from '../../src/runtime/informer/informer.ts';
import { controllerRevisionsResource, daemonSetsResource, podsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { ControllerRevision, DaemonSet, Pod } from '../../src/apimachinery/api/index.ts';
import { startWorkloads, type WorkloadsHarness } from './harness.ts';

function daemonSet(name: string, spec: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'busybox:1' }], ...podSpec } },
      ...spec,
    },
  };
}

describe('DaemonSet controller', () => {
  let h: WorkloadsHarness;
  let pods: Informer<Pod>;
  let sets: Informer<DaemonSet>;
  let revisions: Informer<ControllerRevision>;
  const live = (app: string): Pod[] => pods.list('default').filter((p) => p.metadata.labels?.['app'] === app && p.metadata.deletionTimestamp === undefined);
  const nodesOf = (app: string): string[] => live(app).map((p) => p.spec.nodeName ?? '?').sort();
  const set = (name: string): DaemonSet | undefined => sets.get(name, 'default');

  before(async () => {
    h = await startWorkloads({ kubelet: { nodes: [{ name: 'node-a' }, { name: 'node-b', labels: { disk: 'ssd' } }, { name: 'node-c' }], decide: () => ({ phase: 'Running', ready: true }) } });
    pods = h.watch<Pod>(podsResource);
    sets = h.watch<DaemonSet>(daemonSetsResource);
    revisions = h.watch<ControllerRevision>(controllerRevisionsResource);
    await Promise.all([pods.waitForSync(), sets.waitForSync(), revisions.waitForSync()]);
    await h.kubectl(['taint', 'nodes', 'node-c', 'dedicated=infra:NoSchedule']);
  });
  after(async () => {
    await h.close();
  });

  test('one pod per node, none on a node tainted NoSchedule without the toleration', async () => {
    await h.apply(daemonSet('agent'));
    await h.until(() => set('agent')?.status?.numberAvailable === 2 && nodesOf('agent').join() === 'node-a,node-b', 'a pod on node-a and node-b');
    const [revision] = revisions.list('default').filter((r) => r.metadata.ownerReferences?.[0]?.name === 'agent');
    const hash = revision?.metadata.labels?.['controller-revision-hash'] ?? '';
    assert.equal(revision?.metadata.name, `agent-${hash}`);
    const pod = live('agent').find((p) => p.spec.nodeName === 'node-a')!;
    assert.deepEqual(pod.metadata.labels, { app: 'agent', 'controller-revision-hash': hash, 'pod-template-generation': '1' });
    assert.equal(pod.metadata.generateName, 'agent-');
    assert.deepEqual(pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution, { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-a'] }] }] });
    assert.deepEqual(
      pod.spec.tolerations?.map((t) => `${t.key ?? ''}:${t.effect ?? ''}`),
      ['node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/disk-pressure:NoSchedule', 'node.kubernetes.io/memory-pressure:NoSchedule', 'node.kubernetes.io/pid-pressure:NoSchedule', 'node.kubernetes.io/unschedulable:NoSchedule'],
    );
    const status = set('agent')!.status!;
    assert.deepEqual({ ...status }, { currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 2, observedGeneration: 1, updatedNumberScheduled: 2, numberAvailable: 2 });
    const out = await h.kubectl(['get', 'ds', 'agent', '--no-headers']);
    assert.match(out.stdout, /^agent\s+2\s+2\s+2\s+2\s+2\s+<none>\s+/);
    // With the toleration, the tainted node gets its pod too.
    await h.apply(daemonSet('tolerant', {}, { tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }] }));
    await h.until(() => nodesOf('tolerant').join() === 'node-a,node-b,node-c', 'a pod on every node');
  });

  test('a node selector picks nodes, and a node gaining the label gets a pod', async () => {
    await h.apply(daemonSet('ssd', {}, { nodeSelector: { disk: 'ssd' } }));
    await h.until(() => set('ssd')?.status?.numberReady === 1 && nodesOf('ssd').join() === 'node-b', 'a pod on node-b only');
    await h.kubectl(['label', 'node', 'node-a', 'disk=ssd']);
    await h.until(() => nodesOf('ssd').join() === 'node-a,node-b' && set('ssd')?.status?.desiredNumberScheduled === 2, 'node-a joins');
    await h.kubectl(['label', 'node', 'node-a', 'disk-']);
    // A pod on a node that no longer matches keeps running (no NoExecute taint), counted as misscheduled.
    await h.until(() => set('ssd')?.status?.numberMisscheduled === 1, 'misscheduled');
  });

  test('RollingUpdate replaces the pods within maxUnavailable; rollout status and history see it', async () => {
    const before = live('agent').map((p) => p.metadata.name);
    await h.kubectl(['set', 'image', 'ds/agent', 'c=busybox:2']);
    await h.until(() => set('agent')?.status?.updatedNumberScheduled === 2 && set('agent')?.status?.numberAvailable === 2 && live('agent').every((p) => p.spec.containers[0]?.image === 'busybox:2') && live('agent').length === 2, 'rolled');
    assert.ok(live('agent').every((p) => !before.includes(p.metadata.name) && p.metadata.labels?.['pod-template-generation'] === '2'));
    const rollout = await h.kubectl(['rollout', 'status', 'ds/agent', '--timeout=30s']);
    assert.match(rollout.stdout, /daemon set "agent" successfully rolled out/);
    const history = await h.kubectl(['rollout', 'history', 'ds/agent']);
    assert.match(history.stdout, /^1\s+<none>$/m);
    assert.match(history.stdout, /^2\s+<none>$/m);
    assert.ok(h.events('agent').some((e) => e.reason === 'SuccessfulDelete'));
  });

  test('maxSurge starts the new pod before deleting the old one', async () => {
    await h.apply(daemonSet('surge', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }));
    await h.until(() => set('surge')?.status?.numberAvailable === 2, 'two available');
    let overlapped = false;
    const stop = pods.addEventHandler({ onAdd: () => (overlapped ||= nodesOf('surge').some((n, i, all) => all.indexOf(n) !== i)), onUpdate: () => (overlapped ||= nodesOf('surge').some((n, i, all) => all.indexOf(n) !== i)) });
    await h.kubectl(['set', 'image', 'ds/surge', 'c=busybox:2']);
    await h.until(() => set('surge')?.status?.updatedNumberScheduled === 2 && live('surge').length === 2 && live('surge').every((p) => p.spec.containers[0]?.image === 'busybox:2'), 'surged');
    stop();
    assert.ok(overlapped, 'an old and a new pod shared a node during the update');
  });

  test('OnDelete replaces a pod only when it is deleted', async () => {
    await h.apply(daemonSet('manual', { updateStrategy: { type: 'OnDelete' } }));
    await h.until(() => set('manual')?.status?.numberAvailable === 2, 'two available');
    await h.kubectl(['set', 'image', 'ds/manual', 'c=busybox:2']);
    await h.until(() => set('manual')?.status?.observedGeneration === 2, 'observed');
    assert.ok(live('manual').every((p) => p.spec.containers[0]?.image === 'busybox:1'));
    const victim = live('manual')[0]!;
    await h.kubectl(['delete', 'pod', victim.metadata.name ?? '', '--wait=false']);
    await h.until(() => live('manual').some((p) => p.spec.nodeName === victim.spec.nodeName && p.spec.containers[0]?.image === 'busybox:2'), 'replaced at the new template');
    assert.equal(live('manual').filter((p) => p.spec.containers[0]?.image === 'busybox:1').length, 1);
    assert.deepEqual(h.deniedToControllers(), []);
  });
});
