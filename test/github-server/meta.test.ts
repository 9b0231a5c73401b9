import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startGitHubTestServer, type GitHubTestServer } from './index.ts';

let gh: GitHubTestServer;

before(async () => {
  gh = await startGitHubTestServer();
});
after(() => gh.close());

async function meta(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${gh.url}/_meta${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function api(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${gh.apiUrl}${path}`, { headers: { authorization: 'token ghp_meta' } });
  return { status: response.status, body: await response.json() };
}

test('/_meta drives repositories, commits, branches and pull requests as the methods do', async () => {
  assert.equal((await meta('POST', '/tokens', { token: 'ghp_meta' })).status, 204);
  assert.equal((await meta('POST', '/repos', { owner: 'acme', name: 'infra', default_branch: 'trunk' })).status, 201);
  const { status, body: commit } = await meta('POST', '/repos/acme/infra/commits', { branch: 'feature/x', files: ['a/main.tf'] });
  assert.equal(status, 201);
  assert.equal((await api('repos/acme/infra/branches/feature%2Fx')).body.commit.sha, commit.sha);
  const { body: pull } = await meta('POST', '/repos/acme/infra/pulls', { head: 'feature/x', base: 'trunk' });
  assert.equal((await api('repos/acme/infra/pulls')).body[0].number, pull.number);
  const root = gh.branchHead('acme', 'infra', 'trunk');
  assert.equal((await meta('PUT', '/repos/acme/infra/branches/feature/x', { sha: root })).body.sha, root);
  assert.equal((await api(`repos/acme/infra/pulls/${pull.number}`)).body.head.sha, root);
  const closed = await meta('POST', `/repos/acme/infra/pulls/${pull.number}/close`, { merged: false });
  assert.equal(closed.body.pulls[0].state, 'closed');
  assert.equal((await meta('DELETE', '/repos/acme/infra/branches/feature/x')).status, 204);
  assert.deepEqual((await meta('GET', '/repos/acme/infra')).body.branches, { trunk: root });
});

test('/_meta shows check runs, calls, faults and deliveries', async () => {
  const sha = gh.branchHead('acme', 'infra', 'trunk');
  const response = await fetch(`${gh.url}/repos/acme/infra/check-runs`, {
    method: 'POST',
    headers: { authorization: 'token ghp_meta' },
    body: JSON.stringify({ name: 'plan', head_sha: sha }),
  });
  assert.equal(response.status, 201);
  const runs = (await meta('GET', '/repos/acme/infra/check-runs')).body;
  assert.deepEqual(
    runs.map((run: { name: string; history: unknown[] }) => [run.name, run.history.length]),
    [['plan', 1]],
  );
  assert.ok((await meta('GET', '/calls')).body.some((call: { method: string; path: string }) => call.method === 'POST' && call.path === '/repos/acme/infra/check-runs'));
  assert.equal((await meta('DELETE', '/calls')).status, 204);
  assert.deepEqual((await meta('GET', '/calls')).body, []);
  assert.equal((await meta('PUT', '/faults', { rate: 1, kinds: ['500'], seed: 1 })).status, 204);
  assert.ok([500, 502].includes((await api('repos/acme/infra')).status));
  assert.equal((await meta('GET', '/faults')).body.injected.total, 1);
  assert.equal((await meta('DELETE', '/faults')).status, 204);
  assert.equal((await api('repos/acme/infra')).status, 200);
  assert.equal((await meta('POST', '/repos/acme/infra/webhooks', { url: 'http://127.0.0.1:1/hook', secret: 's', events: ['push'] })).status, 201);
  const sent = await meta('POST', '/repos/acme/infra/events/push', { ref: 'refs/heads/trunk' });
  assert.equal(sent.status, 202);
  await gh.deliveriesSettled();
  const redelivered = await meta('POST', `/deliveries/${sent.body[0].guid}/redeliver`);
  assert.equal(redelivered.body.guid, sent.body[0].guid);
  await gh.deliveriesSettled();
  const deliveries = (await meta('GET', '/deliveries')).body;
  assert.deepEqual(
    deliveries.map((d: { event: string; redelivery: boolean; status: number }) => [d.event, d.redelivery, d.status]),
    [
      ['ping', false, 0],
      ['push', false, 0],
      ['push', true, 0],
    ],
  );
});

test('/_meta misuse is a 400 that says why, and the server keeps serving', async () => {
  const unknown = await meta('POST', '/repos/acme/nope/commits', { branch: 'main', files: ['x'] });
  assert.equal(unknown.status, 400);
  assert.match(unknown.body.message, /no repository acme\/nope/);
  assert.match((await meta('PUT', '/faults', { rate: 2, kinds: ['500'] })).body.message, /fault rate/);
  assert.match((await meta('PUT', '/faults', { rate: 0.5, kinds: ['boom'] })).body.message, /unknown fault kinds: boom/);
  const badFile = await meta('POST', '/repos/acme/infra/commits', { branch: 'trunk', files: [42] });
  assert.equal(badFile.status, 400);
  assert.match(badFile.body.message, /a changed file is a name or/);
  const badJson = await fetch(`${gh.url}/_meta/repos`, { method: 'POST', body: '{' });
  assert.equal(badJson.status, 400);
  assert.equal((await meta('GET', '/repos/acme/infra')).status, 200);
});
