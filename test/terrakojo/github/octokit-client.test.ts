// The Octokit GitHubClient against the GitHub test server over real HTTP: every call, pagination, GitHub's 422 for a
// missing commit, both base URL spellings, PAT and App auth, and faults: 5xx, rate limits and hung requests.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { githubEndpoints } from '../../../src/terrakojo/github/endpoints.ts';
import { GitHubRequestError } from '../../../src/terrakojo/github/errors.ts';
import type { GitHubCredentials } from '../../../src/terrakojo/github/credentials.ts';
import { OctokitGitHubClient, type OctokitClientOptions } from '../../../src/terrakojo/github/octokit-client.ts';
import { startGitHubTestServer, type GitHubTestServer } from '../../github-server/index.ts';

const PAT = 'ghp_octokit_client_test';
let gh: GitHubTestServer;
/** acme/infra: main, and feature/x with an open pull request. */
let main: string;
let feature: string;
let pr: number;

before(async () => {
  gh = await startGitHubTestServer();
  gh.addToken(PAT);
  gh.createRepository('acme', 'infra', { defaultBranch: 'main' });
  main = gh.commit('acme', 'infra', { branch: 'main', files: ['infra/app/main.tf', 'README.md'] });
  feature = gh.commit('acme', 'infra', { branch: 'feature/x', files: ['infra/db/main.tf', { filename: 'README.md', status: 'removed' }] });
  pr = gh.openPullRequest('acme', 'infra', { head: 'feature/x', base: 'main' });
});
after(() => gh.close());

/** A client for the server's api.github.com layout, with test-sized timings. */
function client(options: OctokitClientOptions = {}, credentials: GitHubCredentials = { type: 'token', token: PAT }): OctokitGitHubClient {
  return new OctokitGitHubClient(credentials, { endpoints: githubEndpoints({ GITHUB_API_URL: gh.url }), writeIntervalMs: 0, retryBaseMs: 10, requestTimeoutMs: 2000, ...options });
}

async function failure(call: Promise<unknown>): Promise<GitHubRequestError> {
  try {
    await call;
  } catch (err) {
    assert.ok(err instanceof GitHubRequestError, String(err));
    assert.equal(err.name, 'GitHubRequestError');
    return err;
  }
  assert.fail('the call succeeded');
}

function apiCalls(): { method: string; path: string; query: string; status: number; at: string }[] {
  return gh.calls.filter((c) => !c.path.startsWith('/app/'));
}

