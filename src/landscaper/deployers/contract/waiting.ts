// The deploy item's Waiting condition: what its deployer waits for (readiness, exports, a deletion), for users
// (bosun tree) and for the progressing-timeout error. True while the deployer waits; False once it no longer
// does; absent on items whose deployer never waited.
import { CONDITION_WAITING } from '../../api/constants.ts';
import type { DeployItemStatus } from '../../api/deploy-item.ts';
import { setLsCondition } from '../../status-helpers.ts';

/** Sets the condition to what the deployer waits for, or (undefined) says it waits no more. */
export function setWaiting(status: DeployItemStatus, waitingFor: string | undefined): void {
  if (waitingFor !== undefined) {
    status.conditions ??= [];
    setLsCondition(status.conditions, CONDITION_WAITING, 'True', 'Waiting', waitingFor);
  } else if (status.conditions && waitingOf(status) !== undefined) {
    setLsCondition(status.conditions, CONDITION_WAITING, 'False', 'NotWaiting', '');
  }
}

/** What the deployer waits for, if it does. */
export function waitingOf(status: DeployItemStatus | undefined): string | undefined {
  return status?.conditions?.find((c) => c.type === CONDITION_WAITING && c.status === 'True')?.message;
}
