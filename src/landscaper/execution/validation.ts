// Checks of an execution's deploy item templates before any deploy item is written. The installation
// validates while rendering too, and the admission webhook on write; this catches Executions written
// while neither ran. The checks are the shared ones of ../validation; the wording is the controller's.
import { ERR_CYCLIC_DEPENDENCIES } from '../api/constants.ts';
import type { DeployItemTemplate } from '../api/execution.ts';
import { deployItemListProblems } from '../validation/deploy-item-list.ts';
import { ConfigurationError } from '../ls-error.ts';

const OPERATION = 'ValidateDeployItems';

/** "dependsOn cycle: a → b → a". */
export function formatCycle(cycle: readonly string[]): string {
  return `dependsOn cycle: ${cycle.join(' → ')}`;
}

function fail(reason: string, message: string): never {
  throw new ConfigurationError(OPERATION, reason, message);
}

/** Throws a ConfigurationError for duplicate names, missing types, unknown or cyclic dependsOn. */
export function validateTemplates(templates: readonly DeployItemTemplate[]): void {
  const problem = deployItemListProblems(templates)[0];
  switch (problem?.kind) {
    case undefined:
      return;
    case 'missingName':
      return fail('InvalidDeployItem', 'a deploy item template has no name');
    case 'duplicateName':
      return fail('DuplicateDeployItem', `deploy item name "${problem.name}" is used more than once`);
    case 'missingType':
      return fail('InvalidDeployItem', `deploy item "${problem.name}" has no type`);
    case 'unknownDependency':
      return fail('DependentDeployItemNotFound', `deploy item "${problem.name}" depends on "${problem.dependency}", which is not a deploy item of this execution`);
    case 'selfDependency':
    case 'cycle': {
      const cycle = problem.kind === 'cycle' ? problem.cycle : [problem.name, problem.name];
      throw new ConfigurationError(OPERATION, 'CyclicDependencies', formatCycle(cycle), [ERR_CYCLIC_DEPENDENCIES]);
    }
  }
}
