// The Deployment's status (the deployment controller's progress.go and sync.go): counts summed over its
// ReplicaSets, Available while at most maxUnavailable replicas are missing, and Progressing, which records
// progress (ReplicaSetUpdated), completion (NewReplicaSetAvailable) or a rollout stuck past
// progressDeadlineSeconds (ProgressDeadlineExceeded). A rollout in progress is looked at again when its deadline
// would pass: a timer, not a poll.
import type { DeploymentStatus, ReplicaSet } from '../../apimachinery/api/index.ts';
import {
  DEPLOYMENT_AVAILABLE,
  DEPLOYMENT_PROGRESSING,
  DEPLOYMENT_REPLICA_FAILURE,
  getDeploymentCondition,
  newDeploymentCondition,
  REASON_MINIMUM_REPLICAS_AVAILABLE,
  REASON_MINIMUM_REPLICAS_UNAVAILABLE,
  REASON_NEW_RS_AVAILABLE,
  REASON_RS_UPDATED,
  REASON_TIMED_OUT,
  removeDeploymentCondition,
  setDeploymentCondition,
} from './conditions.ts';
import type { DeploymentSync } from './context.ts';
import { maxUnavailable } from './fenceposts.ts';
import { specReplicas, statusReplicas } from './replica-sets.ts';

export function calculateStatus(sync: DeploymentSync, allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined): DeploymentStatus {
  const d = sync.deployment;
  const available = statusReplicas(allRSs, 'availableReplicas');
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 0,
    replicas: statusReplicas(allRSs, 'replicas'),
    updatedReplicas: statusReplicas([newRS], 'replicas'),
    readyReplicas: statusReplicas(allRSs, 'readyReplicas'),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, specReplicas(allRSs) - available),
    ...(d.status?.collisionCount !== undefined ? { collisionCount: d.status.collisionCount } : {}),
    conditions: structuredClone(d.status?.conditions ?? []),
  };
  const now = sync.data.now();
  if (available >= sync.replicas - maxUnavailable(d)) {
    setDeploymentCondition(status, newDeploymentCondition(DEPLOYMENT_AVAILABLE, 'True', REASON_MINIMUM_REPLICAS_AVAILABLE, 'Deployment has minimum availability.', now));
  } else {
    setDeploymentCondition(status, newDeploymentCondition(DEPLOYMENT_AVAILABLE, 'False', REASON_MINIMUM_REPLICAS_UNAVAILABLE, 'Deployment does not have minimum availability.', now));
  }
  return status;
}

/** DeploymentComplete: every replica updated and available, and the latest generation observed. */
export function deploymentComplete(sync: DeploymentSync, status: DeploymentStatus): boolean {
  const r = sync.replicas;
  return status.updatedReplicas === r && status.replicas === r && status.availableReplicas === r && (status.observedGeneration ?? 0) >= (sync.deployment.metadata.generation ?? 0);
}

/** syncDeploymentStatus: the counts and Available, for scaling and paused Deployments. */
export async function syncDeploymentStatus(sync: DeploymentSync, allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined): Promise<void> {
  await sync.writeStatus(calculateStatus(sync, allRSs, newRS));
}

/** syncRolloutStatus; returns when to look again (ms) while a rollout runs against its deadline. */
export async function syncRolloutStatus(sync: DeploymentSync, allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined): Promise<number | undefined> {
  const d = sync.deployment;
  const status = calculateStatus(sync, allRSs, newRS);
  const now = sync.data.now();
  if (!sync.hasProgressDeadline()) removeDeploymentCondition(status, DEPLOYMENT_PROGRESSING);
  const current = getDeploymentCondition(d.status, DEPLOYMENT_PROGRESSING);
  const isComplete = status.replicas === status.updatedReplicas && current?.reason === REASON_NEW_RS_AVAILABLE;
  const subject = newRS ? `ReplicaSet "${newRS.metadata.name ?? ''}"` : `Deployment "${d.metadata.name ?? ''}"`;
  if (sync.hasProgressDeadline() && !isComplete) {
    if (deploymentComplete(sync, status)) {
      setDeploymentCondition(status, newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'True', REASON_NEW_RS_AVAILABLE, `${subject} has successfully progressed.`, now));
    } else if (progressed(d.status, status)) {
      // Progress moves lastUpdateTime even when the reason stays: the deadline counts from the last progress.
      const condition = newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'True', REASON_RS_UPDATED, `${subject} is progressing.`, now);
      if (current?.status === 'True') condition.lastTransitionTime = current.lastTransitionTime;
      removeDeploymentCondition(status, DEPLOYMENT_PROGRESSING);
      setDeploymentCondition(status, condition);
    } else if (timedOut(sync, now)) {
      setDeploymentCondition(status, newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'False', REASON_TIMED_OUT, `${subject} has timed out progressing.`, now));
    }
  }
  const failure = allRSs.map((rs) => rs?.status?.conditions?.find((c) => c.type === 'ReplicaFailure' && c.status === 'True')).find((c) => c !== undefined);
  if (failure) setDeploymentCondition(status, newDeploymentCondition(DEPLOYMENT_REPLICA_FAILURE, 'True', failure.reason ?? '', failure.message ?? '', now));
  else removeDeploymentCondition(status, DEPLOYMENT_REPLICA_FAILURE);
  await sync.writeStatus(status);
  return stuckRecheckMs(sync, status, now);
}

/** DeploymentProgressing: more updated, ready or available replicas, or fewer old ones, than last recorded. */
function progressed(old: DeploymentStatus | undefined, next: DeploymentStatus): boolean {
  const oldOld = (old?.replicas ?? 0) - (old?.updatedReplicas ?? 0);
  const newOld = (next.replicas ?? 0) - (next.updatedReplicas ?? 0);
  return (
    (next.updatedReplicas ?? 0) > (old?.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (next.readyReplicas ?? 0) > (old?.readyReplicas ?? 0) ||
    (next.availableReplicas ?? 0) > (old?.availableReplicas ?? 0)
  );
}

/** DeploymentTimedOut: no progress within progressDeadlineSeconds of the last recorded progress. */
function timedOut(sync: DeploymentSync, now: Date): boolean {
  const condition = getDeploymentCondition(sync.deployment.status, DEPLOYMENT_PROGRESSING);
  if (!condition) return false;
  if (condition.reason === REASON_TIMED_OUT) return true;
  if (condition.reason === REASON_NEW_RS_AVAILABLE) return false;
  return Date.parse(condition.lastUpdateTime ?? '') + (sync.deployment.spec.progressDeadlineSeconds ?? 600) * 1000 < now.getTime();
}

/** requeueStuckDeployment: while progressing and not complete, wake up when the deadline would pass. */
function stuckRecheckMs(sync: DeploymentSync, status: DeploymentStatus, now: Date): number | undefined {
  const condition = getDeploymentCondition(status, DEPLOYMENT_PROGRESSING);
  if (!sync.hasProgressDeadline() || !condition || condition.status !== 'True' || condition.reason === REASON_NEW_RS_AVAILABLE || deploymentComplete(sync, status)) {
    return undefined;
  }
  const after = Date.parse(condition.lastUpdateTime ?? '') + (sync.deployment.spec.progressDeadlineSeconds ?? 600) * 1000 - now.getTime();
  // A second of slack past the deadline, as upstream, so the check after it sees the deadline passed.
  return Math.max(0, after) + 1000;
}
