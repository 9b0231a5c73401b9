import type { Pod } from '../../../apimachinery/api/index.ts';

/** kubelet's format.Pod, as its messages and Events name a pod: name_namespace(uid). */
export function formatPod(pod: Pod): string {
  return `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
}
