// Execution validation (upstream's ValidateExecution): the deploy item list, read from either wire form.
import { fieldError, type FieldError } from '../../apimachinery/field-error.ts';
import { path, type FieldPath } from '../../apimachinery/field-path.ts';
import type { DeployItemTemplate, Execution } from '../api/execution.ts';
import { decodeDeployItemsCompressed } from '../api/execution-spec.ts';
import { deployItemListProblems, type DeployItemListProblem } from './deploy-item-list.ts';
import { validateLabels } from './metadata.ts';
import { validateObjectReference } from './references.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

function toFieldError(problem: DeployItemListProblem, list: FieldPath): FieldError {
  switch (problem.kind) {
    case 'missingName':
      return fieldError.required(list.index(problem.index).child('name'), 'name must not be empty');
    case 'duplicateName':
      return fieldError.duplicate(list.index(problem.index).child('name'), problem.name);
    case 'missingType':
      return fieldError.required(list.index(problem.index).child('type'), 'type must not be empty');
    case 'unknownDependency':
      return fieldError.notFound(list.index(problem.index).child('dependsOn').index(problem.dependsOnIndex), problem.dependency);
    case 'selfDependency':
      return fieldError.invalid(list.index(problem.index).child('dependsOn').index(problem.dependsOnIndex), problem.name, 'a deploy item must not depend on itself');
    case 'cycle':
      return fieldError.invalid(list, problem.cycle.join(' -> '), 'cycle found in dependencies');
  }
}

/** Errors of a deploy item template list at `list` (e.g. spec.deployItems). */
export function validateDeployItemTemplates(templates: readonly DeployItemTemplate[], list: FieldPath): FieldError[] {
  const errors = deployItemListProblems(templates).map((p) => toFieldError(p, list));
  templates.forEach((t, i) => {
    if (t.target !== undefined && t.target !== null) errors.push(...validateObjectReference(t.target, list.index(i).child('target')));
    if (t.labels !== undefined) errors.push(...validateLabels(t.labels, list.index(i).child('labels')));
  });
  return errors;
}

export function validateExecution(execution: Execution): FieldError[] {
  const spec = path('spec');
  const compressed = execution.spec?.deployItemsCompressed;
  let templates: readonly DeployItemTemplate[];
  if (compressed !== undefined && compressed !== '') {
    try {
      templates = decodeDeployItemsCompressed(compressed);
    } catch (err) {
      return [fieldError.invalidWithoutValue(spec.child('deployItemsCompressed'), messageOf(err))];
    }
  } else {
    templates = Array.isArray(execution.spec?.deployItems) ? execution.spec.deployItems : [];
  }
  return validateDeployItemTemplates(templates, spec.child('deployItems'));
}
