// A DaemonSet's status (updateDaemonSetStatus): per node that should run it, whether a daemon pod is there, ready,
// available and at the current template; pods on nodes that should not run it are misscheduled.
import type { DaemonSet, DaemonSetStatus, Pod } from '../../apimachinery/api/index.ts';
import { isPodAvailable, isPodReady } from '../pods/pod-state.ts';
import { isPodUpdated, oldestFirst } from './daemon-pod.ts';

export interface NodeState {
  shouldRun: boolean;
  pods: readonly Pod[];
}

export function computeStatus(set: DaemonSet, nodes: readonly NodeState[], hash: string, collisionCount: number, now: number): DaemonSetStatus {
  const minReady = set.spec.minReadySeconds ?? 0;
  let desired = 0;
  let current = 0;
  let ready = 0;
  let available = 0;
  let updated = 0;
  let misscheduled = 0;
  for (const node of nodes) {
    if (!node.shouldRun) {
      if (node.pods.length > 0) misscheduled++;
      continue;
    }
    desired++;
    const pod = [...node.pods].sort(oldestFirst)[0];
    if (!pod) continue;
    current++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReady, now)) available++;
    }
    if (isPodUpdated(set, pod, hash)) updated++;
  }
  const status: DaemonSetStatus = {
    currentNumberScheduled: current,
    numberMisscheduled: misscheduled,
    desiredNumberScheduled: desired,
    numberReady: ready,
    observedGeneration: set.metadata.generation ?? 0,
    updatedNumberScheduled: updated,
    numberAvailable: available,
    numberUnavailable: desired - available,
  };
  if (collisionCount > 0) status.collisionCount = collisionCount;
  // Go's omitempty: zero optional counts are not written.
  for (const key of ['updatedNumberScheduled', 'numberAvailable', 'numberUnavailable'] as const) if (status[key] === 0) delete status[key];
  return status;
}
