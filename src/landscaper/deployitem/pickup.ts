// What the pickup timeout writes into a deploy item no deployer picked up: the job finished as Failed
// (DeleteFailed while deleting) with a lastError that says why, and names a missing Target, the most
// common cause besides an unknown type.
import { ERR_TIMEOUT, PHASE_DELETE_FAILED, PHASE_FAILED } from '../api/constants.ts';
import type { DeployItem, DeployItemStatus } from '../api/deploy-item.ts';
import { lsTime, updatedLsError } from '../status-helpers.ts';
import { formatGoDuration } from '../../apimachinery/duration.ts';
import { PICKUP_TIMEOUT_OPERATION, PICKUP_TIMEOUT_REASON } from './timeouts.ts';

export function pickupTimeoutMessage(di: DeployItem, timeoutMs: number, missingTarget: string | undefined): string {
  const base = `no deployer has picked up deploy item ${di.metadata.name ?? ''} (type ${di.spec.type}) within ${formatGoDuration(timeoutMs)}`;
  if (missingTarget !== undefined) return `${base}: its Target ${missingTarget} does not exist`;
  return `${base}: is a deployer for this type running and responsible for its target?`;
}

/** Marks the current job finished and failed by the pickup timeout (in place). */
export function applyPickupTimeout(di: DeployItem, status: DeployItemStatus, message: string, now: Date): void {
  status.jobIDFinished = status.jobID ?? '';
  status.observedGeneration = di.metadata.generation ?? 0;
  status.phase = di.metadata.deletionTimestamp !== undefined ? PHASE_DELETE_FAILED : PHASE_FAILED;
  status.transitionTimes = { ...status.transitionTimes, finishedTime: lsTime(now) };
  status.lastError = updatedLsError(status.lastError, PICKUP_TIMEOUT_OPERATION, PICKUP_TIMEOUT_REASON, message, [ERR_TIMEOUT], now);
}
