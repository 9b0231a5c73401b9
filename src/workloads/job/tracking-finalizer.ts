// The batch.kubernetes.io/job-tracking finalizer on a Job's pods: it keeps a finished pod until the Job counted it.
import type { KubeClient } from '../../client/client.ts';
import { podsResource } from '../../apimachinery/builtin-resources.ts';
import type { Pod } from '../../apimachinery/api/index.ts';
import { JOB_TRACKING_FINALIZER } from './constants.ts';

export function hasTrackingFinalizer(pod: Pod): boolean {
  return (pod.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
}

/** The strategic merge patch upstream sends: remove just this finalizer, whatever else the list holds. */
export async function removeTrackingFinalizer(client: KubeClient, pod: Pod, signal?: AbortSignal): Promise<void> {
  await client.patch(podsResource, pod.metadata.name ?? '', { metadata: { '$deleteFromPrimitiveList/finalizers': [JOB_TRACKING_FINALIZER] } }, {
    type: 'strategic',
    namespace: pod.metadata.namespace ?? '',
    ...(signal ? { signal } : {}),
  });
}
