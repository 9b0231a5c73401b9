// Landscaper's blueprint executions on the Bosun template engine (pure; no cluster access).
export {
  TemplateExecutionError,
  NoValueError,
  SpiffNotSupportedError,
  TemplateOutputError,
  DeployItemValidationError,
  InstallationTemplateValidationError,
  ExportValidationError,
  describeExecution,
  type ExecutionKind,
  type DeployItemValidationReason,
  type InstallationTemplateValidationReason,
} from './errors.ts';
export { createSourceSnippet, formatTemplateInput, SENSITIVE_INPUT_KEYS } from './diagnostics.ts';
export { GoTemplateRunner, templateSource, getField } from './runner.ts';
export {
  stateKey,
  stateSecretNameForKey,
  templateStateSecretName,
  decodeTemplateState,
  encodeTemplateState,
  extractState,
  type TemplateStates,
  type TemplateStateKind,
} from './state.ts';
export { baseValues, type ExecutionContext } from './values.ts';
export {
  renderDeployExecutions,
  validateDeployItems,
  findDependsOnCycle,
  toDeployItemTemplates,
  type RenderedDeployItems,
} from './deploy-items.ts';
export { renderExportExecutions, mergeMaps, missingExports, type ExportInputs, type RenderedExports } from './exports.ts';
export { renderSubinstallations, validateInstallationTemplates, type RenderedSubinstallations } from './subinstallations.ts';
export { runImportExecutions, applyImportExecutions, type ImportExecutionResult } from './import-executions.ts';
export { renderBlueprint, type BlueprintRenderResult } from './render.ts';
