// The batch.kubernetes.io/job-tracking finalizer on a Job's pods: it keeps a finished pod until the Job counted it.
import type { KubeClient } from '../../client/client.ts';
import { podsResource } from '../../apimachinery/builtin-resources.ts';
import { removeFinalizerWithRetry } from '../../runtime/index.ts';
import type { Pod } from '../../apimachinery/api/index.ts';
import { JOB_TRACKING_FINALIZER } from './constants.ts';

export function hasTrackingFinalizer(pod: Pod): boolean {
  return (pod.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
}

/** Removes just this finalizer, whatever else the list holds and however often the kubelet writes the pod. */
export async function removeTrackingFinalizer(client: KubeClient, pod: Pod, signal?: AbortSignal): Promise<void> {
  await removeFinalizerWithRetry(client, podsResource, pod, JOB_TRACKING_FINALIZER, signal ? { signal } : {});
}
