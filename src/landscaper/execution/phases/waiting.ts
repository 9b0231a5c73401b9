// Progressing and Deleting wait for their deploy items. The ReconcileDeployItems condition says what for,
// but it is written only when the picture changed (items triggered, a new reason, a lastError to clear):
// rewriting the message on every deploy item event would cost a status write per item.
import { phaseResult } from '../../../runtime/index.ts';
import type { Execution } from '../../api/execution.ts';
import { deployItemsConditionReason, setDeployItemsCondition } from '../condition.ts';
import type { ItemsWaiting } from '../outcome.ts';
import type { PhaseResult } from './types.ts';

export function waitForItems(exec: Execution, waiting: ItemsWaiting, now: Date): PhaseResult {
  const { reason, message } = waiting;
  const changed = waiting.triggered > 0 || deployItemsConditionReason(exec.status) !== reason || exec.status?.lastError !== undefined;
  if (!changed) return phaseResult.wait(reason, message);
  return phaseResult.wait(reason, message, {
    mutate: (s) => {
      setDeployItemsCondition(s, 'Progressing', reason, message, [], now);
      delete s.lastError;
    },
  });
}
