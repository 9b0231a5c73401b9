// The reserved TERRAKOJO_* variables every container and init container of a Workflow's Job gets: what the
// job script runs on. A template's own entry of the same name is dropped and the reserved ones go last (the
// other entries keep their order), so a template can neither override nor shadow them. Plain values only;
// envFrom is left alone.
import { PARAM_EXECUTION_UNIT, PARAM_IS_DEFAULT_BRANCH } from '../api/constants.ts';
import type { Branch, Workflow } from '../api/types.ts';
import type { EnvVar, PodSpec } from '../../apimachinery/api/index.ts';
import { allContainers } from './pod-containers.ts';
import { workspaceOf } from './workspace.ts';

/** The 13 reserved variables, in the order they are appended. */
export function reservedRuntimeEnv(workflow: Workflow, branch: Branch): EnvVar[] {
  const parameters = workflow.spec.parameters ?? {};
  const prNumber = branch.spec.prNumber;
  const env: Array<[string, string]> = [
    ['TERRAKOJO_OWNER', workflow.spec.owner],
    ['TERRAKOJO_REPOSITORY', workflow.spec.repository],
    ['TERRAKOJO_WORKFLOW_NAME', workflow.metadata.name ?? ''],
    ['TERRAKOJO_WORKFLOW_NAMESPACE', workflow.metadata.namespace ?? ''],
    ['TERRAKOJO_WORKFLOW_TEMPLATE', workflow.spec.template],
    ['TERRAKOJO_WORKFLOW_PATH', workflow.spec.path ?? ''],
    ['TERRAKOJO_SHA', workflow.spec.sha],
    ['TERRAKOJO_BRANCH_RESOURCE', workflow.spec.branch],
    ['TERRAKOJO_REF_NAME', branch.spec.name],
    ['TERRAKOJO_PR_NUMBER', prNumber ? String(prNumber) : ''],
    // Passed through as they are ("true"/"false", "folder"/"repository"/"file"), empty when absent.
    ['TERRAKOJO_EXECUTION_UNIT', parameters[PARAM_EXECUTION_UNIT] ?? ''],
    ['TERRAKOJO_IS_DEFAULT_BRANCH', parameters[PARAM_IS_DEFAULT_BRANCH] ?? ''],
    ['TERRAKOJO_WORKSPACE_DIR', workspaceOf(workflow)?.mountPath ?? ''],
  ];
  return env.map(([name, value]) => ({ name, value }));
}

/** existing without the reserved names, then the reserved variables. */
export function mergeEnvWithReserved(existing: readonly EnvVar[] | undefined, reserved: readonly EnvVar[]): EnvVar[] {
  const names = new Set(reserved.map((e) => e.name));
  return [...(existing ?? []).filter((e) => !names.has(e.name)), ...reserved.map((e) => ({ ...e }))];
}

export function injectReservedRuntimeEnv(pod: PodSpec, workflow: Workflow, branch: Branch): void {
  const reserved = reservedRuntimeEnv(workflow, branch);
  for (const container of allContainers(pod)) container.env = mergeEnvWithReserved(container.env, reserved);
}
