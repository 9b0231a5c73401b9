// Typed errors of the execution controller. A fatal error ends the job (Failed / DeleteFailed); every
// other error keeps the phase, is recorded in lastError and retried with the work queue's backoff.
import { LandscaperError } from '../ls-error.ts';

/** Ends the current job: the execution goes to Failed (or DeleteFailed while deleting). */
export class ExecutionFatalError extends LandscaperError {
  override readonly name = 'ExecutionFatalError' as const;
}

/** A transient failure of one step, with the step named for lastError; retried with backoff. */
export class ExecutionStepError extends Error {
  override readonly name = 'ExecutionStepError' as const;
  readonly operation: string;
  readonly reason: string;

  constructor(operation: string, reason: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.operation = operation;
    this.reason = reason;
  }
}