test('every call, against the GHES layout with a trailing slash, with upstream\'s parameters', async () => {
  assert.equal(gh.apiUrl.endsWith('/api/v3/'), true);
  const github = client({ endpoints: githubEndpoints({ GITHUB_API_URL: gh.apiUrl }) });
  gh.resetCalls();

  assert.equal(await github.getBranchHead('acme', 'infra', 'main'), main);
  assert.deepEqual((await github.listBranches('acme', 'infra')).sort((a, b) => a.name.localeCompare(b.name)), [
    { name: 'feature/x', sha: feature },
    { name: 'main', sha: main },
  ]);
  assert.deepEqual(await github.listOpenPullRequests('acme', 'infra'), [{ number: pr, ref: 'feature/x', sha: feature }]);
  const compare = await github.compareCommits('acme', 'infra', main, feature);
  assert.deepEqual(compare, { shas: [feature], status: 'ahead', totalCommits: 1 });
  assert.equal(await github.commitExists('acme', 'infra', main), true);
  assert.deepEqual(await github.commitFiles('acme', 'infra', main), ['infra/app/main.tf', 'README.md']);
  assert.deepEqual((await github.pullRequestFiles('acme', 'infra', pr)).sort(), ['README.md', 'infra/db/main.tf']);

  const id = await github.createCheckRun('acme', 'infra', { name: 'plan-app', headSha: main, detailsUrl: 'https://bosun.example/wf/1', externalId: 'wf-1' });
  await github.updateCheckRun('acme', 'infra', id, { name: 'plan-app', status: 'in_progress' });
  await github.updateCheckRun('acme', 'infra', id, { name: 'plan-app', status: 'completed', conclusion: 'success', output: { title: 'plan-app', summary: 'done', text: 'log tail' } });
  const run = gh.checkRuns('acme', 'infra').find((r) => r.id === id);
  assert.ok(run);
  assert.equal(run.id, id);
  assert.equal(run.name, 'plan-app');
  assert.equal(run.head_sha, main);
  assert.equal(run.details_url, 'https://bosun.example/wf/1');
  assert.equal(run.external_id, 'wf-1');
  assert.deepEqual(run.output, { title: 'plan-app', summary: 'done', text: 'log tail' });
  assert.deepEqual(run.history.map((h) => [h.status, h.conclusion]), [['queued', null], ['in_progress', null], ['completed', 'success']]);
  // Found again by name and external_id (after a crash lost its id); another external_id or name finds nothing.
  assert.equal(await github.findCheckRun('acme', 'infra', main, 'plan-app', 'wf-1'), id);
  assert.equal(await github.findCheckRun('acme', 'infra', main, 'plan-app', 'wf-2'), undefined);
  assert.equal(await github.findCheckRun('acme', 'infra', main, 'plan-db', 'wf-1'), undefined);

  assert.deepEqual(
    apiCalls().map((c) => `${c.method} ${c.path}${c.query} ${c.status}`),
    [
      `GET /repos/acme/infra/branches/main 200`,
      `GET /repos/acme/infra/branches?per_page=100 200`,
      `GET /repos/acme/infra/pulls?state=open&per_page=100 200`,
      `GET /repos/acme/infra/compare/${main}...${feature}?per_page=250 200`,
      `GET /repos/acme/infra/commits/${main} 200`,
      `GET /repos/acme/infra/commits/${main} 200`,
      `GET /repos/acme/infra/pulls/${pr}/files?per_page=100 200`,
      `POST /repos/acme/infra/check-runs 201`,
      `PATCH /repos/acme/infra/check-runs/${id} 200`,
      `PATCH /repos/acme/infra/check-runs/${id} 200`,
      ...['wf-1', 'wf-2'].map(() => `GET /repos/acme/infra/commits/${main}/check-runs?check_name=plan-app&filter=all&per_page=100 200`),
      `GET /repos/acme/infra/commits/${main}/check-runs?check_name=plan-db&filter=all&per_page=100 200`,
    ],
  );
});

test('the base URL works with and without a trailing slash, in both layouts', async () => {
  for (const url of [gh.url, `${gh.url}/`, gh.apiUrl, gh.apiUrl.replace(/\/$/, '')]) {
    gh.resetCalls();
    assert.equal(await client({ endpoints: githubEndpoints({ GITHUB_API_URL: url }) }).getBranchHead('acme', 'infra', 'main'), main, url);
    assert.deepEqual(apiCalls().map((c) => c.path), ['/repos/acme/infra/branches/main'], url);
    // Endpoints handed over directly, not through githubEndpoints(), too.
    gh.resetCalls();
    assert.equal(await client({ endpoints: { apiUrl: url, uploadUrl: url } }).getBranchHead('acme', 'infra', 'main'), main, url);
    assert.deepEqual(apiCalls().map((c) => c.path), ['/repos/acme/infra/branches/main'], url);
  }
});

test('lists and commit files are followed past their first page', async () => {
  gh.createRepository('acme', 'big', { defaultBranch: 'main' });
  const files = Array.from({ length: 750 }, (_, i) => `mod${String(i).padStart(3, '0')}/main.tf`);
  const big = gh.commit('acme', 'big', { branch: 'main', files });
  for (let i = 0; i < 104; i++) gh.commit('acme', 'big', { branch: `b${i}`, files: [`f${i}.tf`] });
  for (let i = 0; i < 101; i++) gh.openPullRequest('acme', 'big', { head: `b${i}`, base: 'main' });
  const prFiles = Array.from({ length: 230 }, (_, i) => `pr/${i}.tf`);
  gh.commit('acme', 'big', { branch: 'wide', files: prFiles.slice(0, 115) });
  gh.commit('acme', 'big', { branch: 'wide', files: prFiles.slice(115) });
  const wide = gh.openPullRequest('acme', 'big', { head: 'wide', base: 'main' });
  const github = client();
  gh.resetCalls();

  assert.deepEqual(await github.commitFiles('acme', 'big', big), files);
  assert.equal(apiCalls().length, 3, 'GitHub pages a commit\'s files at 300');
  gh.resetCalls();
  assert.equal((await github.listBranches('acme', 'big')).length, 106);
  assert.equal(apiCalls().length, 2);
  gh.resetCalls();
  assert.equal((await github.listOpenPullRequests('acme', 'big')).length, 102);
  assert.equal(apiCalls().length, 2);
  gh.resetCalls();
  assert.deepEqual((await github.pullRequestFiles('acme', 'big', wide)).sort(), [...prFiles].sort());
  assert.equal(apiCalls().length, 3);
});

