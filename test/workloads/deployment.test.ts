// Deployments and ReplicaSets with kube-controller-manager's semantics, driven with real kubectl as a user would:
// create, rollout status, a deleted pod replaced, set image rolling out within maxSurge/maxUnavailable, rollout
// undo/restart/history, scale, and the Recreate strategy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Informer } from '../../src/runtime/informer/informer.ts';
import { deploymentsResource, podsResource, replicaSetsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { Deployment, Pod, ReplicaSet } from '../../src/apimachinery/api/index.ts';
import { startWorkloads, type WorkloadsHarness } from './harness.ts';

const image = (p: Pod): string | undefined => p.spec.containers[0]?.image;
const isReady = (p: Pod): boolean => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

describe('Deployment and ReplicaSet controllers', () => {
  let h: WorkloadsHarness;
  let pods: Informer<Pod>;
  let replicaSets: Informer<ReplicaSet>;
  let deployments: Informer<Deployment>;
  const podsOf = (app: string): Pod[] => pods.list('default').filter((p) => p.metadata.labels?.['app'] === app && !p.metadata.deletionTimestamp);
  const rsOf = (app: string): ReplicaSet[] => replicaSets.list('default').filter((rs) => rs.metadata.labels?.['app'] === app);
  const deployment = (name: string): Deployment | undefined => deployments.get(name, 'default');
  const condition = (name: string, type: string) => deployment(name)?.status?.conditions?.find((c) => c.type === type);

  before(async () => {
    h = await startWorkloads({ kubelet: { nodes: [{ name: 'node-a', cpu: '16' }] } });
    pods = h.watch<Pod>(podsResource);
    replicaSets = h.watch<ReplicaSet>(replicaSetsResource);
    deployments = h.watch<Deployment>(deploymentsResource);
    await Promise.all([pods.waitForSync(), replicaSets.waitForSync(), deployments.waitForSync()]);
  });
  after(async () => {
    await h.close();
  });

  test('a Deployment of 3 becomes available; kubectl rollout status returns; revision 1 on it and its ReplicaSet', async () => {
    const created = await h.kubectl(['create', 'deployment', 'web', '--image=busybox:1', '--replicas=3']);
    assert.equal(created.code, 0, created.stderr);
    const status = await h.kubectl(['rollout', 'status', 'deployment/web', '--timeout=30s']);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /deployment "web" successfully rolled out/);
    await h.until(() => condition('web', 'Progressing')?.reason === 'NewReplicaSetAvailable', 'Progressing NewReplicaSetAvailable');
    const web = deployment('web')!;
    assert.equal(web.status?.availableReplicas, 3);
    assert.equal(web.status?.readyReplicas, 3);
    assert.equal(web.status?.updatedReplicas, 3);
    assert.equal(web.status?.observedGeneration, web.metadata.generation);
    assert.equal(condition('web', 'Available')?.status, 'True');
    assert.equal(condition('web', 'Available')?.reason, 'MinimumReplicasAvailable');
    assert.equal(condition('web', 'Available')?.message, 'Deployment has minimum availability.');
    const [rs] = rsOf('web');
    assert.equal(rsOf('web').length, 1);
    const hash = rs!.metadata.labels?.['pod-template-hash'] ?? '';
    assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.equal(rs!.metadata.name, `web-${hash}`);
    assert.equal(condition('web', 'Progressing')?.message, `ReplicaSet "web-${hash}" has successfully progressed.`);
    assert.deepEqual(rs!.spec.selector, { matchLabels: { app: 'web', 'pod-template-hash': hash } });
    assert.equal(rs!.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
    assert.equal(rs!.metadata.annotations?.['deployment.kubernetes.io/desired-replicas'], '3');
    assert.equal(rs!.metadata.annotations?.['deployment.kubernetes.io/max-replicas'], '4');
    assert.equal(web.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
    assert.equal(rs!.status?.readyReplicas, 3);
    assert.equal(rs!.status?.availableReplicas, 3);
    assert.equal(rs!.status?.fullyLabeledReplicas, 3);
    assert.equal(rs!.status?.observedGeneration, rs!.metadata.generation);
    assert.ok(podsOf('web').every((p) => p.metadata.labels?.['pod-template-hash'] === hash && p.metadata.ownerReferences?.[0]?.name === rs!.metadata.name));
    assert.ok(h.events('web').some((e) => e.reason === 'ScalingReplicaSet' && e.message === `Scaled up replica set web-${hash} from 0 to 3`));
    const table = await h.kubectl(['get', 'deployment', 'web', '--no-headers']);
    assert.match(table.stdout, /^web\s+3\/3\s+3\s+3\s/);
  });

  test('a deleted pod is replaced', async () => {
    const victim = podsOf('web')[0]!;
    const deleted = await h.kubectl(['delete', 'pod', victim.metadata.name ?? '']);
    assert.equal(deleted.code, 0, deleted.stderr);
    await h.until(() => podsOf('web').length === 3 && podsOf('web').every(isReady) && !podsOf('web').some((p) => p.metadata.uid === victim.metadata.uid), 'three ready pods again, the victim gone');
    const rs = rsOf('web')[0]!;
    assert.ok(h.events(rs.metadata.name ?? '').some((e) => e.reason === 'SuccessfulCreate' && /^Created pod: web-/.test(e.message ?? '')));
  });

  test('kubectl set image rolls out one pod at a time with maxSurge 1 and maxUnavailable 0', async () => {
    const patched = await h.kubectl(['patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":1,"maxUnavailable":0}}}}']);
    assert.equal(patched.code, 0, patched.stderr);
    // New pods stay unready until the test lets them pass their readiness probe.
    h.kubelet.decide = (p) => ({ phase: 'Running', ready: image(p) !== 'busybox:2' });
    let violations: string[] = [];
    const check = (): void => {
      const all = podsOf('web');
      const ready = all.filter(isReady).length;
      if (all.length > 4) violations.push(`${all.length} pods > replicas + maxSurge`);
      if (ready < 3) violations.push(`${ready} ready pods < replicas - maxUnavailable`);
    };
    const unsubscribe = pods.addEventHandler({ onAdd: check, onUpdate: check, onDelete: check });
    const set = await h.kubectl(['set', 'image', 'deployment/web', 'busybox=busybox:2']);
    assert.equal(set.code, 0, set.stderr);
    for (let step = 1; step <= 3; step++) {
      await h.until(() => podsOf('web').filter((p) => image(p) === 'busybox:2' && p.status?.phase === 'Running').length === step, `new pod ${step} running`);
      const waiting = podsOf('web').find((p) => image(p) === 'busybox:2' && !isReady(p));
      assert.ok(waiting, `new pod ${step} waits for readiness`);
      // Until it is ready, no old pod may go: maxUnavailable 0.
      assert.equal(podsOf('web').filter((p) => image(p) === 'busybox:1').length, 4 - step);
      await h.kubelet.markReady(waiting);
    }
    const status = await h.kubectl(['rollout', 'status', 'deployment/web', '--timeout=30s']);
    assert.equal(status.code, 0, status.stderr);
    unsubscribe();
    assert.deepEqual(violations, []);
    violations = [];
    await h.until(() => podsOf('web').length === 3 && podsOf('web').every((p) => image(p) === 'busybox:2'), 'only new pods left');
    assert.equal(rsOf('web').length, 2);
    assert.equal(deployment('web')?.metadata.annotations?.['deployment.kubernetes.io/revision'], '2');
    await h.until(() => condition('web', 'Progressing')?.reason === 'NewReplicaSetAvailable', 'rollout complete');
  });

  test('kubectl rollout undo goes back to revision 1 (which becomes revision 3); rollout history lists it', async () => {
    h.kubelet.decide = () => ({ phase: 'Running' });
    const [first] = rsOf('web').filter((rs) => rs.spec.template.spec.containers[0]?.image === 'busybox:1');
    const undo = await h.kubectl(['rollout', 'undo', 'deployment/web']);
    assert.equal(undo.code, 0, undo.stderr);
    assert.match(undo.stdout, /deployment.apps\/web rolled back/);
    const status = await h.kubectl(['rollout', 'status', 'deployment/web', '--timeout=30s']);
    assert.equal(status.code, 0, status.stderr);
    await h.until(() => podsOf('web').length === 3 && podsOf('web').every((p) => image(p) === 'busybox:1' && isReady(p)), 'old image back');
    // The old ReplicaSet was reused, not a new one made.
    assert.equal(rsOf('web').length, 2);
    const reused = replicaSets.get(first!.metadata.name ?? '', 'default')!;
    assert.equal(reused.spec.replicas, 3);
    assert.equal(reused.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
    assert.equal(reused.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
    await h.until(() => deployment('web')?.metadata.annotations?.['deployment.kubernetes.io/revision'] === '3', 'deployment at revision 3');
    const history = await h.kubectl(['rollout', 'history', 'deployment/web']);
    assert.equal(history.code, 0, history.stderr);
    assert.match(history.stdout, /REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);
  });

  test('kubectl rollout restart rolls out a new ReplicaSet; kubectl scale resizes it', async () => {
    const restart = await h.kubectl(['rollout', 'restart', 'deployment/web']);
    assert.equal(restart.code, 0, restart.stderr);
    const status = await h.kubectl(['rollout', 'status', 'deployment/web', '--timeout=30s']);
    assert.equal(status.code, 0, status.stderr);
    await h.until(() => rsOf('web').length === 3 && podsOf('web').length === 3, 'restarted on a third ReplicaSet');
    const restarted = rsOf('web').find((rs) => rs.spec.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt'])!;
    assert.ok(podsOf('web').every((p) => p.metadata.labels?.['pod-template-hash'] === restarted.metadata.labels?.['pod-template-hash']));
    const up = await h.kubectl(['scale', 'deployment/web', '--replicas=5']);
    assert.equal(up.code, 0, up.stderr);
    await h.until(() => podsOf('web').filter(isReady).length === 5 && deployment('web')?.status?.availableReplicas === 5, 'five available');
    const down = await h.kubectl(['scale', 'deployment/web', '--replicas=2']);
    assert.equal(down.code, 0, down.stderr);
    await h.until(() => podsOf('web').length === 2 && deployment('web')?.status?.replicas === 2, 'two left');
    assert.ok(h.events('web').some((e) => e.message === `Scaled down replica set ${restarted.metadata.name ?? ''} from 5 to 2`));
  });

  test('Recreate: every old pod is gone before a new one is created', async () => {
    await h.apply({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'db', namespace: 'default' },
      spec: {
        replicas: 2,
        strategy: { type: 'Recreate' },
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'db:1' }] } },
      },
    });
    assert.equal((await h.kubectl(['rollout', 'status', 'deployment/db', '--timeout=30s'])).code, 0);
    let overlap = false;
    const check = (): void => {
      const images = new Set(podsOf('db').map(image));
      if (images.has('db:1') && images.has('db:2')) overlap = true;
    };
    const unsubscribe = pods.addEventHandler({ onAdd: check, onUpdate: check, onDelete: check });
    assert.equal((await h.kubectl(['set', 'image', 'deployment/db', 'db=db:2'])).code, 0);
    const status = await h.kubectl(['rollout', 'status', 'deployment/db', '--timeout=30s']);
    assert.equal(status.code, 0, status.stderr);
    unsubscribe();
    await h.until(() => podsOf('db').length === 2 && podsOf('db').every((p) => image(p) === 'db:2'), 'db:2 pods');
    assert.equal(overlap, false, 'old and new pods never ran together');
  });

  test('a ReplicaSet counts a pod available only after minReadySeconds', async () => {
    await h.apply({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'slowly', namespace: 'default' },
      spec: {
        replicas: 2,
        minReadySeconds: 2,
        selector: { matchLabels: { app: 'slowly' } },
        template: { metadata: { labels: { app: 'slowly', tier: 'x' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      },
    });
    await h.until(() => replicaSets.get('slowly', 'default')?.status?.readyReplicas === 2, 'two ready');
    assert.equal(replicaSets.get('slowly', 'default')?.status?.availableReplicas, 0);
    const readySince = Math.max(...podsOf('slowly').map((p) => Date.parse(p.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime ?? '')));
    await h.until(() => replicaSets.get('slowly', 'default')?.status?.availableReplicas === 2, 'two available', 10_000);
    assert.ok(Date.now() >= readySince + 2000, 'available no sooner than minReadySeconds after Ready');
    assert.equal(replicaSets.get('slowly', 'default')?.status?.fullyLabeledReplicas, 2);
  });

  test('scaling mid-rollout spreads the new replicas over both ReplicaSets in proportion (the upstream example: 8+5 → 11+7)', async () => {
    h.kubelet.decide = (p) => ({ phase: 'Running', ready: image(p) !== 'broken' });
    await h.apply({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'prop', namespace: 'default' },
      spec: {
        replicas: 10,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } },
        selector: { matchLabels: { app: 'prop' } },
        template: { metadata: { labels: { app: 'prop' } }, spec: { containers: [{ name: 'c', image: 'good' }] } },
      },
    });
    assert.equal((await h.kubectl(['rollout', 'status', 'deployment/prop', '--timeout=30s'])).code, 0);
    assert.equal((await h.kubectl(['set', 'image', 'deployment/prop', 'c=broken'])).code, 0);
    const sizes = (): number[] => rsOf('prop').map((rs) => rs.spec.replicas ?? 0).sort((a, b) => b - a);
    const settled = (want: number[]): boolean =>
      JSON.stringify(sizes()) === JSON.stringify(want) && rsOf('prop').every((rs) => rs.status?.replicas === rs.spec.replicas && rs.status?.observedGeneration === rs.metadata.generation);
    await h.until(() => settled([8, 5]), 'rollout stuck at 8 old and 5 new');
    assert.equal((await h.kubectl(['scale', 'deployment/prop', '--replicas=15'])).code, 0);
    await h.until(() => settled([11, 7]), 'old 11, new 7');
    const byImage = (img: string) => rsOf('prop').find((rs) => rs.spec.template.spec.containers[0]?.image === img)?.spec.replicas;
    assert.equal(byImage('good'), 11);
    assert.equal(byImage('broken'), 7);
  });

  test('every request the controllers made is covered by the family\'s RBAC rules', () => {
    assert.deepEqual(h.deniedToControllers(), []);
  });
});
