import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RequestError } from '@octokit/request-error';
import type { GitHubTestServer } from './index.ts';
import { serverWithRepository, TestOctokit, type TestOctokit as Client } from './test-client.ts';

let gh: GitHubTestServer;
let octokit: Client;

before(async () => ({ gh, octokit } = await serverWithRepository()));
after(() => gh.close());

test('a repository answers with GitHub shape, at the root and under /api/v3', async () => {
  const { data } = await octokit.rest.repos.get({ owner: 'acme', repo: 'infra' });
  assert.equal(data.full_name, 'acme/infra');
  assert.equal(data.default_branch, 'main');
  assert.equal(data.owner.login, 'acme');
  const root = new TestOctokit({ auth: 'ghp_test', baseUrl: gh.url });
  const { data: same, headers } = await root.rest.repos.get({ owner: 'acme', repo: 'infra' });
  assert.equal(same.id, data.id);
  assert.equal(headers['x-ratelimit-limit'], '5000');
  assert.equal(headers['x-ratelimit-resource'], 'core');
  assert.ok(Number(headers['x-ratelimit-reset']) > Date.now() / 1000);
});

test('an unknown repository is 404', async () => {
  const error = await octokit.rest.repos.get({ owner: 'acme', repo: 'nope' }).catch((e: unknown) => e);
  assert.ok(error instanceof RequestError);
  assert.equal(error.status, 404);
});

test('no token or a wrong one is 401 with GitHub message', async () => {
  const none = await fetch(`${gh.url}/repos/acme/infra`);
  assert.equal(none.status, 401);
  assert.deepEqual(await none.json(), { message: 'Requires authentication', documentation_url: 'https://docs.github.com/rest', status: '401' });
  const wrong = await fetch(`${gh.url}/repos/acme/infra`, { headers: { authorization: 'token ghp_wrong' } });
  assert.equal(wrong.status, 401);
  assert.equal(((await wrong.json()) as { message: string }).message, 'Bad credentials');
  const bearer = await fetch(`${gh.url}/repos/acme/infra`, { headers: { authorization: 'Bearer ghp_test' } });
  assert.equal(bearer.status, 200);
});

test('a branch whose name has a slash is found, sent encoded or raw', async () => {
  const sha = gh.commit('acme', 'infra', { branch: 'feature/x', files: ['a.tf'] });
  const { data } = await octokit.rest.repos.getBranch({ owner: 'acme', repo: 'infra', branch: 'feature/x' });
  assert.equal(data.name, 'feature/x');
  assert.equal(data.commit.sha, sha);
  const raw = await fetch(`${gh.url}/repos/acme/infra/branches/feature/x`, { headers: { authorization: 'token ghp_test' } });
  assert.equal(((await raw.json()) as { commit: { sha: string } }).commit.sha, sha);
  const missing = await octokit.rest.repos.getBranch({ owner: 'acme', repo: 'infra', branch: 'feature/none' }).catch((e: unknown) => e);
  assert.ok(missing instanceof RequestError);
  assert.equal(missing.status, 404);
  assert.equal((missing.response?.data as { message: string }).message, 'Branch not found');
});

test('branches are listed in pages with Link headers', async () => {
  gh.createRepository('acme', 'many');
  for (let i = 0; i < 7; i++) gh.createBranch('acme', 'many', `b${i}`);
  const first = await octokit.rest.repos.listBranches({ owner: 'acme', repo: 'many', per_page: 3 });
  assert.deepEqual(first.data.map((b) => b.name), ['b0', 'b1', 'b2']);
  assert.match(first.headers.link ?? '', /page=2>; rel="next"/);
  assert.match(first.headers.link ?? '', /page=3>; rel="last"/);
  const all = await octokit.paginate(octokit.rest.repos.listBranches, { owner: 'acme', repo: 'many', per_page: 3 });
  assert.deepEqual(all.map((b) => b.name), ['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'main']);
  const last = await octokit.rest.repos.listBranches({ owner: 'acme', repo: 'many', per_page: 3, page: 3 });
  assert.equal(last.data.length, 2);
  assert.doesNotMatch(last.headers.link ?? '', /rel="next"/);
});

test('every API request is recorded in calls', async () => {
  gh.resetCalls();
  await octokit.rest.repos.get({ owner: 'acme', repo: 'infra' });
  await fetch(`${gh.url}/repos/acme/infra`);
  assert.deepEqual(
    gh.calls.map(({ method, path, status }) => ({ method, path, status })),
    [
      { method: 'GET', path: '/repos/acme/infra', status: 200 },
      { method: 'GET', path: '/repos/acme/infra', status: 401 },
    ],
  );
});

test("Octokit with a trailing slash on its base URL asks for //repos, which GitHub does not serve", async () => {
  const slashed = new TestOctokit({ auth: 'ghp_test', baseUrl: gh.apiUrl });
  const error = await slashed.rest.repos.get({ owner: 'acme', repo: 'infra' }).catch((e: unknown) => e);
  assert.ok(error instanceof RequestError);
  assert.equal(error.status, 404);
  assert.match(gh.calls.at(-1)?.path ?? '', /^\/\/repos\/acme\/infra$/);
});
