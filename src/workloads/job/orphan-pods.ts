// The job controller's orphan worker: a pod that still carries the tracking finalizer but whose Job is gone,
// finished, or was never a Job, has nobody left to count it; the finalizer is removed so the pod can go.
import { objectKey } from '../../apimachinery/object.ts';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { Action, Controller, Informer, Manager, ReconcileContext } from '../../runtime/index.ts';
import { action, keyOf, OWNER_INDEX } from '../../runtime/index.ts';
import { jobsResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import type { Job, Pod } from '../../apimachinery/api/index.ts';
import { controllerOf } from '../pods/owner.ts';
import { isJobFinished } from './finished-condition.ts';
import { hasTrackingFinalizer, removeTrackingFinalizer } from './tracking-finalizer.ts';

interface OrphanData {
  client: KubeClient;
  jobs: Informer<Job>;
}

export function registerJobOrphanPods(mgr: Manager, name: string): Controller<Pod, OrphanData> {
  const jobs = mgr.informer<Job>(jobsResource);
  const pods = mgr.informer<Pod>(podsResource);
  return mgr
    .controller<Pod, OrphanData>({
      name,
      for: podsResource,
      data: { client: mgr.client, jobs },
      predicates: [(e) => e.type !== 'deleted' && hasTrackingFinalizer(e.object)],
      reconcile: releaseOrphan,
    })
    .watches(
      jobs,
      (job: Job) => pods.byIndex(OWNER_INDEX, job.metadata.uid ?? '').filter(hasTrackingFinalizer).map(keyOf),
      { predicates: [(e) => e.type === 'deleted' || isJobFinished(e.object)] },
    );
}

async function releaseOrphan(pod: Pod, ctx: ReconcileContext<OrphanData>): Promise<Action> {
  if (!hasTrackingFinalizer(pod)) return action.awaitChange();
  const ref = controllerOf(pod);
  if (ref && (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1')) return action.awaitChange();
  if (ref) {
    const job = ctx.data.jobs.store.get(objectKey(pod.metadata.namespace, ref.name));
    if (job && job.metadata.uid === ref.uid && !isJobFinished(job)) return action.awaitChange();
  }
  try {
    await removeTrackingFinalizer(ctx.data.client, pod, ctx.signal);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
  return action.awaitChange();
}
