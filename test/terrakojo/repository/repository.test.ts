// The Repository controller against the embedded API server and the GitHub test server, both over real HTTP
// (upstream's repository_controller_test and the sync scenarios). The Branch controller is off, so every Branch the
// sync makes stays to be counted.
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { secretsResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { branchesResource, repositoriesResource } from '../../../src/terrakojo/api/resources.ts';
import type { Branch } from '../../../src/terrakojo/api/types.ts';
import { branchName } from '../../../src/terrakojo/repository/branch-name.ts';
import { createRepository, cursorAt, eventually, getRepository, listBranches, OWNER, poke, REPO, startSyncHarness, TOKEN, tokenSecret, type SyncHarness } from './harness.ts';

let h: SyncHarness;

async function events(): Promise<(KubeObject & { reason?: string; type?: string; message?: string })[]> {
  return (await h.client.list<KubeObject & { reason?: string; type?: string; message?: string }>({ apiVersion: 'v1', kind: 'Event' }, { namespace: h.namespace })).items;
}

const refBranches = (branches: Branch[], ref: string): Branch[] => branches.filter((b) => b.spec.name === ref && !b.metadata.deletionTimestamp);

describe('Repository controller', () => {
  before(async () => {
    h = await startSyncHarness({ branchController: false });
    h.gh.createRepository(OWNER, REPO, { defaultBranch: 'main' });
    await h.client.create(secretsResource, tokenSecret(h.namespace, 'github', { token: TOKEN }));
    await createRepository(h);
  });
  after(() => h.close());

  it('adds the finalizer and the four labels', async () => {
    const repo = await eventually(async () => {
      const r = await getRepository(h);
      return r?.metadata.finalizers?.includes('terrakojo.io/cleanup-branches') && r.metadata.labels?.['terrakojo.io/repo-uid'] ? r : undefined;
    });
    assert.deepEqual(repo.metadata.labels, {
      'terrakojo.io/owner': OWNER,
      'terrakojo.io/repo-name': REPO,
      'terrakojo.io/repo-uid': repo.metadata.uid,
      'app.kubernetes.io/managed-by': 'terrakojo-controller',
    });
  });

  it('first sync: one Branch for the default head, the cursor at it, Ready and synced', async () => {
    const head = h.gh.branchHead(OWNER, REPO, 'main') ?? '';
    const repo = await cursorAt(h, head);
    const ready = await eventually(async () => (await getRepository(h))?.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True'));
    assert.equal(ready.reason, 'Synced');
    assert.match(ready.message, /Repository tk\/infra \(acme\/infra\): main at [0-9a-f]{12}/);
    assert.equal(ready.observedGeneration, repo.metadata.generation);
    assert.equal((await getRepository(h))?.status?.synced, true);
    const branches = await listBranches(h);
    assert.equal(branches.length, 1);
    const branch = branches[0]!;
    assert.equal(branch.metadata.name, branchName(REPO, 'main', head));
    assert.deepEqual(branch.spec, { owner: OWNER, repository: REPO, name: 'main', sha: head });
    assert.deepEqual(branch.metadata.labels, { 'terrakojo.io/repo-uid': repo.metadata.uid, 'terrakojo.io/repo-name': REPO });
    assert.deepEqual(branch.metadata.ownerReferences, [{ apiVersion: 'terrakojo.io/v1alpha1', kind: 'Repository', name: 'infra', uid: repo.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    const event = await eventually(async () => (await events()).find((e) => e.reason === 'BranchesSynced'));
    assert.equal(event.type, 'Normal');
    assert.equal(event.message, 'Repository tk/infra (acme/infra): made 1 Branch(es), deleted 0');
  });

  it('a synced Repository asks GitHub nothing more until poked (its own status writes do not wake it)', async () => {
    await eventually(async () => (await getRepository(h))?.status?.synced === true);
    h.gh.resetCalls();
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(h.gh.calls, []);
  });

  it('a poke after two pushes: one Branch per new commit, the cursor at the head', async () => {
    const first = h.gh.commit(OWNER, REPO, { branch: 'main', files: ['infra/a/main.tf'] });
    const second = h.gh.commit(OWNER, REPO, { branch: 'main', files: ['infra/b/main.tf'] });
    await poke(h);
    await cursorAt(h, second);
    const shas = refBranches(await listBranches(h), 'main').map((b) => b.spec.sha);
    assert.ok(shas.includes(first) && shas.includes(second));
    assert.equal(shas.length, 3);
  });

  it('300 commits are caught up in two passes (250, then 50) with no duplicates', async () => {
    const before = new Set(refBranches(await listBranches(h), 'main').map((b) => b.spec.sha));
    const pushed: string[] = [];
    for (let i = 0; i < 300; i++) pushed.push(h.gh.commit(OWNER, REPO, { branch: 'main', files: [`infra/bulk/${i}.tf`] }));
    h.gh.resetCalls();
    const mark = h.server.mark();
    await poke(h);
    await cursorAt(h, pushed.at(-1) ?? '', 60_000);
    const made = refBranches(await listBranches(h), 'main').map((b) => b.spec.sha).filter((sha) => !before.has(sha));
    assert.deepEqual(new Set(made), new Set(pushed));
    assert.equal(made.length, 300);
    const compares = h.gh.calls.filter((c) => c.method === 'GET' && c.path.includes('/compare/'));
    assert.equal(compares.length, 2, `compares: ${compares.map((c) => c.path).join(', ')}`);
    const creates = h.server.since(mark).filter((r) => r.method === 'POST' && r.url.includes('/branches'));
    assert.equal(creates.length, 300, 'one create per commit, none repeated');
    assert.ok(creates.every((r) => r.status === 201));
  });

  it('a force-push that removes the cursor falls back to the head (GitHub answers 422 for the gone SHA)', async () => {
    const cursor = (await getRepository(h))?.status?.lastDefaultBranchHeadSha ?? '';
    const rewritten = h.gh.commit(OWNER, REPO, { branch: 'rewrite', from: 'main', files: ['infra/c/main.tf'] });
    h.gh.setBranchHead(OWNER, REPO, 'main', rewritten);
    h.gh.deleteBranch(OWNER, REPO, 'rewrite');
    // GitHub garbage-collects unreachable commits: the old cursor is no longer known at all.
    h.gh.model.get(OWNER, REPO).commits.delete(cursor);
    h.gh.resetCalls();
    await poke(h);
    await cursorAt(h, rewritten);
    const lookup = h.gh.calls.find((c) => c.method === 'GET' && c.path.endsWith(`/commits/${cursor}`));
    assert.equal(lookup?.status, 422);
    assert.equal(refBranches(await listBranches(h), 'main').filter((b) => b.spec.sha === rewritten).length, 1);
  });

  it('non-default refs: a branch, then its PR, then a push to the PR (old Branch deleted, new one made), then pruned', async () => {
    const first = h.gh.commit(OWNER, REPO, { branch: 'feature/x', files: ['infra/x/main.tf'] });
    await poke(h);
    const plain = await eventually(async () => refBranches(await listBranches(h), 'feature/x').find((b) => b.spec.sha === first));
    assert.equal(plain.spec.prNumber, undefined);
    assert.equal(plain.metadata.name, branchName(REPO, 'feature/x', first));

    const pr = h.gh.openPullRequest(OWNER, REPO, { head: 'feature/x', base: 'main' });
    await poke(h);
    const withPr = await eventually(async () => refBranches(await listBranches(h), 'feature/x').find((b) => b.spec.prNumber === pr));
    assert.equal(withPr.metadata.uid, plain.metadata.uid, 'same SHA: the same Branch, its prNumber updated');

    const second = h.gh.commit(OWNER, REPO, { branch: 'feature/x', files: ['infra/x/vars.tf'] });
    await poke(h);
    const synced = await eventually(async () => {
      const refs = refBranches(await listBranches(h), 'feature/x');
      return refs.length === 1 && refs[0]?.spec.sha === second ? refs[0] : undefined;
    });
    assert.equal(synced.spec.prNumber, pr);
    assert.equal(synced.metadata.name, branchName(REPO, 'feature/x', second));

    h.gh.deleteBranch(OWNER, REPO, 'feature/x');
    await poke(h);
    await eventually(async () => refBranches(await listBranches(h), 'feature/x').length === 0, 10_000, 'feature/x pruned');
    assert.ok(refBranches(await listBranches(h), 'main').length > 0, 'default-branch Branches are never pruned');
  });

  it('a closed PR whose branch stays clears prNumber', async () => {
    const sha = h.gh.commit(OWNER, REPO, { branch: 'feature/y', files: ['infra/y/main.tf'] });
    const pr = h.gh.openPullRequest(OWNER, REPO, { head: 'feature/y', base: 'main' });
    await poke(h);
    await eventually(async () => refBranches(await listBranches(h), 'feature/y').find((b) => b.spec.prNumber === pr));
    h.gh.closePullRequest(OWNER, REPO, pr, { merged: false });
    await poke(h);
    const cleared = await eventually(async () => refBranches(await listBranches(h), 'feature/y').find((b) => b.spec.sha === sha && b.spec.prNumber === undefined));
    assert.equal(cleared.spec.name, 'feature/y');
  });

  it('deletion deletes the owned Branches and waits for them (through the watch) before letting go', async () => {
    const branches = await listBranches(h);
    assert.ok(branches.length > 1);
    // A finalizer of someone else's holds one Branch back.
    const held = branches[0]!;
    await h.client.patch(branchesResource, held.metadata.name ?? '', { metadata: { finalizers: ['test/hold'] } }, { type: 'merge', namespace: h.namespace });
    await h.client.delete(repositoriesResource, 'infra', { namespace: h.namespace });
    await eventually(async () => (await listBranches(h)).length === 1, 15_000, 'every other Branch deleted');
    const waiting = await getRepository(h);
    assert.ok(waiting?.metadata.deletionTimestamp);
    assert.deepEqual(waiting.metadata.finalizers, ['terrakojo.io/cleanup-branches']);
    await h.client.patch(branchesResource, held.metadata.name ?? '', { metadata: { finalizers: null } }, { type: 'merge', namespace: h.namespace });
    await eventually(async () => (await getRepository(h)) === undefined, 5000, 'Repository gone once its last Branch went');
  });
});

describe('Repository controller: credentials', () => {
  before(async () => {
    h = await startSyncHarness({ branchController: false });
    h.gh.createRepository(OWNER, REPO, { defaultBranch: 'main' });
  });
  after(() => h.close());

  const ready = async (reason: string) =>
    eventually(async () => (await getRepository(h))?.status?.conditions?.find((c) => c.type === 'Ready' && c.reason === reason), 10_000, `Ready reason ${reason}`);

  const warnings = async () => (await events()).filter((e) => e.type === 'Warning');

  it('a Secret with neither token nor App fields: Ready False with a message naming both, a Warning Event, no retry loop; fixed by editing the Secret', async () => {
    await h.client.create(secretsResource, tokenSecret(h.namespace, 'github', { note: 'nothing useful' }));
    await createRepository(h);
    const condition = await ready('NoCredentials');
    assert.equal(condition.status, 'False');
    assert.match(condition.message, /^Repository tk\/infra \(acme\/infra\): Secret tk\/github gives no usable GitHub credentials: .*expected "token"/);
    assert.equal((await getRepository(h))?.status?.synced, false);
    const event = await eventually(async () => (await warnings()).find((e) => e.reason === 'NoCredentials'));
    assert.equal(event.message, condition.message);
    assert.equal(h.gh.calls.length, 0);
    // Terminal: nothing runs again until the Secret or the Repository changes.
    const mark = h.server.mark();
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(h.server.since(mark).filter((r) => r.url.includes('/repositories/')), []);

    await h.client.patch(secretsResource, 'github', { data: { token: Buffer.from(TOKEN).toString('base64') } }, { type: 'merge', namespace: h.namespace });
    const synced = await ready('Synced');
    assert.equal(synced.status, 'True');
    assert.equal((await getRepository(h))?.status?.synced, true);
  });

  it('a malformed App private key: InvalidPrivateKey, naming the key, never its contents', async () => {
    await h.client.create(secretsResource, tokenSecret(h.namespace, 'app', { 'github-app-id': '12', 'github-installation-id': '34', 'github-private-key': 'not-a-pem-SECRETMATERIAL' }));
    await h.client.patch(repositoriesResource, 'infra', { spec: { githubSecretRef: { name: 'app' } } }, { type: 'merge', namespace: h.namespace });
    const condition = await ready('InvalidPrivateKey');
    assert.equal(condition.observedGeneration, (await getRepository(h))?.metadata.generation, 'the condition speaks of the edited spec');
    assert.match(condition.message, /Secret tk\/app .*github-private-key/);
    assert.doesNotMatch(condition.message, /SECRETMATERIAL/);
    await eventually(async () => (await warnings()).find((e) => e.reason === 'InvalidPrivateKey'));
  });

  it('a missing Secret: SecretNotFound, until the Secret is created', async () => {
    await h.client.patch(repositoriesResource, 'infra', { spec: { githubSecretRef: { name: 'later' } } }, { type: 'merge', namespace: h.namespace });
    await ready('SecretNotFound');
    await h.client.create(secretsResource, tokenSecret(h.namespace, 'later', { token: TOKEN }));
    await ready('Synced');
  });
});

describe('Repository controller: resync', () => {
  before(async () => {
    h = await startSyncHarness({ branchController: false, resyncIntervalMs: 300 });
    h.gh.createRepository(OWNER, REPO, { defaultBranch: 'main' });
    await h.client.create(secretsResource, tokenSecret(h.namespace, 'github', { token: TOKEN }));
    await createRepository(h);
  });
  after(() => h.close());

  it('without a poke, the next resync finds a new commit', async () => {
    await cursorAt(h, h.gh.branchHead(OWNER, REPO, 'main') ?? '');
    const sha = h.gh.commit(OWNER, REPO, { branch: 'main', files: ['infra/late/main.tf'] });
    await cursorAt(h, sha, 5000);
    assert.ok((await listBranches(h)).some((b) => b.spec.sha === sha));
  });

  it('GitHub failing: Ready False with SyncFailed naming the Repository and the call; retried until it answers', async () => {
    h.gh.setFaults({ rate: 1, kinds: ['500'], seed: 3 });
    try {
      await poke(h);
      const failed = await eventually(async () => (await getRepository(h))?.status?.conditions?.find((c) => c.type === 'Ready' && c.reason === 'SyncFailed'), 10_000, 'SyncFailed');
      assert.equal(failed.status, 'False');
      assert.match(failed.message, /^Repository tk\/infra \(acme\/infra\): sync with GitHub failed: GitHub [a-zA-Z]+ for acme\/infra failed: 50[02] /);
      assert.equal((await getRepository(h))?.status?.synced, false);
    } finally {
      h.gh.setFaults(undefined);
    }
    const sha = h.gh.commit(OWNER, REPO, { branch: 'main', files: ['infra/after/main.tf'] });
    await cursorAt(h, sha, 15_000);
    // The cursor is written before the refs are synced; Ready follows at the end of the pass.
    await eventually(async () => (await getRepository(h))?.status?.conditions?.find((c) => c.type === 'Ready')?.reason === 'Synced', 5000, 'Synced again');
  });
});
