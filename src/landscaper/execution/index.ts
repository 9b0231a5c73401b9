// The Landscaper Execution controller.
export { registerExecutionController, reconcileExecution, deployItemProgressChanged, type ExecutionControllerOptions } from './controller.ts';
export { deployItemTemplates, decodeDeployItemsCompressed, encodeDeployItemsCompressed, compressExecutionSpec } from './deploy-items-spec.ts';
export { classifyForReconcile, classifyForDelete, type Classification, type ExecutionItem } from './classification.ts';
export { formatCycle, validateTemplates } from './validation.ts';
export { desiredDeployItem, deployItemGenerateName } from './materialize.ts';
export { ExecutionFatalError, ExecutionStepError, DeployItemsCompressedError } from './errors.ts';
export { executionsResource, deployItemsResource, dataObjectsResource, targetsResource, secretsResource } from './resources.ts';
export { lsTime, parseLsTime, updatedLsError } from '../status-helpers.ts';
export { INTERRUPT_OPERATION } from './interrupt.ts';
