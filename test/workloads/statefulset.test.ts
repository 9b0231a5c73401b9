// StatefulSets with kube-controller-manager's semantics, driven with real kubectl against the embedded server and
// pods' status written by the fake kubelet: ordered creation (each pod Running and Ready before the next), one
// claim per pod from volumeClaimTemplates, a deleted pod back under its name with its claim, scale down from the
// highest ordinal, Parallel management, RollingUpdate with a partition and OnDelete with ControllerRevisions,
// rollout status, the scale subresource and the claim retention policy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Informer } from '../../src/runtime/informer/informer.ts';
import { controllerRevisionsResource, persistentVolumeClaimsResource, podsResource, statefulSetsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { ControllerRevision, PersistentVolumeClaim, Pod, StatefulSet } from '../../src/apimachinery/api/index.ts';
import { startWorkloads, type WorkloadsHarness } from './harness.ts';

const image = (p: Pod): string | undefined => p.spec.containers[0]?.image;
const isReady = (p: Pod): boolean => p.status?.phase === 'Running' && p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

function statefulSet(name: string, spec: Record<string, unknown> = {}): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: 'default' },
    spec: {
      serviceName: name,
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'busybox:1', volumeMounts: [{ name: 'www', mountPath: '/data' }] }] },
      },
      volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      ...spec,
    },
  };
}

