// Blueprint loading, parsing, schema validation and import construction.
export { BlueprintError, BlueprintSchemaError, ImportValidationError, type ImportErrorReason } from './errors.ts';
export { inlineBlueprintFs, inlineFilesystemFiles } from './inline-fs.ts';
export { parseBlueprint, normalizeTargetType, allImportDefinitions } from './parse.ts';
export { BlueprintSchemaValidator, formatSchemaErrors, type SchemaValidatorOptions } from './schema.ts';
export { constructImports, type ImportValues } from './imports.ts';
export {
  BLUEPRINT_FILE,
  loadBlueprint,
  loadInlineBlueprint,
  staticSubinstallations,
  checkInstallationTemplate,
  type LoadedBlueprint,
} from './load.ts';
export { MemoryBlueprintFs, type BlueprintFs } from './fs.ts';
