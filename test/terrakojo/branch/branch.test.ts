// The Branch controller against the embedded API server and the GitHub test server over real HTTP (upstream's
// branch_controller_test scenarios). Branches are made by hand here (the Repository controller is off), and the
// tests play the Workflow controller by writing Workflow phases.
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { secretsResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { KubeClient } from '../../../src/client/client.ts';
import { ForbiddenError, NotFoundError } from '../../../src/client/errors.ts';
import { branchesResource, workflowsResource } from '../../../src/terrakojo/api/resources.ts';
import type { Branch, Repository, Workflow } from '../../../src/terrakojo/api/types.ts';
import { workflowName } from '../../../src/terrakojo/branch/workflow-name.ts';
import { branchName } from '../../../src/terrakojo/repository/branch-name.ts';
import { createRepository, createTemplate, eventually, listWorkflows, OWNER, REPO, startSyncHarness, TOKEN, tokenSecret, type SyncHarness } from '../repository/harness.ts';

let h: SyncHarness;
let repo: Repository;
let failTemplateLists = false;

/** The controllers' client, with WorkflowTemplate lists refused while failTemplateLists is set. */
function refuseTemplateLists(client: KubeClient): KubeClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'list') {
        return (resource: { resource?: string }, options?: unknown) =>
          failTemplateLists && resource.resource === 'workflowtemplates'
            ? Promise.reject(new ForbiddenError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 403, reason: 'Forbidden', message: 'workflowtemplates is forbidden' }))
            : target.list(resource as never, options as never);
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function makeBranch(ref: string, sha: string, options: { prNumber?: number; owned?: boolean } = {}): Promise<Branch> {
  return h.client.create<Branch>(branchesResource, {
    apiVersion: 'terrakojo.io/v1alpha1',
    kind: 'Branch',
    metadata: {
      name: branchName(REPO, ref, sha),
      namespace: h.namespace,
      ...(options.owned === false ? {} : { ownerReferences: [{ apiVersion: 'terrakojo.io/v1alpha1', kind: 'Repository', name: repo.metadata.name ?? '', uid: repo.metadata.uid ?? '', controller: true }] }),
    },
    spec: { owner: OWNER, repository: REPO, name: ref, sha, ...(options.prNumber ? { prNumber: options.prNumber } : {}) },
  });
}