test('a commit GitHub does not have (422) or cannot name (404) does not exist', async () => {
  const github = client();
  gh.resetCalls();
  assert.equal(await github.commitExists('acme', 'infra', 'f'.repeat(40)), false);
  assert.equal(await github.commitExists('acme', 'infra', 'no..such'), false);
  assert.deepEqual(apiCalls().map((c) => c.status), [422, 404]);
  // Other answers are failures, not "gone".
  gh.setFaults({ rate: 1, kinds: ['500'] });
  try {
    const err = await failure(client({ retries: 0 }).commitExists('acme', 'infra', 'f'.repeat(40)));
    assert.ok(err.status === 500 || err.status === 502, String(err.status));
  } finally {
    gh.setFaults(undefined);
  }
});

test('a failed call is a GitHubRequestError naming the call and the repository, never the token', async () => {
  const missing = await failure(client().getBranchHead('acme', 'infra', 'no-such-branch'));
  assert.equal(missing.status, 404);
  assert.equal(missing.operation, 'getBranchHead');
  assert.equal(missing.repository, 'acme/infra');
  assert.match(missing.message, /^GitHub getBranchHead for acme\/infra failed: 404 /);

  const denied = await failure(client({}, { type: 'token', token: 'ghp_wrong_token' }).listBranches('acme', 'infra'));
  assert.equal(denied.status, 401);
  assert.doesNotMatch(denied.message, /ghp_wrong_token/);
  assert.doesNotMatch(JSON.stringify(denied), /ghp_wrong_token/);

  const unreachable = await failure(client({ endpoints: githubEndpoints({ GITHUB_API_URL: 'http://127.0.0.1:1' }), retries: 0 }).listBranches('acme', 'infra'));
  assert.equal(unreachable.status, undefined);
  assert.equal(unreachable.timedOut, false);
});

test('GitHub App auth: one installation token serves every call', async () => {
  const app = gh.createApp();
  const github = client({}, { type: 'app', appId: app.appId, installationId: app.installationId, privateKey: app.privateKeyPem });
  const issued = gh.tokensIssued;
  gh.resetCalls();
  const head = await github.getBranchHead('acme', 'infra', 'main');
  await Promise.all([github.listBranches('acme', 'infra'), github.listOpenPullRequests('acme', 'infra'), github.commitExists('acme', 'infra', head)]);
  await github.createCheckRun('acme', 'infra', { name: 'app-auth', headSha: head });
  assert.equal(gh.tokensIssued - issued, 1);
  assert.deepEqual(
    gh.calls.filter((c) => c.path.startsWith('/app/')).map((c) => `${c.method} ${c.path} ${c.status}`),
    [`POST /app/installations/${app.installationId}/access_tokens 201`],
  );
});

test('an App whose key GitHub does not know fails when minting the token, and says so', async () => {
  const app = gh.createApp();
  const other = gh.createApp();
  const github = client({}, { type: 'app', appId: app.appId, installationId: app.installationId, privateKey: other.privateKeyPem });
  const err = await failure(github.getBranchHead('acme', 'infra', 'main'));
  assert.equal(err.status, 401);
  assert.match(err.message, /creating the App installation token/);
  assert.doesNotMatch(err.message, /BEGIN|eyJ/);
});

/** What the Workflow controller does across reconciles: look for the check run by external_id, else create it. */
async function findOrCreateCheckRun(github: OctokitGitHubClient, name: string, externalId: string): Promise<number> {
  for (;;) {
    try {
      return (await github.findCheckRun('acme', 'infra', main, name, externalId)) ?? (await github.createCheckRun('acme', 'infra', { name, headSha: main, externalId }));
    } catch (err) {
      // A 5xx or no answer: GitHub may or may not have made it; the next look finds it if it did.
      if (!(err instanceof GitHubRequestError) || (err.status !== undefined && err.status < 500)) throw err;
    }
  }
}

