// Objects the Workflow controller tests share: a Branch, a Workflow on it and a template, as the Branch
// controller and a user would write them.
import type { Branch, Workflow, WorkflowTemplate } from '../../../src/terrakojo/api/types.ts';

export const SHA = 'a'.repeat(40);

export function branch(name = 'infra-1a2b3c4d-aaaaaaaa', namespace = 'default', spec: Partial<Branch['spec']> = {}): Branch {
  return {
    apiVersion: 'terrakojo.io/v1alpha1',
    kind: 'Branch',
    metadata: { name, namespace },
    spec: { owner: 'acme', repository: 'infra', name: 'feature/x', sha: SHA, ...spec },
  };
}

export function workflow(name = 'plan-0123456789', namespace = 'default', spec: Partial<Workflow['spec']> = {}): Workflow {
  return {
    apiVersion: 'terrakojo.io/v1alpha1',
    kind: 'Workflow',
    metadata: { name, namespace, uid: 'wf-uid' },
    spec: {
      owner: 'acme',
      repository: 'infra',
      branch: 'infra-1a2b3c4d-aaaaaaaa',
      sha: SHA,
      template: 'plan',
      path: 'infra/app',
      parameters: { isDefaultBranch: 'false', executionUnit: 'folder' },
      ...spec,
    },
  };
}

export function template(name = 'plan', namespace = 'default', job: Record<string, unknown> = simpleJob()): WorkflowTemplate {
  return {
    apiVersion: 'terrakojo.io/v1alpha1',
    kind: 'WorkflowTemplate',
    metadata: { name, namespace },
    spec: { displayName: 'Plan', match: { paths: ['infra/**/*.tf'] }, job },
  };
}

export function simpleJob(containerName = 'plan'): Record<string, unknown> {
  return { template: { spec: { containers: [{ name: containerName, image: 'busybox', command: ['sh', '-c', 'echo planning'] }] } } };
}