async function getBranch(name: string): Promise<Branch | undefined> {
  try {
    return await h.client.get<Branch>(branchesResource, name, { namespace: h.namespace });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

async function workflowsOf(branch: Branch): Promise<Workflow[]> {
  return (await listWorkflows(h)).filter((w) => w.metadata.labels?.['terrakojo.io/owner-uid'] === branch.metadata.uid);
}

/** Waits until the Branch's SHA has its Workflows (the last-sha annotation), and returns the Branch. */
function generated(name: string): Promise<Branch> {
  return eventually(async () => {
    const b = await getBranch(name);
    return b && b.metadata.annotations?.['terrakojo.io/last-sha'] === b.spec.sha ? b : undefined;
  }, 10_000, `Branch ${name} generated`);
}

async function events(): Promise<(KubeObject & { reason?: string; type?: string; message?: string })[]> {
  return (await h.client.list<KubeObject & { reason?: string; type?: string; message?: string }>({ apiVersion: 'v1', kind: 'Event' }, { namespace: h.namespace })).items;
}

async function setPhase(workflow: Workflow, phase: string): Promise<void> {
  await h.client.patchStatus(workflowsResource, workflow.metadata.name ?? '', { status: { phase } }, { type: 'merge', namespace: h.namespace });
}

describe('Branch controller', () => {
  before(async () => {
    h = await startSyncHarness({ repositoryController: false, wrapClient: refuseTemplateLists });
    h.gh.createRepository(OWNER, REPO, { defaultBranch: 'main' });
    await h.client.create(secretsResource, tokenSecret(h.namespace, 'github', { token: TOKEN }));
    repo = await createRepository(h, 'infra', 'github', { 'terrakojo.io/owner': OWNER, 'terrakojo.io/repo-name': REPO });
    await createTemplate(h, 'tf', ['infrastructure/**/*.tf']);
    await createTemplate(h, 'md', ['**/*.md']);
    await createTemplate(h, 'whole', ['whole/**'], 'repository');
    await createTemplate(h, 'each', ['each/**'], 'file');
  });
  after(() => h.close());

  it('adds its finalizer, then creates the Workflows for the changed files and writes its status', async () => {
    const sha = h.gh.commit(OWNER, REPO, { branch: 'feature/a', files: ['infrastructure/app/main.tf', 'docs/a.md', 'README.md'] });
    const created = await makeBranch('feature/a', sha);
    const branch = await generated(created.metadata.name ?? '');
    assert.deepEqual(branch.metadata.finalizers, ['terrakojo.io/cleanup-workflows']);
    const names = [workflowName(branch.metadata.name ?? '', 'md', 'folder', 'docs'), workflowName(branch.metadata.name ?? '', 'tf', 'folder', 'infrastructure/app')];
    // Bosun's fix of upstream §9.1: the status is really written.
    assert.deepEqual(branch.status?.workflows, names);
    assert.deepEqual(branch.status?.changedFiles, ['infrastructure/app/main.tf', 'docs/a.md', 'README.md']);
    const ready = branch.status?.conditions?.find((c) => c.type === 'WorkflowReady');
    assert.equal(ready?.status, 'True');
    assert.equal(ready?.reason, 'WorkflowCreated');
    assert.equal(ready?.observedGeneration, branch.metadata.generation);
    const workflows = await workflowsOf(branch);
    assert.deepEqual(workflows.map((w) => w.metadata.name).sort(), [...names].sort());
    const tf = workflows.find((w) => w.spec.template === 'tf');
    assert.deepEqual(tf?.spec, { owner: OWNER, repository: REPO, branch: branch.metadata.name, sha, template: 'tf', path: 'infrastructure/app', parameters: { isDefaultBranch: 'false', executionUnit: 'folder' } });
    assert.deepEqual(tf?.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.uid, r.controller]), [['Branch', branch.metadata.name, branch.metadata.uid, true]]);
    const event = await eventually(async () => (await events()).find((e) => e.reason === 'WorkflowsCreated' && e.message?.startsWith(`Branch tk/${branch.metadata.name} `)));
    assert.equal(event.type, 'Normal');
    assert.equal(event.message, `Branch tk/${branch.metadata.name} (acme/infra feature/a): 2 Workflow(s) for ${sha.slice(0, 12)}`);
  });

  it('runs nothing twice: a Branch whose SHA has its Workflows asks GitHub nothing more', async () => {
    const sha = h.gh.commit(OWNER, REPO, { branch: 'feature/b', files: ['infrastructure/b/main.tf'] });
    const branch = await generated((await makeBranch('feature/b', sha)).metadata.name ?? '');
    h.gh.resetCalls();
    const mark = h.server.mark();
    await h.client.patch(branchesResource, branch.metadata.name ?? '', { metadata: { annotations: { poke: '1' } } }, { type: 'merge', namespace: h.namespace });
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(h.gh.calls, []);
    assert.deepEqual(h.server.since(mark).filter((r) => r.method === 'POST' && r.url.includes('/workflows')), []);
  });

  it('executionUnit repository gives one Workflow at "."; file gives one per file', async () => {
    const sha = h.gh.commit(OWNER, REPO, { branch: 'feature/units', files: ['whole/a/x.txt', 'whole/b/y.txt', 'each/one.txt', 'each/sub/two.txt'] });
    const branch = await generated((await makeBranch('feature/units', sha)).metadata.name ?? '');
    const targets = (await workflowsOf(branch)).map((w) => `${w.spec.template}:${w.spec.path}:${w.spec.parameters?.['executionUnit']}`).sort();
    assert.deepEqual(targets, ['each:each/one.txt:file', 'each:each/sub/two.txt:file', 'whole:.:repository']);
  });

  it('a PR Branch takes the PR\'s files (the whole diff), not its head commit\'s', async () => {
    h.gh.commit(OWNER, REPO, { branch: 'feature/pr', files: ['infrastructure/one/main.tf'] });
    const head = h.gh.commit(OWNER, REPO, { branch: 'feature/pr', files: ['infrastructure/two/main.tf'] });
    const pr = h.gh.openPullRequest(OWNER, REPO, { head: 'feature/pr', base: 'main' });
    h.gh.resetCalls();
    const branch = await generated((await makeBranch('feature/pr', head, { prNumber: pr })).metadata.name ?? '');
    assert.ok(h.gh.calls.some((c) => c.path.endsWith(`/pulls/${pr}/files`) || c.path.includes(`/pulls/${pr}/files?`)));
    assert.deepEqual((await workflowsOf(branch)).map((w) => w.spec.path).sort(), ['infrastructure/one', 'infrastructure/two']);
  });

  it('no matching template: a ref\'s Branch stays, marked, with no Workflows; a default-branch Branch goes', async () => {
    const sha = h.gh.commit(OWNER, REPO, { branch: 'feature/none', files: ['src/app.go', 'main.tf'] });
    const branch = await generated((await makeBranch('feature/none', sha)).metadata.name ?? '');
    assert.deepEqual(await workflowsOf(branch), []);
    const ready = branch.status?.conditions?.find((c) => c.type === 'WorkflowReady');
    assert.equal(ready?.reason, 'NoMatchingTemplates');
    assert.deepEqual(branch.status?.workflows, []);

    const mainSha = h.gh.commit(OWNER, REPO, { branch: 'main', files: ['src/other.go'] });
    const onMain = await makeBranch('main', mainSha);
    await eventually(async () => (await getBranch(onMain.metadata.name ?? '')) === undefined, 10_000, 'default-branch Branch deleted');
  });

  it('a default-branch Branch goes once all its Workflows are terminal; a ref\'s Branch stays', async () => {
    const sha = h.gh.commit(OWNER, REPO, { branch: 'main', files: ['infrastructure/m1/main.tf', 'infrastructure/m2/main.tf'] });
    const onMain = await generated((await makeBranch('main', sha)).metadata.name ?? '');
    const workflows = await workflowsOf(onMain);
    assert.equal(workflows.length, 2);
    assert.deepEqual(workflows.map((w) => w.spec.parameters?.['isDefaultBranch']), ['true', 'true']);
    await setPhase(workflows[0]!, 'Succeeded');
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(await getBranch(onMain.metadata.name ?? ''), 'one Workflow still runs');
    await setPhase(workflows[1]!, 'Failed');
    await eventually(async () => (await getBranch(onMain.metadata.name ?? '')) === undefined, 10_000, 'finished default-branch Branch deleted');
    assert.deepEqual(await workflowsOf(onMain), [], 'its Workflows went first');

    const ref = await generated((await makeBranch('feature/keep', h.gh.commit(OWNER, REPO, { branch: 'feature/keep', files: ['infrastructure/k/main.tf'] }))).metadata.name ?? '');
    for (const w of await workflowsOf(ref)) await setPhase(w, 'Succeeded');
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(await getBranch(ref.metadata.name ?? ''), 'a ref\'s Branch is kept');
  });

  it('deletion waits for its Workflows to go (woken by their deletion), then lets go', async () => {
    const sha = h.gh.commit(OWNER, REPO, { branch: 'feature/del', files: ['infrastructure/d/main.tf'] });
    const branch = await generated((await makeBranch('feature/del', sha)).metadata.name ?? '');
    const [workflow] = await workflowsOf(branch);
    assert.ok(workflow);
    await h.client.patch(workflowsResource, workflow.metadata.name ?? '', { metadata: { finalizers: ['test/hold'] } }, { type: 'merge', namespace: h.namespace });
    await h.client.delete(branchesResource, branch.metadata.name ?? '', { namespace: h.namespace });
    await new Promise((r) => setTimeout(r, 500));
    const waiting = await getBranch(branch.metadata.name ?? '');
    assert.ok(waiting?.metadata.deletionTimestamp);
    assert.deepEqual(waiting.metadata.finalizers, ['terrakojo.io/cleanup-workflows']);
    await h.client.patch(workflowsResource, workflow.metadata.name ?? '', { metadata: { finalizers: null } }, { type: 'merge', namespace: h.namespace });
    await eventually(async () => (await getBranch(branch.metadata.name ?? '')) === undefined, 5000, 'Branch gone after its last Workflow');
  });

  it('a SHA changed in place: the old Workflows go first, then the new SHA\'s are made', async () => {
    const first = h.gh.commit(OWNER, REPO, { branch: 'feature/move', files: ['infrastructure/old/main.tf'] });
    const branch = await generated((await makeBranch('feature/move', first)).metadata.name ?? '');
    const old = await workflowsOf(branch);
    assert.equal(old.length, 1);
    const second = h.gh.commit(OWNER, REPO, { branch: 'feature/move', files: ['infrastructure/new/main.tf'] });
    await h.client.patch(branchesResource, branch.metadata.name ?? '', { spec: { sha: second } }, { type: 'merge', namespace: h.namespace });
    const moved = await generated(branch.metadata.name ?? '');
    assert.equal(moved.spec.sha, second);
    const now = await workflowsOf(moved);
    assert.deepEqual(now.map((w) => [w.spec.sha, w.spec.path]), [[second, 'infrastructure/new']]);
    assert.deepEqual(moved.status?.workflows, now.map((w) => w.metadata.name));
  });

  it('found through the labels when it has no owner reference', async () => {
    const sha = h.gh.commit(OWNER, REPO, { branch: 'feature/orphan', files: ['infrastructure/o/main.tf'] });
    const branch = await generated((await makeBranch('feature/orphan', sha, { owned: false })).metadata.name ?? '');
    assert.equal((await workflowsOf(branch)).length, 1);
  });

  it('a Branch whose Repository is gone is deleted', async () => {
    const sha = h.gh.commit(OWNER, REPO, { branch: 'feature/lost', files: ['infrastructure/l/main.tf'] });
    const lost = await h.client.create<Branch>(branchesResource, {
      apiVersion: 'terrakojo.io/v1alpha1',
      kind: 'Branch',
      metadata: { name: branchName('elsewhere', 'feature/lost', sha), namespace: h.namespace, ownerReferences: [{ apiVersion: 'terrakojo.io/v1alpha1', kind: 'Repository', name: 'gone', uid: 'uid-gone', controller: true }] },
      spec: { owner: OWNER, repository: 'elsewhere', name: 'feature/lost', sha },
    });
    await eventually(async () => (await getBranch(lost.metadata.name ?? '')) === undefined, 10_000, 'Branch without a Repository deleted');
  });

  it('a failed WorkflowTemplate list: WorkflowReady False with TemplateListFailed and a Warning Event, then recovery', async () => {
    failTemplateLists = true;
    try {
      const sha = h.gh.commit(OWNER, REPO, { branch: 'feature/list', files: ['infrastructure/t/main.tf'] });
      const created = await makeBranch('feature/list', sha);
      const failed = await eventually(async () => (await getBranch(created.metadata.name ?? ''))?.status?.conditions?.find((c) => c.type === 'WorkflowReady' && c.status === 'False'));
      assert.equal(failed.reason, 'TemplateListFailed');
      assert.match(failed.message, /^Branch tk\/infra-[0-9a-f]{8}-[0-9a-f]{8} \(acme\/infra feature\/list\): cannot list the WorkflowTemplates of namespace tk: workflowtemplates is forbidden$/);
      // The recorder sends Events off the reconcile's path: the Warning may land just after the condition.
      await eventually(async () => (await events()).find((e) => e.type === 'Warning' && e.reason === 'TemplateListFailed'), 5000, 'the TemplateListFailed Warning');
      failTemplateLists = false;
      const branch = await generated(created.metadata.name ?? '');
      assert.equal(branch.status?.conditions?.find((c) => c.type === 'WorkflowReady')?.reason, 'WorkflowCreated');
    } finally {
      failTemplateLists = false;
    }
  });
});
