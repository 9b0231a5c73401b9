// Validation of the Landscaper kinds, as upstream's apis/core/validation: pure functions returning field
// errors. The admission webhook (../webhook) answers with them; controllers reuse the deploy item list checks.
export { deployItemListProblems, type DeployItemListEntry, type DeployItemListProblem } from './deploy-item-list.ts';
export { validateDeployItem, validateDeployItemUpdate } from './deploy-item.ts';
export { validateDeployItemTemplates, validateExecution } from './execution.ts';
export { INSTALLATION_GENERATE_NAME_MAX_LENGTH, INSTALLATION_NAME_MAX_LENGTH, validateInstallation } from './installation.ts';
export { dns1123LabelProblem } from './metadata.ts';
export { validateTarget } from './target.ts';
