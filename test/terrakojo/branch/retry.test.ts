// Deterministic Workflow names (Bosun's fix of upstream §9.4): a Branch controller that starts after an earlier
// attempt made part of the Workflows (a crash between creates) makes only the rest; a name held by something that
// is not this Branch's Workflow is reported, never adopted.
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { secretsResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { branchesResource, workflowsResource } from '../../../src/terrakojo/api/resources.ts';
import type { Branch, Repository, Workflow } from '../../../src/terrakojo/api/types.ts';
import { registerBranchController } from '../../../src/terrakojo/branch/index.ts';
import { planWorkflows, workflowObject } from '../../../src/terrakojo/branch/workflow-plan.ts';
import { branchName } from '../../../src/terrakojo/repository/branch-name.ts';
import { createRepository, createTemplate, eventually, listWorkflows, OWNER, REPO, startSyncHarness, TOKEN, tokenSecret, type SyncHarness } from '../repository/harness.ts';

let h: SyncHarness;
let repo: Repository;

async function makeBranch(ref: string, sha: string): Promise<Branch> {
  return h.client.create<Branch>(branchesResource, {
    apiVersion: 'terrakojo.io/v1alpha1',
    kind: 'Branch',
    metadata: {
      name: branchName(REPO, ref, sha),
      namespace: h.namespace,
      finalizers: ['terrakojo.io/cleanup-workflows'],
      ownerReferences: [{ apiVersion: 'terrakojo.io/v1alpha1', kind: 'Repository', name: 'infra', uid: repo.metadata.uid ?? '', controller: true }],
    },
    spec: { owner: OWNER, repository: REPO, name: ref, sha },
  });
}

const getBranch = (name: string): Promise<Branch> => h.client.get<Branch>(branchesResource, name, { namespace: h.namespace });

describe('Workflow creation after a partial attempt', () => {
  before(async () => {
    h = await startSyncHarness({ repositoryController: false, branchController: false });
    h.gh.createRepository(OWNER, REPO, { defaultBranch: 'main' });
    await h.client.create(secretsResource, tokenSecret(h.namespace, 'github', { token: TOKEN }));
    repo = await createRepository(h);
    await createTemplate(h, 'plan', ['infra/**/*.tf']);
  });
  after(() => h.close());

  it('makes only the missing Workflows, and reports a name held by a stranger', async () => {
    const files = ['infra/a/main.tf', 'infra/b/main.tf', 'infra/c/main.tf'];
    const sha = h.gh.commit(OWNER, REPO, { branch: 'feature/partial', files });
    const branch = await makeBranch('feature/partial', sha);
    const planned = planWorkflows([{ metadata: { name: 'plan' }, spec: { displayName: 'plan', match: { paths: ['infra/**/*.tf'] }, job: {} } }], files);
    // The earlier attempt made the first Workflow before it died.
    const earlier = await h.client.create<Workflow>(workflowsResource, workflowObject(branch, false, planned[0]!));

    const stranger = await makeBranch('feature/stranger', h.gh.commit(OWNER, REPO, { branch: 'feature/stranger', files: ['infra/s/main.tf'] }));
    const held = workflowObject(stranger, false, { template: 'plan', target: { path: 'infra/s', executionUnit: 'folder' } });
    await h.client.create<Workflow>(workflowsResource, { ...held, metadata: { name: held.metadata.name ?? '', namespace: h.namespace } });

    registerBranchController(h.mgr, { github: h.github });

    const done = await eventually(async () => {
      const b = await getBranch(branch.metadata.name ?? '');
      return b.metadata.annotations?.['terrakojo.io/last-sha'] === sha ? b : undefined;
    }, 10_000, 'partial Branch generated');
    const own = (await listWorkflows(h)).filter((w) => w.metadata.labels?.['terrakojo.io/owner-uid'] === branch.metadata.uid);
    assert.deepEqual(own.map((w) => w.spec.path).sort(), ['infra/a', 'infra/b', 'infra/c']);
    assert.equal(own.find((w) => w.spec.path === 'infra/a')?.metadata.uid, earlier.metadata.uid, 'the earlier Workflow is kept, not made again');
    assert.equal(done.status?.workflows?.length, 3);
    await eventually(async () => {
      const events = await h.client.list<KubeObject & { reason?: string; message?: string }>({ apiVersion: 'v1', kind: 'Event' }, { namespace: h.namespace });
      return events.items.some((e) => e.reason === 'WorkflowsCreated' && e.message?.endsWith('(2 made now, the rest by an earlier attempt)'));
    }, 5000, 'a WorkflowsCreated Event saying an earlier attempt made one');

    const refused = await eventually(async () => (await getBranch(stranger.metadata.name ?? '')).status?.conditions?.find((c) => c.type === 'WorkflowReady' && c.status === 'False'));
    assert.equal(refused.reason, 'WorkflowCreateFailed');
    assert.match(refused.message, new RegExp(`Workflow ${held.metadata.name} exists but is not Branch tk/${stranger.metadata.name} .*'s Workflow`));
  });
});