test('a check run create that meets a 5xx is not retried (GitHub may have made it), unlike a read', async () => {
  const github = client();
  gh.resetCalls();
  gh.setFaults({ rate: 1, kinds: ['500'], seed: 1 });
  try {
    const err = await failure(github.createCheckRun('acme', 'infra', { name: 'once', headSha: main, externalId: 'ext-once' }));
    assert.ok((err.status ?? 0) >= 500, String(err.status));
  } finally {
    gh.setFaults(undefined);
  }
  assert.deepEqual(apiCalls().map((c) => c.method), ['POST']);
});

test('with 20% of requests failing (5xx, rate limits, hangs) every call still succeeds, the App token minted once', async () => {
  const app = gh.createApp();
  const github = client({ requestTimeoutMs: 300, retries: 5 }, { type: 'app', appId: app.appId, installationId: app.installationId, privateKey: app.privateKeyPem });
  const before = { ...gh.faultsInjected };
  const issued = gh.tokensIssued;
  gh.resetCalls();
  gh.setFaults({ rate: 0.2, kinds: ['500', 'rate-limit', 'timeout'], seed: 9, timeoutMs: 10_000 });
  try {
    for (let i = 0; i < 6; i++) {
      assert.equal(await github.getBranchHead('acme', 'infra', 'main'), main);
      assert.equal((await github.listBranches('acme', 'infra')).length, 2);
      const id = await findOrCreateCheckRun(github, `faults-${i}`, `ext-${i}`);
      await github.updateCheckRun('acme', 'infra', id, { name: `faults-${i}`, status: 'completed', conclusion: 'success' });
    }
  } finally {
    gh.setFaults(undefined);
  }
  const injected = gh.faultsInjected;
  assert.ok(injected['500'] > before['500'] && injected['rate-limit'] > before['rate-limit'] && injected.timeout > before.timeout, JSON.stringify(injected));
  const mints = gh.calls.filter((c) => c.path.startsWith('/app/')).map((c) => c.status);
  assert.ok(mints.length > 1 && mints.at(-1) === 201, `the token request, faulted and retried: ${mints.join(', ')}`);
  assert.equal(gh.tokensIssued - issued, 1);
  const runs = gh.checkRuns('acme', 'infra').filter((r) => r.name.startsWith('faults-'));
  assert.equal(runs.length, 6, 'no check run lost or made twice');
  assert.ok(runs.every((r) => r.status === 'completed' && r.conclusion === 'success'));
});

/** Elapsed ms between the faulted call and its retry, after checking the server answered `status` first. */
function retryGap(status: number): number {
  const calls = apiCalls();
  assert.deepEqual(calls.map((c) => c.status), [status, 200]);
  const [faulted, retried] = calls as [(typeof calls)[0], (typeof calls)[0]];
  return Date.parse(retried.at) - Date.parse(faulted.at);
}

test('a primary rate limit (403, reset a second or two ahead) is waited out, then the call succeeds', async () => {
  const github = client();
  // Seed 8 at rate 0.5 faults the first request with a primary limit and lets the next through.
  gh.setFaults({ rate: 0.5, kinds: ['rate-limit'], seed: 8 });
  gh.resetCalls();
  try {
    assert.ok(await github.getBranchHead('acme', 'infra', 'main'));
  } finally {
    gh.setFaults(undefined);
  }
  const gap = retryGap(403);
  assert.ok(gap >= 1000 && gap < 5000, `retried after ${gap} ms`);
});

test('a secondary rate limit (429 with Retry-After: 1) is waited out for a second, then the call succeeds', async () => {
  const github = client();
  // Seed 7 at rate 0.5 faults the first request with a secondary limit and lets the next through.
  gh.setFaults({ rate: 0.5, kinds: ['rate-limit'], seed: 7 });
  gh.resetCalls();
  try {
    assert.ok(await github.getBranchHead('acme', 'infra', 'main'));
  } finally {
    gh.setFaults(undefined);
  }
  const gap = retryGap(429);
  assert.ok(gap >= 1000 && gap < 2500, `retried after ${gap} ms`);
});

