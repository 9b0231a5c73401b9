// The Landscaper Execution controller.
export { registerExecutionController, reconcileExecution, deployItemProgressChanged, type ExecutionController, type ExecutionControllerOptions } from './controller.ts';
export { classifyForReconcile, classifyForDelete, type Classification, type ExecutionItem } from './classification.ts';
export { formatCycle, validateTemplates } from './validation.ts';
export { desiredDeployItem, deployItemGenerateName } from './materialize.ts';
export { lsTime, parseLsTime, updatedLsError } from '../status-helpers.ts';
export { INTERRUPT_OPERATION } from './interrupt.ts';
