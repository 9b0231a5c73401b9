// The Job a Workflow gets from its template: copy, name, owner, secure defaults only where unset, the
// reserved env, the workspace. Upstream's createJobFromTemplate and injectReservedRuntimeEnv tests, and more.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyJobDefaults, buildJob } from '../../../src/terrakojo/workflow/job-builder.ts';
import type { Container, JobSpec, PodSpec, SeccompProfile } from '../../../src/apimachinery/api/index.ts';
import { mergeEnvWithReserved, reservedRuntimeEnv } from '../../../src/terrakojo/workflow/runtime-env.ts';
import { branch, SHA, simpleJob, template, workflow } from './fixtures.ts';

const pod = (spec: JobSpec): PodSpec => spec.template?.spec ?? {};
const containers = (spec: JobSpec): Container[] => pod(spec).containers ?? [];

test('the Job is a copy of spec.job named as the Workflow, in its namespace, controlled by it, with nothing else in metadata', () => {
  const tpl = template('plan', 'team', simpleJob('Plan Step'));
  const wf = workflow('plan-0123456789', 'team');
  const job = buildJob(wf, tpl, branch());
  assert.deepEqual(job.metadata, {
    name: 'plan-0123456789',
    namespace: 'team',
    ownerReferences: [{ apiVersion: 'terrakojo.io/v1alpha1', kind: 'Workflow', name: 'plan-0123456789', uid: 'wf-uid', controller: true, blockOwnerDeletion: true }],
  });
  assert.equal(job.apiVersion, 'batch/v1');
  assert.equal(job.kind, 'Job');
  // Container names pass through (the API server judges them) and the template is not touched.
  assert.equal(containers(job.spec)[0]?.name, 'Plan Step');
  assert.deepEqual(tpl.spec.job, simpleJob('Plan Step'));
});

test('defaults: backoffLimit 0, restartPolicy Never, non-root 1000, RuntimeDefault seccomp, no escalation, drop ALL', () => {
  const spec: JobSpec = { template: { spec: { containers: [{ name: 'a' }], initContainers: [{ name: 'init' }] } } };
  applyJobDefaults(spec);
  assert.equal(spec.backoffLimit, 0);
  assert.equal(pod(spec).restartPolicy, 'Never');
  assert.deepEqual(pod(spec).securityContext, { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } });
  for (const c of [...containers(spec), ...(pod(spec).initContainers ?? [])]) {
    assert.deepEqual(c.securityContext, { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } }, c.name);
  }
});

test('explicit settings stand: backoffLimit, restartPolicy, pod and container security', () => {
  const spec: JobSpec = {
    backoffLimit: 3,
    template: {
      spec: {
        restartPolicy: 'OnFailure',
        securityContext: { runAsNonRoot: false, runAsUser: 0, seccompProfile: { type: 'Unconfined' }, fsGroup: 2000 },
        containers: [{ name: 'a', securityContext: { allowPrivilegeEscalation: true, capabilities: { add: ['NET_ADMIN'], drop: ['MKNOD'] }, privileged: false } }],
      },
    },
  };
  applyJobDefaults(spec);
  assert.equal(spec.backoffLimit, 3);
  assert.equal(pod(spec).restartPolicy, 'OnFailure');
  assert.deepEqual(pod(spec).securityContext, { runAsNonRoot: false, runAsUser: 0, seccompProfile: { type: 'Unconfined' }, fsGroup: 2000 });
  assert.deepEqual(containers(spec)[0]?.securityContext, { allowPrivilegeEscalation: true, capabilities: { add: ['NET_ADMIN'], drop: ['MKNOD'] }, privileged: false });
});

