// The execution's deploy item templates as its phases read them.
import { ERR_CONFIGURATION_PROBLEM } from '../api/constants.ts';
import type { DeployItemTemplate, Execution } from '../api/execution.ts';
import { DeployItemsCompressedError, deployItemTemplates } from '../api/execution-spec.ts';
import { ExecutionFatalError } from './errors.ts';

/** The templates of either spec form; an undecodable compressed list ends the job (no retry can fix it). */
export function templatesOf(exec: Execution): readonly DeployItemTemplate[] {
  try {
    return deployItemTemplates(exec.spec);
  } catch (err) {
    if (err instanceof DeployItemsCompressedError) throw new ExecutionFatalError('ReadDeployItems', 'InvalidDeployItemsCompressed', err.message, [ERR_CONFIGURATION_PROBLEM], { cause: err });
    throw err;
  }
}
