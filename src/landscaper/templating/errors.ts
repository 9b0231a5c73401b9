// Typed errors of blueprint executions. Messages follow Landscaper's (template error + source
// snippet + masked input; "contains fields with \"no value\""), prefixed with the execution. All of them are
// configuration errors: no retry fixes a template.
import { ConfigurationError } from '../ls-error.ts';

export type ExecutionKind = 'deploy' | 'export' | 'subinstallation' | 'import';

/** "deploy execution \"name\"" (or "unnamed deploy execution") — how messages name an execution. */
export function describeExecution(kind: ExecutionKind, name: string): string {
  return name === '' ? `unnamed ${kind} execution` : `${kind} execution ${JSON.stringify(name)}`;
}

/** An error of one blueprint execution: which kind and which execution. */
abstract class ExecutionError extends ConfigurationError {
  readonly kind: ExecutionKind;
  readonly executionName: string;
  /**
   * `statusMessage`, for an object's status and Events, is the same, but instead of the dump of the template input
   * (long, gzipped, for a terminal) only the names of its top-level keys.
   */
  constructor(reason: string, kind: ExecutionKind, executionName: string, message: string, options?: { cause?: unknown; statusMessage?: string }) {
    super('', reason, message, undefined, options);
    this.kind = kind;
    this.executionName = executionName;
  }
}

/** Parsing or executing a GoTemplate failed; the message names the execution, line and column. */
export class TemplateExecutionError extends ExecutionError {
  override readonly name = 'TemplateExecutionError' as const;
  /** 1-based line in the template source, when the engine reported one. */
  readonly line: number | undefined;
  constructor(kind: ExecutionKind, executionName: string, message: string, line: number | undefined, cause?: unknown, statusMessage?: string) {
    super('TemplateExecutionError', kind, executionName, message, { cause, ...(statusMessage !== undefined ? { statusMessage } : {}) });
    this.line = line;
  }
}

/** The rendered output contains "<no value>" (missingkey=zero on a missing field). */
export class NoValueError extends ExecutionError {
  override readonly name = 'NoValueError' as const;
  /** 1-based output lines containing "<no value>". */
  readonly lines: number[];
  constructor(kind: ExecutionKind, executionName: string, message: string, lines: number[], statusMessage?: string) {
    super('NoValueError', kind, executionName, message, statusMessage !== undefined ? { statusMessage } : undefined);
    this.lines = lines;
  }
}

/** Spiff executions are not supported by Bosun (no JavaScript Spiff exists). */
export class SpiffNotSupportedError extends ExecutionError {
  override readonly name = 'SpiffNotSupportedError' as const;
  constructor(kind: ExecutionKind, executionName: string) {
    super('SpiffNotSupportedError', kind, executionName, `${describeExecution(kind, executionName)}: template type "Spiff" is not supported by Bosun; rewrite the execution as a GoTemplate`);
  }
}

/** The rendered text is not the YAML the execution must return, or an entry has a wrong shape. */
export class TemplateOutputError extends ExecutionError {
  override readonly name = 'TemplateOutputError' as const;
  constructor(kind: ExecutionKind, executionName: string, message: string) {
    super('TemplateOutputError', kind, executionName, `${describeExecution(kind, executionName)}: ${message}`);
  }
}

export type DeployItemValidationReason = 'InvalidName' | 'DuplicateName' | 'MissingType' | 'UnknownDependency' | 'Cycle';

/** The rendered deploy items are inconsistent (upstream: ValidateDeployItemTemplateList). */
export class DeployItemValidationError extends ConfigurationError {
  override readonly name = 'DeployItemValidationError' as const;
  declare readonly reason: DeployItemValidationReason;
  /** For Cycle: the item names along the cycle, first repeated at the end. */
  readonly cycle: string[] | undefined;
  constructor(reason: DeployItemValidationReason, message: string, cycle?: string[]) {
    super('', reason, message);
    this.cycle = cycle;
  }
}

export type InstallationTemplateValidationReason = 'DuplicateName' | 'DuplicateExport' | 'Cycle';

/** The subinstallation templates are inconsistent (upstream: ValidateInstallationTemplates, cycle check). */
export class InstallationTemplateValidationError extends ConfigurationError {
  override readonly name = 'InstallationTemplateValidationError' as const;
  declare readonly reason: InstallationTemplateValidationReason;
  readonly cycle: string[] | undefined;
  constructor(reason: InstallationTemplateValidationReason, message: string, cycle?: string[]) {
    super('', reason, message);
    this.cycle = cycle;
  }
}

/** Export values that do not match the blueprint's export definitions. */
export class ExportValidationError extends ConfigurationError {
  override readonly name = 'ExportValidationError' as const;
  readonly exportName: string;
  constructor(exportName: string, message: string) {
    super('', 'ExportValidationError', message);
    this.exportName = exportName;
  }
}
