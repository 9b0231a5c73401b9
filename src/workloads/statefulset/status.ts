// A StatefulSet's status (computeReplicaStatus, completeRollingUpdate): replicas counts the created pods,
// readyReplicas those Running and Ready, availableReplicas those ready for minReadySeconds, currentReplicas and
// updatedReplicas the live pods at the current and the update revision. A RollingUpdate whose pods are all at the
// update revision and ready completes: the update revision becomes the current one.
import type { ControllerRevision, Pod, StatefulSet, StatefulSetStatus } from '../../apimachinery/api/index.ts';
import { isPodAvailable, isPodReady } from '../pods/pod-state.ts';
import { revisionOf } from './identity.ts';

/** isCreated: the API server has the pod (a pod not yet created has no phase). */
export function isCreated(pod: Pod): boolean {
  return (pod.status?.phase ?? '') !== '';
}

export function isTerminating(pod: Pod): boolean {
  return pod.metadata.deletionTimestamp !== undefined;
}

export function isRunningAndReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && isPodReady(pod);
}

export function isRunningAndAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  return pod.status?.phase === 'Running' && isPodAvailable(pod, minReadySeconds, now);
}

/** isUnavailable: not healthy (Running, Ready, not terminating) or not yet available. */
export function isUnavailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  return !isRunningAndReady(pod) || isTerminating(pod) || !isRunningAndAvailable(pod, minReadySeconds, now);
}

export interface RevisionPair {
  current: ControllerRevision;
  update: ControllerRevision;
}

export function computeStatus(set: StatefulSet, pods: readonly Pod[], revisions: RevisionPair, collisionCount: number, now: number): StatefulSetStatus {
  const minReady = set.spec.minReadySeconds ?? 0;
  const current = revisions.current.metadata.name ?? '';
  const update = revisions.update.metadata.name ?? '';
  let replicas = 0;
  let ready = 0;
  let available = 0;
  let currentReplicas = 0;
  let updated = 0;
  for (const pod of pods) {
    if (isCreated(pod)) replicas++;
    if (isRunningAndReady(pod)) {
      ready++;
      if (isRunningAndAvailable(pod, minReady, now)) available++;
    }
    if (isCreated(pod) && !isTerminating(pod)) {
      if (revisionOf(pod) === current) currentReplicas++;
      if (revisionOf(pod) === update) updated++;
    }
  }
  return {
    observedGeneration: set.metadata.generation ?? 0,
    replicas,
    readyReplicas: ready,
    currentReplicas,
    updatedReplicas: updated,
    currentRevision: current,
    updateRevision: update,
    collisionCount,
    availableReplicas: available,
  };
}

/** completeRollingUpdate, in place. */
export function completeRollingUpdate(set: StatefulSet, status: StatefulSetStatus): void {
  if ((set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision ?? '';
  }
}

/** The status as the API writes it: Go's omitempty drops zero counts and empty names; conditions are kept. */
export function wireStatus(status: StatefulSetStatus, conditions: StatefulSetStatus['conditions']): StatefulSetStatus {
  const out: StatefulSetStatus = { ...status };
  for (const key of ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'observedGeneration'] as const) if (out[key] === 0) delete out[key];
  for (const key of ['currentRevision', 'updateRevision'] as const) if (out[key] === '') delete out[key];
  if (conditions && conditions.length > 0) out.conditions = structuredClone(conditions);
  return out;
}
