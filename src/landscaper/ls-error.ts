// Landscaper's one error model, for installations, executions and deploy items alike. An error is upstream's
// lserrors.Error: the operation that failed, a CamelCase reason, the message and error codes; status.lastError
// records them. The codes decide what a phase machine (runtime/phases) does with it, as upstream's
// lsv1alpha1.UnrecoverableErrorCodes do: an unrecoverable code (configuration, internal, timeout, unauthorized,
// cyclic dependencies) ends the job in Failed / DeleteFailed; any other error keeps the phase and is retried
// with the work queue's backoff (an admission webhook's rejection among them: ERR_WEBHOOK, retried).
import { KubeApiError } from '../client/errors.ts';
import type { ClassifiedError } from '../runtime/index.ts';
import { isConflict, messageOf } from '../runtime/index.ts';
import { ERR_CONFIGURATION_PROBLEM, ERR_WEBHOOK, UNRECOVERABLE_ERROR_CODES, type ErrorCode } from './api/constants.ts';

export class LandscaperError extends Error {
  override readonly name: string = 'LandscaperError';
  /** lastError.operation: the step that failed; '' for the phase it failed in. */
  readonly operation: string;
  /** lastError.reason: a CamelCase cause. */
  readonly reason: string;
  readonly codes: readonly ErrorCode[];
  /** What status and Events show: the message, or a shorter one (a template error without its input dump). */
  readonly statusMessage: string;

  constructor(operation: string, reason: string, message: string, codes: readonly ErrorCode[] = [], options?: { cause?: unknown; statusMessage?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.operation = operation;
    this.reason = reason;
    this.codes = codes;
    this.statusMessage = options?.statusMessage ?? message;
  }

  /** No retry fixes it: an unrecoverable code. */
  get fatal(): boolean {
    return this.codes.some((c) => UNRECOVERABLE_ERROR_CODES.includes(c));
  }
}

/**
 * The user's configuration is wrong (blueprint, imports, templates, exports, provider configuration, targets):
 * ERR_CONFIGURATION_PROBLEM unless other codes are given, so fatal.
 */
export class ConfigurationError extends LandscaperError {
  override readonly name: string = 'ConfigurationError';

  constructor(operation: string, reason: string, message: string, codes: readonly ErrorCode[] = [ERR_CONFIGURATION_PROBLEM], options?: { cause?: unknown; statusMessage?: string }) {
    super(operation, reason, message, codes, options);
  }
}

/**
 * The job failed because another object did, or its inputs changed under it: a subobject, predecessor,
 * successor or deploy item failed, the spec or imports changed during the job. Fatal whatever it records
 * (upstream records no code, or ERR_FOR_INFO_ONLY): retrying this object cannot change the outcome.
 */
export class JobFailedError extends LandscaperError {
  override readonly name: string = 'JobFailedError';

  override get fatal(): boolean {
    return true;
  }
}

/** The codes of err and of every LandscaperError in its cause chain (upstream's CollectErrorCodes). */
function errorCodes(err: unknown): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  for (const e of causeChain(err)) if (e instanceof LandscaperError) for (const c of e.codes) codes.add(c);
  return [...codes];
}

/** A classified error with the codes lastError records: what every Landscaper phase machine works with. */
export interface LandscaperFailure extends ClassifiedError {
  readonly codes: ErrorCode[];
}

/**
 * What a phase threw: stale reads and lost races are conflicts (retried, never recorded); a fatal
 * LandscaperError in the cause chain ends the job; the rest is normal. `operation` names the step for
 * errors that do not name one.
 */
export function classify(err: unknown, operation: string): LandscaperFailure {
  const ls = err instanceof LandscaperError ? err : undefined;
  const codes = errorCodes(err);
  // An admission webhook that rejected a write may accept it later (upstream's read_write_layer adds the code).
  if (err instanceof KubeApiError && /webhook/i.test(err.message)) codes.push(ERR_WEBHOOK);
  const fatal = causeChain(err).some((e) => e instanceof LandscaperError && e.fatal);
  return {
    class: isConflict(err) ? 'conflict' : fatal ? 'fatal' : 'normal',
    operation: ls?.operation || operation,
    reason: ls?.reason ?? (err instanceof Error ? err.name : 'Error'),
    message: ls?.statusMessage ?? messageOf(err),
    codes,
    cause: err,
  };
}

function causeChain(err: unknown): Error[] {
  const chain: Error[] = [];
  for (let e: unknown = err; e instanceof Error && chain.length < 16; e = e.cause) chain.push(e);
  return chain;
}
