// Upstream's lserrors.Error: what every Landscaper controller writes into status.lastError — the operation that
// failed, a CamelCase reason, the message and error codes (which decide between retrying and failing).
import type { ErrorCode } from './api/constants.ts';

export abstract class LandscaperError extends Error {
  /** lastError.operation: the step that failed. */
  readonly operation: string;
  /** lastError.reason: a CamelCase cause. */
  readonly reason: string;
  readonly codes: ErrorCode[];

  constructor(operation: string, reason: string, message: string, codes: ErrorCode[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.operation = operation;
    this.reason = reason;
    this.codes = codes;
  }
}
