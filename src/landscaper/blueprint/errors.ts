// Typed errors of blueprint loading and import validation; messages name the file or import. All of them are
// configuration errors: no retry fixes a blueprint.
import { ConfigurationError } from '../ls-error.ts';

/** The blueprint (or one of its files) cannot be read or is structurally invalid. */
export class BlueprintError extends ConfigurationError {
  override readonly name = 'BlueprintError' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super('', 'BlueprintError', message, undefined, options);
  }
}

/** A JSON schema of the blueprint is invalid or references something that cannot be resolved. */
export class BlueprintSchemaError extends ConfigurationError {
  override readonly name = 'BlueprintSchemaError' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super('', 'BlueprintSchemaError', message, undefined, options);
  }
}

export type ImportErrorReason = 'ImportNotFound' | 'SchemaValidationFailed' | 'InvalidTargetType' | 'ImportExecutionErrors';

/** An import is missing or does not match its definition (fatal for the installation's Init). */
export class ImportValidationError extends ConfigurationError {
  override readonly name = 'ImportValidationError' as const;
  declare readonly reason: ImportErrorReason;
  /** The blueprint import concerned (undefined for import execution errors). */
  readonly importName: string | undefined;
  constructor(reason: ImportErrorReason, importName: string | undefined, message: string) {
    super('', reason, message);
    this.importName = importName;
  }
}
