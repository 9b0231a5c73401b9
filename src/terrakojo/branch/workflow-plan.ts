// The Workflows a Branch's changed files call for: each WorkflowTemplate whose match.paths match some file fans
// out by its executionUnit (one file can feed several templates). Templates in name order, targets sorted, names
// deterministic: the same inputs always plan the same Workflows.
import { KIND_BRANCH, KIND_WORKFLOW, OWNER_UID_LABEL, PARAM_EXECUTION_UNIT, PARAM_IS_DEFAULT_BRANCH, TERRAKOJO_API_VERSION } from '../api/constants.ts';
import type { Branch, Workflow, WorkflowTemplate } from '../api/types.ts';
import { controllerReference } from '../repository/ownership.ts';
import { matchFiles } from './path-match.ts';
import { byteOrder, workflowTargets, type WorkflowTarget } from './targets.ts';
import { workflowName } from './workflow-name.ts';

export interface PlannedWorkflow {
  template: string;
  target: WorkflowTarget;
}

export function planWorkflows(templates: readonly WorkflowTemplate[], changedFiles: readonly string[]): PlannedWorkflow[] {
  const byName = [...templates].sort((a, b) => byteOrder(a.metadata.name ?? '', b.metadata.name ?? ''));
  const planned: PlannedWorkflow[] = [];
  for (const template of byName) {
    const files = matchFiles(template.spec.match?.paths ?? [], changedFiles);
    if (files.length === 0) continue;
    for (const target of workflowTargets(template.spec.match.executionUnit, files)) planned.push({ template: template.metadata.name ?? '', target });
  }
  return planned;
}

export function workflowObject(branch: Branch, isDefaultBranch: boolean, planned: PlannedWorkflow): Workflow {
  const branchName = branch.metadata.name ?? '';
  const { template, target } = planned;
  return {
    apiVersion: TERRAKOJO_API_VERSION,
    kind: KIND_WORKFLOW,
    metadata: {
      name: workflowName(branchName, template, target.executionUnit, target.path),
      ...(branch.metadata.namespace !== undefined ? { namespace: branch.metadata.namespace } : {}),
      labels: { [OWNER_UID_LABEL]: branch.metadata.uid ?? '' },
      ownerReferences: [controllerReference(branch, KIND_BRANCH)],
    },
    spec: {
      owner: branch.spec.owner,
      repository: branch.spec.repository,
      branch: branchName,
      sha: branch.spec.sha,
      template,
      path: target.path,
      parameters: { [PARAM_IS_DEFAULT_BRANCH]: String(isDefaultBranch), [PARAM_EXECUTION_UNIT]: target.executionUnit },
    },
  };
}
