import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RequestError } from '@octokit/request-error';
import type { GitHubTestServer } from './index.ts';
import { serverWithRepository, type TestOctokit } from './test-client.ts';

let gh: GitHubTestServer;
let octokit: TestOctokit;

before(async () => ({ gh, octokit } = await serverWithRepository()));
after(() => gh.close());

async function status(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await call.then(
    () => assert.fail('expected an error'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof RequestError);
  return { status: error.status, message: (error.response?.data as { message: string }).message };
}

test('a commit lists its files with added and modified as the tree says', async () => {
  const first = gh.commit('acme', 'infra', { branch: 'main', files: ['infra/app/main.tf', 'README.md'] });
  assert.match(first, /^[0-9a-f]{40}$/);
  const { data } = await octokit.rest.repos.getCommit({ owner: 'acme', repo: 'infra', ref: first });
  assert.equal(data.sha, first);
  assert.deepEqual(
    data.files?.map((f) => [f.filename, f.status]),
    [
      ['infra/app/main.tf', 'added'],
      ['README.md', 'modified'],
    ],
  );
  assert.equal(data.parents.length, 1);
  const byBranch = await octokit.rest.repos.getCommit({ owner: 'acme', repo: 'infra', ref: 'main' });
  assert.equal(byBranch.data.sha, first);
  const removed = gh.commit('acme', 'infra', { branch: 'main', files: [{ filename: 'README.md', status: 'removed' }] });
  const { data: removal } = await octokit.rest.repos.getCommit({ owner: 'acme', repo: 'infra', ref: removed });
  assert.equal(removal.files?.[0]?.status, 'removed');
});

test("a commit's files are paged at 300 with a Link header", async () => {
  const files = Array.from({ length: 650 }, (_, i) => `dirs/d${String(i).padStart(3, '0')}/main.tf`);
  const sha = gh.commit('acme', 'infra', { branch: 'big', files });
  const first = await octokit.rest.repos.getCommit({ owner: 'acme', repo: 'infra', ref: sha });
  assert.equal(first.data.files?.length, 300);
  assert.match(first.headers.link ?? '', /page=2>; rel="next"/);
  assert.match(first.headers.link ?? '', /page=3>; rel="last"/);
  const names: string[] = [];
  for (let page = 1; ; page++) {
    const { data, headers } = await octokit.rest.repos.getCommit({ owner: 'acme', repo: 'infra', ref: sha, page });
    names.push(...(data.files ?? []).map((f) => f.filename));
    if (!/rel="next"/.test(headers.link ?? '')) break;
  }
  assert.deepEqual(names, files);
});

test('an unknown well-formed SHA is 422, as GitHub answers; a malformed ref 404', async () => {
  const unknown = 'f'.repeat(40);
  assert.deepEqual(await status(octokit.rest.repos.getCommit({ owner: 'acme', repo: 'infra', ref: unknown })), {
    status: 422,
    message: `No commit found for SHA: ${unknown}`,
  });
  assert.equal((await status(octokit.rest.repos.getCommit({ owner: 'acme', repo: 'infra', ref: 'bad..ref' }))).status, 404);
});

test('compare pages 300 commits at 250, oldest first, and reports ahead', async () => {
  const base = gh.commit('acme', 'infra', { branch: 'long', files: ['start.tf'] });
  const shas = Array.from({ length: 300 }, (_, i) => gh.commit('acme', 'infra', { branch: 'long', files: [`f${i}.tf`] }));
  const first = await octokit.rest.repos.compareCommitsWithBasehead({ owner: 'acme', repo: 'infra', basehead: `${base}...long`, per_page: 250 });
  assert.equal(first.data.status, 'ahead');
  assert.equal(first.data.total_commits, 300);
  assert.equal(first.data.ahead_by, 300);
  assert.deepEqual(
    first.data.commits.map((c) => c.sha),
    shas.slice(0, 250),
  );
  assert.match(first.headers.link ?? '', /page=2>; rel="next"/);
  const second = await octokit.rest.repos.compareCommitsWithBasehead({ owner: 'acme', repo: 'infra', basehead: `${base}...long`, per_page: 250, page: 2 });
  assert.deepEqual(
    second.data.commits.map((c) => c.sha),
    shas.slice(250),
  );
  // The incremental catch-up a controller does: compare again from the last SHA seen.
  const rest = await octokit.rest.repos.compareCommits({ owner: 'acme', repo: 'infra', base: shas[249] as string, head: 'long', per_page: 250 });
  assert.equal(rest.data.total_commits, 50);
});

test('compare says behind, diverged and identical, and 404 for an unknown side', async () => {
  const root = gh.branchHead('acme', 'infra', 'main') as string;
  gh.commit('acme', 'infra', { branch: 'left', files: ['l.tf'] });
  gh.commit('acme', 'infra', { branch: 'right', files: ['r.tf'] });
  const behind = await octokit.rest.repos.compareCommits({ owner: 'acme', repo: 'infra', base: 'left', head: root });
  assert.equal(behind.data.status, 'behind');
  assert.equal(behind.data.total_commits, 0);
  assert.equal(behind.data.behind_by, 1);
  const diverged = await octokit.rest.repos.compareCommits({ owner: 'acme', repo: 'infra', base: 'left', head: 'right' });
  assert.equal(diverged.data.status, 'diverged');
  assert.equal(diverged.data.merge_base_commit.sha, root);
  const identical = await octokit.rest.repos.compareCommits({ owner: 'acme', repo: 'infra', base: 'left', head: 'left' });
  assert.equal(identical.data.status, 'identical');
  assert.equal((await status(octokit.rest.repos.compareCommits({ owner: 'acme', repo: 'infra', base: 'e'.repeat(40), head: 'left' }))).status, 404);
});

test('a force-push leaves the old head out of the branch history', async () => {
  const old = gh.commit('acme', 'infra', { branch: 'force', files: ['a.tf'] });
  const root = gh.branchHead('acme', 'infra', 'main') as string;
  gh.setBranchHead('acme', 'infra', 'force', root);
  const fresh = gh.commit('acme', 'infra', { branch: 'force', files: ['b.tf'] });
  const compare = await octokit.rest.repos.compareCommits({ owner: 'acme', repo: 'infra', base: old, head: 'force' });
  assert.equal(compare.data.status, 'diverged');
  assert.deepEqual(
    compare.data.commits.map((c) => c.sha),
    [fresh],
  );
});
