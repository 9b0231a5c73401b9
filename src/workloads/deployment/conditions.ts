// apps/v1 DeploymentConditions (deploymentutil): unlike metav1.Condition they carry lastUpdateTime, and a
// condition with the same status and reason is left alone entirely, so that Progressing's lastUpdateTime marks
// the last progress (the base of the progress deadline) rather than the last sync.
import { nowTime } from '../../apimachinery/time.ts';
import type { DeploymentCondition, DeploymentStatus } from '../../apimachinery/api/index.ts';

export const DEPLOYMENT_AVAILABLE = 'Available';
export const DEPLOYMENT_PROGRESSING = 'Progressing';
export const DEPLOYMENT_REPLICA_FAILURE = 'ReplicaFailure';

export const REASON_NEW_RS_CREATED = 'NewReplicaSetCreated';
export const REASON_FOUND_NEW_RS = 'FoundNewReplicaSet';
export const REASON_NEW_RS_AVAILABLE = 'NewReplicaSetAvailable';
export const REASON_RS_UPDATED = 'ReplicaSetUpdated';
export const REASON_TIMED_OUT = 'ProgressDeadlineExceeded';
export const REASON_PAUSED = 'DeploymentPaused';
export const REASON_RESUMED = 'DeploymentResumed';
export const REASON_FAILED_RS_CREATE = 'ReplicaSetCreateError';
export const REASON_MINIMUM_REPLICAS_AVAILABLE = 'MinimumReplicasAvailable';
export const REASON_MINIMUM_REPLICAS_UNAVAILABLE = 'MinimumReplicasUnavailable';

export function newDeploymentCondition(type: string, status: DeploymentCondition['status'], reason: string, message: string, now: Date): DeploymentCondition {
  const stamp = nowTime(now);
  return { type, status, lastUpdateTime: stamp, lastTransitionTime: stamp, reason, message };
}

export function getDeploymentCondition(status: DeploymentStatus | undefined, type: string): DeploymentCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

export function setDeploymentCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getDeploymentCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = current && current.status === condition.status ? { ...condition, lastTransitionTime: current.lastTransitionTime } : condition;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
}

export function removeDeploymentCondition(status: DeploymentStatus, type: string): void {
  if (status.conditions) status.conditions = status.conditions.filter((c) => c.type !== type);
}
