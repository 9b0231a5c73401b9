// status.lastError / firstError / lastErrors with upstream's update rule (apis/errors UpdatedError):
// timestamps survive unchanged content; lastTransitionTime moves only when the operation changes.
import type { ErrorCode } from '../../api/constants.ts';
import type { DeployItemStatus } from '../../api/deploy-item.ts';
import type { LsError } from '../../api/shared.ts';
import { DeployerError, errorCodes, messageOf } from './errors.ts';

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

export function updatedError(previous: LsError | undefined, input: ErrorInput, now: string): LsError {
  const next: LsError = {
    operation: input.operation,
    reason: input.reason,
    message: input.message,
    lastTransitionTime: now,
    lastUpdateTime: now,
    ...(input.codes && input.codes.length > 0 ? { codes: [...input.codes] } : {}),
  };
  if (!previous) return next;
  const same = previous.operation === next.operation && previous.reason === next.reason && previous.message === next.message
    && JSON.stringify(previous.codes ?? []) === JSON.stringify(next.codes ?? []);
  if (same) return previous;
  if (previous.operation === next.operation) next.lastTransitionTime = previous.lastTransitionTime;
  return next;
}

/** Records an error in lastError, firstError (once per job) and the ring of the last five. */
export function recordError(status: DeployItemStatus, input: ErrorInput, now: string): void {
  const updated = updatedError(status.lastError, input, now);
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