test('an empty seccomp type and an empty drop list count as unset; capabilities.add is kept', () => {
  const spec: JobSpec = {
    template: {
      spec: {
        securityContext: { seccompProfile: {} as SeccompProfile },
        containers: [{ name: 'a', securityContext: { capabilities: { add: ['CHOWN'], drop: [] } } }, { name: 'b', securityContext: { runAsUser: 5 } }],
      },
    },
  };
  applyJobDefaults(spec);
  assert.deepEqual(pod(spec).securityContext?.seccompProfile, { type: 'RuntimeDefault' });
  assert.deepEqual(containers(spec)[0]?.securityContext, { allowPrivilegeEscalation: false, capabilities: { add: ['CHOWN'], drop: ['ALL'] } });
  assert.deepEqual(containers(spec)[1]?.securityContext, { runAsUser: 5, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
});

test('every container gets objects of its own', () => {
  const spec: JobSpec = { template: { spec: { containers: [{ name: 'a' }, { name: 'b' }], initContainers: [{ name: 'c' }] } } };
  applyJobDefaults(spec);
  const [a, b] = containers(spec);
  const c = pod(spec).initContainers?.[0];
  assert.notEqual(a?.securityContext, b?.securityContext);
  assert.notEqual(a?.securityContext?.capabilities, b?.securityContext?.capabilities);
  assert.notEqual(a?.securityContext?.capabilities?.drop, c?.securityContext?.capabilities?.drop);
  a?.securityContext?.capabilities?.drop?.push('X');
  assert.deepEqual(b?.securityContext?.capabilities?.drop, ['ALL']);
});

const reservedNames = [
  'TERRAKOJO_OWNER',
  'TERRAKOJO_REPOSITORY',
  'TERRAKOJO_WORKFLOW_NAME',
  'TERRAKOJO_WORKFLOW_NAMESPACE',
  'TERRAKOJO_WORKFLOW_TEMPLATE',
  'TERRAKOJO_WORKFLOW_PATH',
  'TERRAKOJO_SHA',
  'TERRAKOJO_BRANCH_RESOURCE',
  'TERRAKOJO_REF_NAME',
  'TERRAKOJO_PR_NUMBER',
  'TERRAKOJO_EXECUTION_UNIT',
  'TERRAKOJO_IS_DEFAULT_BRANCH',
  'TERRAKOJO_WORKSPACE_DIR',
];

test('the 13 reserved variables and their values', () => {
  const env = reservedRuntimeEnv(workflow('wf', 'team'), branch('br', 'team', { prNumber: 42 }));
  assert.deepEqual(env.map((e) => e.name), reservedNames);
  assert.deepEqual(Object.fromEntries(env.map((e) => [e.name, e.value])), {
    TERRAKOJO_OWNER: 'acme',
    TERRAKOJO_REPOSITORY: 'infra',
    TERRAKOJO_WORKFLOW_NAME: 'wf',
    TERRAKOJO_WORKFLOW_NAMESPACE: 'team',
    TERRAKOJO_WORKFLOW_TEMPLATE: 'plan',
    TERRAKOJO_WORKFLOW_PATH: 'infra/app',
    TERRAKOJO_SHA: SHA,
    TERRAKOJO_BRANCH_RESOURCE: 'infra-1a2b3c4d-aaaaaaaa',
    TERRAKOJO_REF_NAME: 'feature/x',
    TERRAKOJO_PR_NUMBER: '42',
    TERRAKOJO_EXECUTION_UNIT: 'folder',
    TERRAKOJO_IS_DEFAULT_BRANCH: 'false',
    TERRAKOJO_WORKSPACE_DIR: '',
  });
});

test('absent parameters and PR number give empty values; odd values pass through as they are', () => {
  const bare = Object.fromEntries(reservedRuntimeEnv(workflow('wf', 'ns', { parameters: {} }), branch()).map((e) => [e.name, e.value]));
  assert.equal(bare['TERRAKOJO_EXECUTION_UNIT'], '');
  assert.equal(bare['TERRAKOJO_IS_DEFAULT_BRANCH'], '');
  assert.equal(bare['TERRAKOJO_PR_NUMBER'], '');
  assert.equal(bare['TERRAKOJO_WORKSPACE_DIR'], '');
  const odd = Object.fromEntries(reservedRuntimeEnv(workflow('wf', 'ns', { parameters: { isDefaultBranch: 'True', executionUnit: 'Folder ' } }), branch()).map((e) => [e.name, e.value]));
  assert.equal(odd['TERRAKOJO_IS_DEFAULT_BRANCH'], 'True');
  assert.equal(odd['TERRAKOJO_EXECUTION_UNIT'], 'Folder ');
});

test('a template entry of a reserved name is removed, the reserved ones go last, the others keep their order', () => {
  const reserved = reservedRuntimeEnv(workflow(), branch());
  const merged = mergeEnvWithReserved(
    [
      { name: 'B', value: '1' },
      { name: 'TERRAKOJO_SHA', value: 'spoofed' },
      { name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
    ],
    reserved,
  );
  assert.deepEqual(merged.map((e) => e.name), ['B', 'A', ...reservedNames]);
  assert.equal(merged.find((e) => e.name === 'TERRAKOJO_SHA')?.value, SHA);
  assert.deepEqual(merged[1], { name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } });
});

test('the reserved env goes into containers and init containers; envFrom is untouched', () => {
  const tpl = template('plan', 'default', {
    template: {
      spec: {
        initContainers: [{ name: 'init', image: 'busybox', env: [{ name: 'TERRAKOJO_OWNER', value: 'x' }] }],
        containers: [{ name: 'main', image: 'busybox', env: [{ name: 'KEEP', value: 'y' }], envFrom: [{ configMapRef: { name: 'cm' } }] }],
      },
    },
  });
  const job = buildJob(workflow(), tpl, branch());
  const init = pod(job.spec).initContainers?.[0];
  const main = containers(job.spec)[0];
  assert.deepEqual(init?.env?.map((e) => e.name), reservedNames);
  assert.equal(init?.env?.[0]?.value, 'acme');
  assert.deepEqual(main?.env?.map((e) => e.name), ['KEEP', ...reservedNames]);
  assert.deepEqual(main?.['envFrom'], [{ configMapRef: { name: 'cm' } }]);
});

test('workspaceClaimName mounts the claim into every container at workspaceMountPath, else /workspace', () => {
  const tpl = template('plan', 'default', { template: { spec: { initContainers: [{ name: 'init' }], containers: [{ name: 'main', volumeMounts: [{ name: 'cache', mountPath: '/cache' }] }], volumes: [{ name: 'cache', emptyDir: {} }] } } });
  const withPath = buildJob(workflow('wf', 'default', { parameters: { workspaceClaimName: 'ws-1', workspaceMountPath: '/work' } }), tpl, branch());
  assert.deepEqual(pod(withPath.spec).volumes, [{ name: 'cache', emptyDir: {} }, { name: 'terrakojo-workspace', persistentVolumeClaim: { claimName: 'ws-1' } }]);
  assert.deepEqual(containers(withPath.spec)[0]?.volumeMounts, [{ name: 'cache', mountPath: '/cache' }, { name: 'terrakojo-workspace', mountPath: '/work' }]);
  assert.deepEqual(pod(withPath.spec).initContainers?.[0]?.volumeMounts, [{ name: 'terrakojo-workspace', mountPath: '/work' }]);
  assert.equal(containers(withPath.spec)[0]?.env?.find((e) => e.name === 'TERRAKOJO_WORKSPACE_DIR')?.value, '/work');

  const defaultPath = buildJob(workflow('wf', 'default', { parameters: { workspaceClaimName: 'ws-1' } }), tpl, branch());
  assert.deepEqual(pod(defaultPath.spec).initContainers?.[0]?.volumeMounts, [{ name: 'terrakojo-workspace', mountPath: '/workspace' }]);
  assert.equal(containers(defaultPath.spec)[0]?.env?.find((e) => e.name === 'TERRAKOJO_WORKSPACE_DIR')?.value, '/workspace');

  // A mount path alone names the variable but mounts nothing.
  const pathOnly = buildJob(workflow('wf', 'default', { parameters: { workspaceMountPath: '/w' } }), tpl, branch());
  assert.deepEqual(pod(pathOnly.spec).volumes, [{ name: 'cache', emptyDir: {} }]);
  assert.equal(containers(pathOnly.spec)[0]?.env?.find((e) => e.name === 'TERRAKOJO_WORKSPACE_DIR')?.value, '/w');
});