test('a rate limit that resets later than the client will wait fails at once, saying when to come back', async () => {
  const github = client({ maxRateLimitWaitMs: 500 });
  gh.setFaults({ rate: 1, kinds: ['rate-limit'], seed: 1 });
  gh.resetCalls();
  const started = Date.now();
  try {
    const err = await failure(github.getBranchHead('acme', 'infra', 'main'));
    assert.ok(err.status === 403 || err.status === 429);
    assert.ok(err.retryAfterSeconds !== undefined && err.retryAfterSeconds >= 1, String(err.retryAfterSeconds));
  } finally {
    gh.setFaults(undefined);
  }
  assert.ok(Date.now() - started < 900);
  assert.equal(apiCalls().length, 1);
});

test('a hung request is abandoned at the deadline and retried', async () => {
  const github = client({ requestTimeoutMs: 200 });
  // Seed 7 at rate 0.5 hangs the first request and lets the next through.
  gh.setFaults({ rate: 0.5, kinds: ['timeout'], seed: 7, timeoutMs: 10_000 });
  gh.resetCalls();
  try {
    assert.ok(await github.getBranchHead('acme', 'infra', 'main'));
  } finally {
    gh.setFaults(undefined);
  }
  assert.deepEqual(apiCalls().map((c) => c.status), [0, 200]);
});

test('a GitHub that never answers fails the call with a clear timeout', async () => {
  const github = client({ requestTimeoutMs: 150, retries: 1 });
  gh.setFaults({ rate: 1, kinds: ['timeout'], timeoutMs: 10_000 });
  gh.resetCalls();
  const started = Date.now();
  try {
    const err = await failure(github.listBranches('acme', 'infra'));
    assert.equal(err.timedOut, true);
    assert.equal(err.status, undefined);
    assert.equal(err.message, 'GitHub listBranches for acme/infra failed: no answer within 150 ms');
  } finally {
    gh.setFaults(undefined);
  }
  assert.equal(apiCalls().length, 2, 'one attempt and one retry');
  assert.ok(Date.now() - started < 2000);
});

test('writes are spaced by writeIntervalMs (GitHub\'s advice against secondary limits; 1 s by default)', async () => {
  const github = client({ writeIntervalMs: 200 });
  const head = main;
  gh.resetCalls();
  await Promise.all([0, 1, 2].map((i) => github.createCheckRun('acme', 'infra', { name: `spaced-${i}`, headSha: head })));
  const at = apiCalls().map((c) => Date.parse(c.at));
  assert.equal(at.length, 3);
  for (let i = 1; i < at.length; i++) assert.ok((at[i] ?? 0) - (at[i - 1] ?? 0) >= 150, `writes ${at.join(', ')}`);
});

test('the caller\'s signal: an aborted call rejects at once with its reason and sends nothing more', async () => {
  const github = client({ requestTimeoutMs: 5000 });
  const stop = new Error('leadership lost');

  const already = new AbortController();
  already.abort(stop);
  gh.resetCalls();
  await assert.rejects(github.getBranchHead('acme', 'infra', 'main', already.signal), (err) => err === stop);
  assert.equal(apiCalls().length, 0);

  // Mid-request: the hung request is dropped, not retried.
  gh.setFaults({ rate: 1, kinds: ['timeout'], timeoutMs: 10_000 });
  const hung = new AbortController();
  try {
    const started = Date.now();
    const call = github.listBranches('acme', 'infra', hung.signal);
    setTimeout(() => hung.abort(stop), 100);
    await assert.rejects(call, (err) => err === stop);
    assert.ok(Date.now() - started < 1000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(apiCalls().map((c) => c.status), [0], 'no retry after the abort');
  } finally {
    gh.setFaults(undefined);
  }

  // Mid-wait on a secondary rate limit (Retry-After: 1): the retry is never sent.
  gh.setFaults({ rate: 0.5, kinds: ['rate-limit'], seed: 7 });
  gh.resetCalls();
  const waiting = new AbortController();
  try {
    const call = github.createCheckRun('acme', 'infra', { name: 'aborted', headSha: main }, waiting.signal);
    setTimeout(() => waiting.abort(stop), 200);
    await assert.rejects(call, (err) => err === stop);
  } finally {
    gh.setFaults(undefined);
  }
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.deepEqual(apiCalls().map((c) => c.status), [429]);
  assert.equal(gh.checkRuns('acme', 'infra').filter((r) => r.name === 'aborted').length, 0);
});
