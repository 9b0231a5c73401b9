// The Workflow controller's typed errors, and which failures no retry can fix.
import { isTerminal } from '../../runtime/index.ts';
import { GitHubCredentialsError, GitHubRequestError } from '../github/errors.ts';

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

/** A failure only a person can fix (the Secret, the App installation), not a retry. */
export function isConfigurationError(err: unknown): boolean {
  if (isTerminal(err) || err instanceof GitHubCredentialsError) return true;
  return err instanceof GitHubRequestError && (err.status === 401 || err.status === 404);
}
