// The Job a Workflow runs: a deep copy of its template's spec.job, named as the Workflow, in its namespace,
// controlled by it (so it goes with the Workflow), hardened where the template leaves things unset, with the
// reserved TERRAKOJO_* env and the optional workspace. Metadata carries nothing else, as upstream's: no labels
// or annotations are copied or added. Container names pass through: the API server judges them.
import type { OwnerReference } from '../../apimachinery/object.ts';
import { TERRAKOJO_API_VERSION, KIND_WORKFLOW } from '../api/constants.ts';
import type { Branch, Workflow, WorkflowTemplate } from '../api/types.ts';
import type { SecurityContext, Job, JobSpec, PodSpec, PodTemplateSpec } from '../../apimachinery/api/index.ts';
import { allContainers } from './pod-containers.ts';
import { injectReservedRuntimeEnv } from './runtime-env.ts';
import { mountWorkspace } from './workspace.ts';

export const DEFAULT_RUN_AS_USER = 1000;

export function buildJob(workflow: Workflow, template: WorkflowTemplate, branch: Branch): Job {
  // The template's spec.job is the user's: typed for the fields set here, the rest left for the API server to judge.
  const spec = structuredClone(template.spec.job) as Partial<JobSpec> as JobSpec;
  const pod = podSpecOf(spec);
  applyJobDefaults(spec);
  injectReservedRuntimeEnv(pod, workflow, branch);
  mountWorkspace(pod, workflow);
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: workflow.metadata.name ?? '',
      namespace: workflow.metadata.namespace ?? '',
      ownerReferences: [controllerReference(workflow)],
    },
    spec,
  };
}

/** controllerutil.SetControllerReference: the Workflow controls the Job; the garbage collector deletes it with the Workflow. */
export function controllerReference(workflow: Workflow): OwnerReference {
  return {
    apiVersion: TERRAKOJO_API_VERSION,
    kind: KIND_WORKFLOW,
    name: workflow.metadata.name ?? '',
    uid: workflow.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * backoffLimit 0 and restartPolicy Never (one try: a Terraform apply is not retried blindly), and a pod that
 * runs as non-root user 1000 with the RuntimeDefault seccomp profile, every container without privilege
 * escalation and with all capabilities dropped. Only where the template leaves the field unset (an empty
 * seccomp type and an empty drop list count as unset); what the template says explicitly stands.
 */
export function applyJobDefaults(spec: JobSpec): void {
  spec.backoffLimit ??= 0;
  const pod = podSpecOf(spec);
  if (!pod.restartPolicy) pod.restartPolicy = 'Never';
  const security = (pod.securityContext ??= {});
  security.runAsNonRoot ??= true;
  security.runAsUser ??= DEFAULT_RUN_AS_USER;
  if (!security.seccompProfile) security.seccompProfile = { type: 'RuntimeDefault' };
  else if (!security.seccompProfile.type) security.seccompProfile.type = 'RuntimeDefault';
  for (const container of allContainers(pod)) {
    container.securityContext = hardenedContainer(container.securityContext);
  }
}

// Fresh objects per container: no two containers share a securityContext or a drop list.
function hardenedContainer(given: SecurityContext | undefined): SecurityContext {
  const context: SecurityContext = { ...given };
  context.allowPrivilegeEscalation ??= false;
  const capabilities = { ...context.capabilities };
  if (!capabilities.drop || capabilities.drop.length === 0) capabilities.drop = ['ALL'];
  context.capabilities = capabilities;
  return context;
}

/** The pod spec, created where the user's spec.job leaves it out (the API server then says what is missing). */
function podSpecOf(spec: JobSpec): PodSpec {
  const template = ((spec as Partial<JobSpec>).template ??= {} as PodTemplateSpec);
  return ((template as Partial<PodTemplateSpec>).spec ??= {} as PodSpec);
}
