// What a pod's status says about it, as kube-controller-manager's podutil reads it.
import type { Pod, PodCondition } from '../../apimachinery/api/index.ts';

export function podCondition(pod: Pod, type: string): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

export function isPodReady(pod: Pod): boolean {
  return podCondition(pod, 'Ready')?.status === 'True';
}

export function isPodTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** controller.IsPodActive: not finished and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  return !isPodTerminal(pod) && pod.metadata.deletionTimestamp === undefined;
}

/** Being deleted but still running: it holds resources and counts as terminating. */
export function isPodTerminating(pod: Pod): boolean {
  return pod.metadata.deletionTimestamp !== undefined && !isPodTerminal(pod);
}

/** When a ready pod becomes available (Ready for minReadySeconds), in ms since the epoch; undefined when not ready. */
export function podAvailableAt(pod: Pod, minReadySeconds: number): number | undefined {
  const ready = podCondition(pod, 'Ready');
  if (ready?.status !== 'True') return undefined;
  if (minReadySeconds <= 0) return 0;
  const since = Date.parse(ready.lastTransitionTime ?? '');
  return Number.isNaN(since) ? 0 : since + minReadySeconds * 1000;
}

/** The next moment after `now` at which one of the pods becomes available; undefined when none will by itself. */
export function nextPodAvailability(pods: readonly Pod[], minReadySeconds: number, now: number): number | undefined {
  const pending = pods.map((p) => podAvailableAt(p, minReadySeconds)).filter((at): at is number => at !== undefined && at > now);
  return pending.length > 0 ? Math.min(...pending) : undefined;
}

export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  const at = podAvailableAt(pod, minReadySeconds);
  return at !== undefined && at <= now;
}

export function restartCount(pod: Pod): number {
  let sum = 0;
  for (const s of [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])]) sum += s.restartCount ?? 0;
  return sum;
}
