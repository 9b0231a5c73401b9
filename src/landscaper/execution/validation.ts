// Checks of an execution's deploy item templates before any deploy item is written. The installation
// validates while rendering too; this catches Executions written by hand or by other tools.
import { ERR_CONFIGURATION_PROBLEM, ERR_CYCLIC_DEPENDENCIES } from '../api/constants.ts';
import type { DeployItemTemplate } from '../api/execution.ts';
import { findCycle, formatCycle } from '../dependency-cycles.ts';
import { ExecutionFatalError } from './errors.ts';

const OPERATION = 'ValidateDeployItems';

/** Throws ExecutionFatalError for duplicate names, missing types, unknown or cyclic dependsOn. */
export function validateTemplates(templates: readonly DeployItemTemplate[]): void {
  const names = new Set<string>();
  for (const t of templates) {
    if (!t.name) throw new ExecutionFatalError(OPERATION, 'InvalidDeployItem', 'a deploy item template has no name', [ERR_CONFIGURATION_PROBLEM]);
    if (names.has(t.name)) throw new ExecutionFatalError(OPERATION, 'DuplicateDeployItem', `deploy item name "${t.name}" is used more than once`, [ERR_CONFIGURATION_PROBLEM]);
    if (!t.type) throw new ExecutionFatalError(OPERATION, 'InvalidDeployItem', `deploy item "${t.name}" has no type`, [ERR_CONFIGURATION_PROBLEM]);
    names.add(t.name);
  }
  for (const t of templates) {
    for (const dep of t.dependsOn ?? []) {
      if (!names.has(dep)) {
        throw new ExecutionFatalError(OPERATION, 'DependentDeployItemNotFound', `deploy item "${t.name}" depends on "${dep}", which is not a deploy item of this execution`, [ERR_CONFIGURATION_PROBLEM]);
      }
    }
  }
  const cycle = findCycle(new Map(templates.map((t) => [t.name, t.dependsOn ?? []])));
  if (cycle) throw new ExecutionFatalError(OPERATION, 'CyclicDependencies', formatCycle(cycle), [ERR_CYCLIC_DEPENDENCIES]);
}
