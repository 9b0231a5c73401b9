// status.lastError / firstError / lastErrors with upstream's update rule (apis/errors UpdatedError):
// timestamps survive unchanged content; lastTransitionTime moves only when the operation changes.
import type { DeployItemStatus } from '../../api/deploy-item.ts';
import { updatedLsError } from '../../status-helpers.ts';
import type { LandscaperFailure } from '../../ls-error.ts';

const MAX_LAST_ERRORS = 5;

/** Records an error in lastError, firstError (once per job) and the ring of the last five. */
export function recordError(status: DeployItemStatus, input: Pick<LandscaperFailure, 'operation' | 'reason' | 'message' | 'codes'>, now: Date): void {
  const updated = updatedLsError(status.lastError, input.operation, input.reason, input.message, input.codes, now);
  if (updated === status.lastError) return;
  status.lastError = updated;
  status.firstError ??= updated;
  const ring = [...(status.lastErrors ?? []), updated];
  status.lastErrors = ring.slice(-MAX_LAST_ERRORS);
}

/** A new job starts with an empty error history (upstream's InitErrors). */
export function clearErrors(status: DeployItemStatus): void {
  delete status.lastError;
  delete status.firstError;
  delete status.lastErrors;
}
