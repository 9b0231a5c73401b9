// status.lastError / firstError / lastErrors with upstream's update rule (apis/errors UpdatedError):
// timestamps survive unchanged content; lastTransitionTime moves only when the operation changes.
import type { ErrorCode } from '../../api/constants.ts';
import type { DeployItemStatus } from '../../api/deploy-item.ts';
import { messageOf } from '../../../runtime/phases/phase-error.ts';
import { updatedLsError } from '../../status-helpers.ts';
import { DeployerError, errorCodes } from './errors.ts';

const MAX_LAST_ERRORS = 5;

export interface ErrorInput {
  operation: string;
  reason: string;
  message: string;
  codes?: ErrorCode[];
}

export function toErrorInput(err: unknown, operation: string): ErrorInput {
  if (err instanceof DeployerError) return { operation: err.operation, reason: err.reason, message: err.message, codes: errorCodes(err) };
  const codes = errorCodes(err);
  return { operation, reason: err instanceof Error ? err.name : 'Error', message: messageOf(err), ...(codes.length > 0 ? { codes } : {}) };
}

/** Records an error in lastError, firstError (once per job) and the ring of the last five. */
export function recordError(status: DeployItemStatus, input: ErrorInput, now: Date): void {
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
