// The installation controller's error model (upstream apis/errors + the phase handlers' (fatal, normal) pair):
// fatal ends the job in Failed/DeleteFailed; normal repeats the phase with a growing backoff; a wait
// (ERR_NO_RETRY) repeats it only when a watched object changes.
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
import { KubeApiError, NetworkError } from '../../client/errors.ts';

export type Severity = 'fatal' | 'normal' | 'wait';

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

/** Waiting for another object: retried on its events, never by polling. */
export function waitError(operation: string, reason: string, message: string): InstallationError {
  return new InstallationError('wait', operation, reason, message, [ERR_UNFINISHED, ERR_FOR_INFO_ONLY, ERR_NO_RETRY]);
}

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

/** Turns anything a phase threw into an InstallationError (fatal for configuration errors, normal otherwise). */
export function classify(err: unknown, operation: string): InstallationError {
  if (err instanceof InstallationError) return err;
  if (err instanceof Error && FATAL_NAMES.has(err.name)) return fatalError(operation, err.name, err.message, [ERR_CONFIGURATION_PROBLEM], err);
  if (err instanceof KubeApiError) {
    // An admission webhook rejection is "recoverable fatal" upstream: the phase stays.
    const codes: ErrorCode[] = /webhook/i.test(err.message) ? [ERR_WEBHOOK] : [];
    return normalError(operation, err.name, err.message, codes, err);
  }
  if (err instanceof NetworkError) return normalError(operation, err.name, err.message, [], err);
  const message = err instanceof Error ? err.message : String(err);
  return normalError(operation, err instanceof Error ? err.name : 'Error', message, [ERR_INTERNAL_PROBLEM], err);
}
