// Error classification, done once for every phase machine. A handler throws; the family's classifier says
// what the error means, and the machine does the same thing for every family:
// | class      | status                                   | reconcile ends with                        |
// | fatal      | the failed phase, with the error recorded | TerminalError: counted, never requeued     |
// | normal     | the error recorded, phase kept            | the error: counted, work queue backoff     |
// | conflict   | untouched                                 | the error: retried from a fresher cache    |
// | superseded | untouched (another party took the object) | awaitChange                                |
import { ConflictError } from '../../client/errors.ts';

export type ErrorClass = 'fatal' | 'normal' | 'conflict' | 'superseded';

/** An error as the machine handles it: its class, and the words status records (lastError, Events). */
export interface ClassifiedError {
  readonly class: ErrorClass;
  /** The step that failed: by default the phase it failed in. */
  readonly operation: string;
  /** CamelCase cause, for lastError.reason and the Event reason. */
  readonly reason: string;
  readonly message: string;
  /** The thrown value. */
  readonly cause: unknown;
}

/** Stale reads and lost races: never recorded, always retried. */
export function isConflict(err: unknown): boolean {
  return err instanceof ConflictError || err instanceof PhaseMovedError;
}

/** The object left the phase (or job) the reconcile started from while a transition was being written. */
export class PhaseMovedError extends Error {
  override readonly name = 'PhaseMovedError' as const;
}

/** The message of anything thrown. */
