// The shared deployer library: job protocol, phases, targets, errors, timeouts, interruption, exports.
export { registerDeployer, type DeployerHandle, type DeployerOptions } from './controller.ts';
export type { Deployer, DeployerContext, DeployerResult } from './deployer.ts';
export { InterruptedError, isInterrupted } from './errors.ts';
export { checkInterrupted, jobTakenAway } from './interruption.ts';
export { recordError } from './lserror.ts';
export { deployItemTypeIs, jobRelevantChange } from './predicates.ts';
export { NO_TARGET_FOUND_REASON, getTarget, resolveTargetContent, targetKubeconfig } from './target.ts';
export { PROGRESSING_TIMEOUT_REASON, checkProgressingTimeout, parseTimeoutMs } from './timeout.ts';
export { deleteExportSecret, writeExportSecret } from './exports.ts';
