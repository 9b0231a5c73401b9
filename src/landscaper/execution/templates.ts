// The execution's deploy item templates as its phases read them.
import type { DeployItemTemplate, Execution } from '../api/execution.ts';
import { DeployItemsCompressedError, deployItemTemplates } from '../api/execution-spec.ts';
import { ConfigurationError } from '../ls-error.ts';

/** The templates of either spec form; an undecodable compressed list ends the job (no retry can fix it). */
export function templatesOf(exec: Execution): readonly DeployItemTemplate[] {
  try {
    return deployItemTemplates(exec.spec);
  } catch (err) {
    if (err instanceof DeployItemsCompressedError) throw new ConfigurationError('ReadDeployItems', 'InvalidDeployItemsCompressed', err.message, undefined, { cause: err });
    throw err;
  }
}
