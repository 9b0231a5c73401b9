// Typed errors of blueprint loading and import validation; messages name the file or import.

/** The blueprint (or one of its files) cannot be read or is structurally invalid. */
export class BlueprintError extends Error {
  override readonly name = 'BlueprintError' as const;
}

/** A JSON schema of the blueprint is invalid or references something that cannot be resolved. */
export class BlueprintSchemaError extends Error {
  override readonly name = 'BlueprintSchemaError' as const;
}

export type ImportErrorReason = 'ImportNotFound' | 'SchemaValidationFailed' | 'InvalidTargetType' | 'ImportExecutionErrors';

/** An import is missing or does not match its definition (fatal for the installation's Init). */
export class ImportValidationError extends Error {
  override readonly name = 'ImportValidationError' as const;
  readonly reason: ImportErrorReason;
  /** The blueprint import concerned (undefined for import execution errors). */
  readonly importName: string | undefined;
  constructor(reason: ImportErrorReason, importName: string | undefined, message: string) {
    super(message);
    this.reason = reason;
    this.importName = importName;
  }
}
