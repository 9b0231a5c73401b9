// The ReconcileDeployItems condition: what the execution's deploy items are doing (Progressing while they
// run, True when all succeeded, False with the failure that ended the job).
import { CONDITION_RECONCILE_DEPLOY_ITEMS, type ErrorCode } from '../api/constants.ts';
import type { ExecutionStatus } from '../api/execution.ts';
import type { ConditionStatus } from '../api/shared.ts';
import { setLsCondition } from '../status-helpers.ts';

export function setDeployItemsCondition(status: ExecutionStatus, condition: ConditionStatus, reason: string, message: string, codes: ErrorCode[], now: Date): void {
  status.conditions ??= [];
  setLsCondition(status.conditions, CONDITION_RECONCILE_DEPLOY_ITEMS, condition, reason, message, codes, now);
}

/** The condition's current reason, if it is set. */
export function deployItemsConditionReason(status: ExecutionStatus | undefined): string | undefined {
  return status?.conditions?.find((c) => c.type === CONDITION_RECONCILE_DEPLOY_ITEMS)?.reason;
}
