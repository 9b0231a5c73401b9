// The Workflow controller's typed errors.

/** A Job of the Workflow's name exists but another object (or nobody) controls it: it is never adopted. */
export class JobNotControlledError extends Error {
  override readonly name = 'JobNotControlledError' as const;
}

/**
 * The check run cancel of a deletion failed and its deadline has not passed: retried no later than
 * retryInMs (the error policy turns it into a requeue bounded by the deadline).
 */
export class CancelPendingError extends Error {
  override readonly name = 'CancelPendingError' as const;
  readonly retryInMs: number;

  constructor(message: string, retryInMs: number, options?: { cause?: unknown }) {
    super(message, options);
    this.retryInMs = retryInMs;
  }
}