describe('StatefulSet controller', () => {
  let h: WorkloadsHarness;
  let pods: Informer<Pod>;
  let sets: Informer<StatefulSet>;
  let claims: Informer<PersistentVolumeClaim>;
  let revisions: Informer<ControllerRevision>;
  /** Pods that must not become ready until the test says so. */
  const held = new Set<string>();
  /** Per set, the pods in the order they were added, with whether the one before was ready then. */
  const added: { name: string; predecessorReady: boolean }[] = [];
  const deleted: string[] = [];
  const podsOf = (app: string): Pod[] => pods.list('default').filter((p) => p.metadata.labels?.['app'] === app);
  const pod = (name: string): Pod | undefined => pods.get(name, 'default');
  const set = (name: string): StatefulSet | undefined => sets.get(name, 'default');
  const revisionsOf = (name: string): ControllerRevision[] => revisions.list('default').filter((r) => r.metadata.ownerReferences?.[0]?.name === name);
  const names = (list: Pod[]): string[] => list.map((p) => p.metadata.name ?? '').sort();

  before(async () => {
    h = await startWorkloads({
      kubelet: { nodes: [{ name: 'node-a', cpu: '16' }], decide: (p) => ({ phase: 'Running', ready: !held.has(p.metadata.labels?.['app'] ?? '') }) },
    });
    pods = h.watch<Pod>(podsResource);
    sets = h.watch<StatefulSet>(statefulSetsResource);
    claims = h.watch<PersistentVolumeClaim>(persistentVolumeClaimsResource);
    revisions = h.watch<ControllerRevision>(controllerRevisionsResource);
    await Promise.all([pods.waitForSync(), sets.waitForSync(), claims.waitForSync(), revisions.waitForSync()]);
    pods.addEventHandler({
      onAdd: (p) => {
        const name = p.metadata.name ?? '';
        const [, base = '', ordinal = '0'] = /^(.*)-(\d+)$/.exec(name) ?? [];
        const before = pods.get(`${base}-${Number(ordinal) - 1}`, 'default');
        added.push({ name, predecessorReady: Number(ordinal) === 0 || (before !== undefined && isReady(before) && before.metadata.deletionTimestamp === undefined) });
      },
      onDelete: (p) => deleted.push(p.metadata.name ?? ''),
    });
  });
  after(async () => {
    await h.close();
  });

  test('a StatefulSet of 3 starts web-0, web-1, web-2 in order, each Running and Ready before the next, each with its own claim', async () => {
    held.add('web');
    await h.apply(statefulSet('web'));
    for (let i = 0; i < 3; i++) {
      await h.until(() => pod(`web-${i}`)?.status?.phase === 'Running', `web-${i} running`);
      // Not ready yet: the next ordinal must wait for it.
      assert.equal(pod(`web-${i + 1}`), undefined, `web-${i + 1} created before web-${i} was ready`);
      await h.kubelet.markReady(pod(`web-${i}`)!);
    }
    held.delete('web');
    await h.until(() => set('web')?.status?.readyReplicas === 3 && set('web')?.status?.currentReplicas === 3, 'three ready');
    assert.deepEqual(added.filter((a) => a.name.startsWith('web-')), [
      { name: 'web-0', predecessorReady: true },
      { name: 'web-1', predecessorReady: true },
      { name: 'web-2', predecessorReady: true },
    ]);
    const status = set('web')!.status!;
    const [revision] = revisionsOf('web');
    assert.equal(revisionsOf('web').length, 1);
    const hash = revision!.metadata.labels?.['controller-revision-hash'] ?? '';
    assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.equal(revision!.metadata.name, `web-${hash}`);
    assert.equal(revision!.revision, 1);
    assert.equal(revision!.metadata.labels?.['app'], 'web');
    assert.deepEqual(revision!.metadata.ownerReferences?.map((r) => `${r.kind}/${r.name}/${String(r.controller)}`), ['StatefulSet/web/true']);
    assert.equal((revision!.data?.['spec'] as { template: Record<string, unknown> }).template['$patch'], 'replace');
    assert.deepEqual(
      { ...status },
      {
        observedGeneration: 1,
        replicas: 3,
        readyReplicas: 3,
        currentReplicas: 3,
        updatedReplicas: 3,
        availableReplicas: 3,
        currentRevision: `web-${hash}`,
        updateRevision: `web-${hash}`,
        collisionCount: 0,
      },
    );
    for (let i = 0; i < 3; i++) {
      const p = pod(`web-${i}`)!;
      assert.equal(p.spec.hostname, `web-${i}`);
      assert.equal(p.spec.subdomain, 'web');
      assert.equal(p.metadata.generateName, 'web-');
      assert.deepEqual(p.metadata.labels, { app: 'web', 'statefulset.kubernetes.io/pod-name': `web-${i}`, 'apps.kubernetes.io/pod-index': String(i), 'controller-revision-hash': `web-${hash}` });
      assert.deepEqual(p.spec.volumes?.[0], { name: 'www', persistentVolumeClaim: { claimName: `www-web-${i}` } });
      const claim = claims.get(`www-web-${i}`, 'default');
      assert.ok(claim, `claim www-web-${i}`);
      assert.deepEqual(claim.metadata.labels, { app: 'web' });
      assert.deepEqual(claim.spec?.resources, { requests: { storage: '1Gi' } });
      assert.equal(claim.metadata.ownerReferences, undefined, 'Retain: the claim has no owner');
      assert.ok(h.events('web').some((e) => e.reason === 'SuccessfulCreate' && e.message === `create Pod web-${i} in StatefulSet web successful`));
      assert.ok(h.events('web').some((e) => e.reason === 'SuccessfulCreate' && e.message === `create Claim www-web-${i} Pod web-${i} in StatefulSet web success`));
    }
    const rollout = await h.kubectl(['rollout', 'status', 'sts/web', '--timeout=30s']);
    assert.equal(rollout.code, 0, rollout.stderr);
    assert.equal(rollout.stdout, 'partitioned roll out complete: 3 new pods have been updated...\n');
    const table = await h.kubectl(['get', 'sts', 'web', '--no-headers']);
    assert.match(table.stdout, /^web\s+3\/3\s+\S+\n$/);
  });

  test('deleting web-1 brings back web-1 with the same claim', async () => {
    const victim = pod('web-1')!;
    const claimUid = claims.get('www-web-1', 'default')?.metadata.uid;
    const deletion = await h.kubectl(['delete', 'pod', 'web-1', '--wait=false']);
    assert.equal(deletion.code, 0, deletion.stderr);
    await h.until(() => pod('web-1') !== undefined && pod('web-1')!.metadata.uid !== victim.metadata.uid && isReady(pod('web-1')!), 'a new web-1, ready');
    const back = pod('web-1')!;
    assert.deepEqual(back.spec.volumes?.[0], { name: 'www', persistentVolumeClaim: { claimName: 'www-web-1' } });
    assert.equal(claims.get('www-web-1', 'default')?.metadata.uid, claimUid);
    assert.equal(claims.list('default').filter((c) => c.metadata.name?.endsWith('-web-1')).length, 1);
  });

  test('kubectl scale sts removes pods from the highest ordinal, one at a time; claims are retained', async () => {
    deleted.length = 0;
    const down = await h.kubectl(['scale', 'sts', 'web', '--replicas=1']);
    assert.equal(down.code, 0, down.stderr);
    assert.equal(down.stdout.trim(), 'statefulset.apps/web scaled');
    await h.until(() => names(podsOf('web')).join() === 'web-0' && set('web')?.status?.replicas === 1, 'only web-0 left');
    assert.deepEqual(deleted.filter((n) => n.startsWith('web-')), ['web-2', 'web-1']);
    const deletes = h.events('web').filter((e) => e.reason === 'SuccessfulDelete').map((e) => e.message);
    assert.deepEqual(deletes.slice(-2), ['delete Pod web-2 in StatefulSet web successful', 'delete Pod web-1 in StatefulSet web successful']);
    assert.deepEqual(claims.list('default').map((c) => c.metadata.name).filter((n) => n?.endsWith('-web-0') || n?.endsWith('-web-1') || n?.endsWith('-web-2')).sort(), ['www-web-0', 'www-web-1', 'www-web-2']);
    const up = await h.kubectl(['scale', 'sts', 'web', '--replicas=3']);
    assert.equal(up.code, 0, up.stderr);
    await h.until(() => podsOf('web').filter(isReady).length === 3 && set('web')?.status?.readyReplicas === 3, 'three ready again');
  });

  test('RollingUpdate with a partition updates only the ordinals at or above it, then all, highest first', async () => {
    const partition = await h.kubectl(['patch', 'sts', 'web', '--type=merge', '-p', '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":2}}}}']);
    assert.equal(partition.code, 0, partition.stderr);
    const oldRevision = set('web')!.status!.currentRevision!;
    assert.equal((await h.kubectl(['set', 'image', 'sts/web', 'c=busybox:2'])).code, 0);
    const rollout = await h.kubectl(['rollout', 'status', 'sts/web', '--timeout=30s']);
    assert.equal(rollout.code, 0, rollout.stderr);
    assert.match(rollout.stdout, /partitioned roll out complete: 1 new pods have been updated...\n$/);
    await h.until(() => image(pod('web-2') ?? ({ spec: { containers: [] } } as unknown as Pod)) === 'busybox:2' && isReady(pod('web-2')!), 'web-2 updated');
    const status = set('web')!.status!;
    assert.notEqual(status.updateRevision, oldRevision);
    assert.equal(status.currentRevision, oldRevision);
    assert.equal(status.updatedReplicas, 1);
    assert.equal(status.currentReplicas, 2);
    assert.deepEqual([0, 1, 2].map((i) => image(pod(`web-${i}`)!)), ['busybox:1', 'busybox:1', 'busybox:2']);
    assert.equal(pod('web-2')!.metadata.labels?.['controller-revision-hash'], status.updateRevision);
    assert.deepEqual(revisionsOf('web').map((r) => r.revision).sort(), [1, 2]);

    deleted.length = 0;
    assert.equal((await h.kubectl(['patch', 'sts', 'web', '--type=merge', '-p', '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":0}}}}'])).code, 0);
    await h.until(() => set('web')?.status?.currentRevision === status.updateRevision && set('web')?.status?.readyReplicas === 3, 'update complete');
    assert.deepEqual(deleted.filter((n) => n.startsWith('web-')), ['web-1', 'web-0']);
    assert.deepEqual([0, 1, 2].map((i) => image(pod(`web-${i}`)!)), ['busybox:2', 'busybox:2', 'busybox:2']);
    const done = await h.kubectl(['rollout', 'status', 'sts/web', '--timeout=30s']);
    assert.equal(done.stdout, 'partitioned roll out complete: 3 new pods have been updated...\n');
    const history = await h.kubectl(['get', 'controllerrevisions', '--no-headers']);
    assert.match(history.stdout, new RegExp(`^${oldRevision}\\s+statefulset\\.apps/web\\s+1\\s`, 'm'));
  });

  test('kubectl rollout history lists the revisions; rollout undo goes back to revision 1, which becomes revision 3', async () => {
    const history = await h.kubectl(['rollout', 'history', 'sts/web']);
    assert.equal(history.code, 0, history.stderr);
    assert.match(history.stdout, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>\n/);
    const first = revisionsOf('web').find((r) => r.revision === 1)!.metadata.name;
    const undo = await h.kubectl(['rollout', 'undo', 'sts/web']);
    assert.equal(undo.code, 0, undo.stderr);
    assert.equal(undo.stdout.trim(), 'statefulset.apps/web rolled back');
    await h.until(() => set('web')?.status?.currentRevision === first && set('web')?.status?.readyReplicas === 3 && podsOf('web').every((p) => image(p) === 'busybox:1'), 'back at busybox:1');
    assert.deepEqual(revisionsOf('web').map((r) => r.revision).sort(), [2, 3]);
    assert.equal(revisionsOf('web').find((r) => r.metadata.name === first)?.revision, 3);
  });

  test('OnDelete: a new template reaches a pod only when it is deleted', async () => {
    await h.apply(statefulSet('ondel', { replicas: 2, updateStrategy: { type: 'OnDelete' } }));
    await h.until(() => podsOf('ondel').filter(isReady).length === 2, 'two ready');
    assert.equal((await h.kubectl(['set', 'image', 'sts/ondel', 'c=busybox:2'])).code, 0);
    await h.until(() => set('ondel')?.status?.updateRevision !== set('ondel')?.status?.currentRevision && set('ondel')?.status?.observedGeneration === 2, 'update revision observed');
    assert.deepEqual(podsOf('ondel').map(image), ['busybox:1', 'busybox:1']);
    const status = await h.kubectl(['rollout', 'status', 'sts/ondel']);
    assert.notEqual(status.code, 0);
    assert.match(status.stderr, /rollout status is only available for RollingUpdate strategy type/);
    const old = pod('ondel-1')!;
    assert.equal((await h.kubectl(['delete', 'pod', 'ondel-1', '--wait=false'])).code, 0);
    await h.until(() => pod('ondel-1') !== undefined && pod('ondel-1')!.metadata.uid !== old.metadata.uid && isReady(pod('ondel-1')!), 'ondel-1 back');
    assert.equal(image(pod('ondel-1')!), 'busybox:2');
    assert.equal(image(pod('ondel-0')!), 'busybox:1');
    assert.equal(pod('ondel-1')!.metadata.labels?.['controller-revision-hash'], set('ondel')!.status!.updateRevision);
    await h.until(() => set('ondel')?.status?.updatedReplicas === 1 && set('ondel')?.status?.currentReplicas === 1, 'one pod at each revision');
  });

  test('Parallel: every pod is created at once, without waiting for readiness; scale down removes them at once', async () => {
    held.add('par');
    await h.apply(statefulSet('par', { podManagementPolicy: 'Parallel' }));
    await h.until(() => names(podsOf('par')).join() === 'par-0,par-1,par-2', 'three pods');
    assert.ok(podsOf('par').every((p) => !isReady(p)));
    held.delete('par');
    for (const p of podsOf('par')) await h.kubelet.markReady(p);
    await h.until(() => set('par')?.status?.readyReplicas === 3, 'three ready');
    assert.equal((await h.kubectl(['scale', 'sts', 'par', '--replicas=0'])).code, 0);
    await h.until(() => podsOf('par').length === 0 && set('par')?.status?.replicas === 0, 'none left');
  });

  test('persistentVolumeClaimRetentionPolicy Delete: scaled-down and deleted sets take their claims with them', async () => {
    await h.apply(statefulSet('gone', { replicas: 2, persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Delete' } }));
    await h.until(() => podsOf('gone').filter(isReady).length === 2, 'two ready');
    const uid = set('gone')!.metadata.uid;
    await h.until(() => ['www-gone-0', 'www-gone-1'].every((n) => claims.get(n, 'default')?.metadata.ownerReferences?.some((r) => r.uid === uid && r.controller === true)), 'the set owns its claims');
    assert.equal((await h.kubectl(['scale', 'sts', 'gone', '--replicas=1'])).code, 0);
    await h.until(() => claims.get('www-gone-1', 'default') === undefined && podsOf('gone').length === 1, 'the scaled-down claim is collected');
    assert.ok(claims.get('www-gone-0', 'default'));
    assert.equal((await h.kubectl(['delete', 'sts', 'gone', '--wait=false'])).code, 0);
    await h.until(() => claims.get('www-gone-0', 'default') === undefined && podsOf('gone').length === 0, 'the claims go with the set');
  });

  test('the controllers stay within the family\'s RBAC rules', () => {
    assert.deepEqual(h.deniedToControllers(), []);
  });
});
