import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { GitHubTestServer } from './index.ts';
import { serverWithRepository, type TestOctokit } from './test-client.ts';

let gh: GitHubTestServer;
let octokit: TestOctokit;

before(async () => ({ gh, octokit } = await serverWithRepository()));
after(() => gh.close());

test('open pull requests are listed newest first with head and base, in pages', async () => {
  const heads = Array.from({ length: 5 }, (_, i) => gh.commit('acme', 'infra', { branch: `feature/${i}`, files: [`f${i}.tf`] }));
  const numbers = heads.map((_, i) => gh.openPullRequest('acme', 'infra', { head: `feature/${i}`, base: 'main' }));
  gh.closePullRequest('acme', 'infra', numbers[0] as number);
  const pulls = await octokit.paginate(octokit.rest.pulls.list, { owner: 'acme', repo: 'infra', state: 'open', per_page: 2 });
  assert.deepEqual(
    pulls.map((p) => [p.number, p.state, p.head.ref, p.head.sha, p.base.ref]),
    [4, 3, 2, 1].map((i) => [i + 1, 'open', `feature/${i}`, heads[i], 'main']),
  );
  const all = await octokit.rest.pulls.list({ owner: 'acme', repo: 'infra', state: 'all' });
  assert.equal(all.data.length, 5);
});

test("a pull request's head follows its branch; its files are the branch's changes, paged", async () => {
  const files = Array.from({ length: 120 }, (_, i) => `stacks/s${String(i).padStart(3, '0')}/main.tf`);
  gh.commit('acme', 'infra', { branch: 'feature/big', files: files.slice(0, 60) });
  const number = gh.openPullRequest('acme', 'infra', { head: 'feature/big', base: 'main' });
  const head = gh.commit('acme', 'infra', { branch: 'feature/big', files: [...files.slice(60), files[0] as string] });
  const { data: pull } = await octokit.rest.pulls.get({ owner: 'acme', repo: 'infra', pull_number: number });
  assert.equal(pull.head.sha, head);
  const first = await octokit.rest.pulls.listFiles({ owner: 'acme', repo: 'infra', pull_number: number, per_page: 100 });
  assert.equal(first.data.length, 100);
  assert.match(first.headers.link ?? '', /rel="next"/);
  const listed = await octokit.paginate(octokit.rest.pulls.listFiles, { owner: 'acme', repo: 'infra', pull_number: number, per_page: 100 });
  assert.deepEqual(
    listed.map((f) => f.filename),
    files,
  );
  assert.ok(listed.every((f) => f.status === 'added'));
});

test('closing merged moves the base with a merge commit', async () => {
  gh.commit('acme', 'infra', { branch: 'feature/merge', files: ['m.tf'] });
  const before = gh.branchHead('acme', 'infra', 'main');
  const number = gh.openPullRequest('acme', 'infra', { head: 'feature/merge', base: 'main' });
  gh.closePullRequest('acme', 'infra', number, { merged: true });
  const { data: pull } = await octokit.rest.pulls.get({ owner: 'acme', repo: 'infra', pull_number: number });
  assert.equal(pull.state, 'closed');
  assert.equal(pull.merged, true);
  assert.equal(pull.merge_commit_sha, gh.branchHead('acme', 'infra', 'main'));
  const { data: merge } = await octokit.rest.repos.getCommit({ owner: 'acme', repo: 'infra', ref: 'main' });
  assert.equal(merge.parents[0]?.sha, before);
  assert.deepEqual(
    merge.files?.map((f) => f.filename),
    ['m.tf'],
  );
});
