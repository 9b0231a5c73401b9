// bosun tree repository: the tree built from plain objects (owner references link the levels) and its text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { WorkflowPhase } from '../../src/terrakojo/api/constants.ts';
import type { Branch, Repository, Workflow } from '../../src/terrakojo/api/types.ts';
import { buildRepositoryTree, type RepositoryTreeObjects } from '../../src/terrakojo/tree/build.ts';
import { renderRepositoryTree } from '../../src/terrakojo/tree/render.ts';

const owned = (uid: string) => [{ apiVersion: 'v1', kind: 'X', name: 'x', uid, controller: true }];
const sha = (c: string) => c.repeat(40);

function objects(): RepositoryTreeObjects {
  const repository: Repository = {
    apiVersion: 'terrakojo.io/v1alpha1',
    kind: 'Repository',
    metadata: { name: 'infra', namespace: 'default', uid: 'r1' },
    spec: { owner: 'acme', name: 'infra', type: 'github', defaultBranch: 'main', githubSecretRef: { name: 'github-token' } },
    status: { lastDefaultBranchHeadSha: sha('a'), conditions: [{ type: 'Ready', status: 'True', reason: 'Synced', message: 'synced', lastTransitionTime: '2026-11-24T10:00:00Z' }] },
  };
  const branch = (name: string, uid: string, ref: string, c: string, prNumber?: number): Branch => ({
    apiVersion: 'terrakojo.io/v1alpha1',
    kind: 'Branch',
    metadata: { name, namespace: 'default', uid, ownerReferences: owned('r1') },
    spec: { owner: 'acme', repository: 'infra', name: ref, sha: sha(c), ...(prNumber ? { prNumber } : {}) },
  });
  const workflow = (name: string, uid: string, branchUid: string, path: string, phase: WorkflowPhase | undefined, checkRunID?: number): Workflow => ({
    apiVersion: 'terrakojo.io/v1alpha1',
    kind: 'Workflow',
    metadata: { name, namespace: 'default', uid, creationTimestamp: '2026-11-24T10:00:00Z', ownerReferences: owned(branchUid) },
    spec: { owner: 'acme', repository: 'infra', branch: 'b', sha: sha('a'), template: 'plan', path },
    status: {
      ...(phase ? { phase } : {}),
      ...(checkRunID ? { checkRunID, checkRunName: `Plan(${path})` } : {}),
      conditions: phase ? [{ type: 'JobStatus', status: 'True', reason: phase, message: `Job is in ${phase} state`, lastTransitionTime: '2026-11-24T10:00:04Z' }] : [],
    },
  });
  const job: KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'plan-1', namespace: 'default', uid: 'j1', ownerReferences: owned('w1') },
    status: { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] },
  } as KubeObject;
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'plan-1-x7k2q', namespace: 'default', uid: 'p1', ownerReferences: owned('j1') },
    spec: { nodeName: 'bosun' },
    status: { phase: 'Succeeded', containerStatuses: [{ restartCount: 0, state: { terminated: { reason: 'Completed' } } }] },
  } as KubeObject;
  return {
    repositories: [repository],
    branches: [branch('infra-main-aaaa', 'b1', 'main', 'a'), branch('infra-feat-bbbb', 'b2', 'feature/x', 'b', 3)],
    workflows: [workflow('plan-1', 'w1', 'b1', 'infra/app', 'Succeeded', 12), workflow('plan-2', 'w2', 'b1', 'infra/net', 'Running', 13), workflow('plan-3', 'w3', 'b2', 'infra/app', undefined)],
    jobs: [job],
    pods: [pod],
  };
}

test('a repository tree: branches, workflows with their check runs, jobs and pods, and a summary', () => {
  const model = buildRepositoryTree('default', 'infra', objects());
  const text = renderRepositoryTree(model, { color: false, now: new Date('2026-11-24T10:00:10Z') });
  assert.equal(
    text,
    [
      `Repository default/infra  acme/infra  main at aaaaaaaa  synced`,
      `├── Branch infra-feat-bbbb  feature/x @ bbbbbbbb  PR #3`,
      `│   └── [no phase]  Workflow plan-3  plan(infra/app)  no check run yet  for 10s`,
      `└── Branch infra-main-aaaa  main @ aaaaaaaa`,
      `    ├── [Succeeded]  Workflow plan-1  Plan(infra/app)  check run #12 completed/success  took 4s`,
      `    │   └── Job plan-1  1 succeeded  Complete`,
      `    │       └── [Succeeded]  Pod plan-1-x7k2q  on bosun  Completed`,
      `    └── [Running]  Workflow plan-2  Plan(infra/net)  check run #13 in_progress  for 10s`,
      `2 branches, 3 workflows: 1 Running, 1 Succeeded, 1 no phase`,
      '',
    ].join('\n'),
  );
});

test('a missing repository says so; a failed sync shows its reason and message', () => {
  assert.equal(renderRepositoryTree(buildRepositoryTree('default', 'nope', objects()), { color: false, now: new Date() }), 'not found: Repository default/nope\n');
  const broken = objects();
  broken.repositories[0]!.status = { conditions: [{ type: 'Ready', status: 'False', reason: 'InvalidCredentials', message: 'Secret default/github-token has neither token nor GitHub App fields', lastTransitionTime: '2026-11-24T10:00:00Z' }] };
  const text = renderRepositoryTree(buildRepositoryTree('default', 'infra', broken), { color: false, now: new Date() });
  assert.match(text, /^Repository default\/infra {2}acme\/infra {2}main {2}not synced\n│ {3}InvalidCredentials: Secret default\/github-token has neither token nor GitHub App fields\n/);
});
