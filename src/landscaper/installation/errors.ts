// The installation controller's errors (upstream apis/errors + the phase handlers' (fatal, normal) pair):
// fatal ends the job in Failed/DeleteFailed; normal repeats the phase with the work queue's growing backoff.
// Waits are not errors: handlers return them (runtime/phases), and lastError shows them with WAIT_CODES.
import {
  ERR_CONFIGURATION_PROBLEM,
  ERR_FOR_INFO_ONLY,
  ERR_INTERNAL_PROBLEM,
  ERR_NO_RETRY,
  ERR_UNFINISHED,
  ERR_WEBHOOK,
  type ErrorCode,
} from '../api/constants.ts';
import { LandscaperError } from '../ls-error.ts';
import { statusMessageOf } from '../templating/errors.ts';
import { KubeApiError, NetworkError } from '../../client/errors.ts';
import { isConflict, messageOf, type ClassifiedError, type ErrorClass } from '../../runtime/phases/phase-error.ts';

export type Severity = 'fatal' | 'normal';

export class InstallationError extends LandscaperError {
  override readonly name = 'InstallationError' as const;
  readonly severity: Severity;

  constructor(severity: Severity, operation: string, reason: string, message: string, codes: ErrorCode[] = [], options?: { cause?: unknown }) {
    super(operation, reason, message, codes, options);
    this.severity = severity;
  }
}

export function fatalError(operation: string, reason: string, message: string, codes: ErrorCode[] = [ERR_CONFIGURATION_PROBLEM], cause?: unknown): InstallationError {
  return new InstallationError('fatal', operation, reason, message, codes, cause === undefined ? undefined : { cause });
}

export function normalError(operation: string, reason: string, message: string, codes: ErrorCode[] = [], cause?: unknown): InstallationError {
  return new InstallationError('normal', operation, reason, message, codes, cause === undefined ? undefined : { cause });
}

/** The codes upstream records in lastError while an installation waits for another object (never retried by polling). */
export const WAIT_CODES: ErrorCode[] = [ERR_UNFINISHED, ERR_FOR_INFO_ONLY, ERR_NO_RETRY];
/** Error names of the pure Landscaper layer that no retry can fix (bad blueprint, imports, templates). */
const FATAL_NAMES = new Set([
  'BlueprintError',
  'BlueprintSchemaError',
  'ImportValidationError',
  'TemplateExecutionError',
  'NoValueError',
  'SpiffNotSupportedError',
  'TemplateOutputError',
  'DeployItemValidationError',
  'InstallationTemplateValidationError',
  'ExportValidationError',
  'YamlError',
]);

/** A classified error with the codes lastError records. */
export interface InstallationFailure extends ClassifiedError {
  readonly codes: ErrorCode[];
}

/**
 * What a phase threw, for the runtime's phase machine: configuration errors are fatal; an admission webhook's
 * rejection is "recoverable fatal" upstream (the phase stays); stale reads are conflicts; the rest is normal.
 */
export function classify(err: unknown, phase: string): InstallationFailure {
  const e = toInstallationError(err, phase);
  const cls: ErrorClass = isConflict(err) ? 'conflict' : e.severity === 'fatal' && !e.codes.includes(ERR_WEBHOOK) ? 'fatal' : 'normal';
  return { class: cls, operation: e.operation, reason: e.reason, message: e.message, codes: e.codes, cause: err };
}

function toInstallationError(err: unknown, operation: string): InstallationError {
  if (err instanceof InstallationError) return err;
  if (err instanceof Error && FATAL_NAMES.has(err.name)) return fatalError(operation, err.name, statusMessageOf(err), [ERR_CONFIGURATION_PROBLEM], err);
  if (err instanceof KubeApiError) {
    const codes: ErrorCode[] = /webhook/i.test(err.message) ? [ERR_WEBHOOK] : [];
    return normalError(operation, err.name, err.message, codes, err);
  }
  if (err instanceof NetworkError) return normalError(operation, err.name, err.message, [], err);
  return normalError(operation, err instanceof Error ? err.name : 'Error', messageOf(err), [ERR_INTERNAL_PROBLEM], err);
}
