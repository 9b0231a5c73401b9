import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { startGitHubTestServer, type GitHubTestServer } from './index.ts';
import { TestOctokit } from './test-client.ts';

async function server(): Promise<GitHubTestServer> {
  const gh = await startGitHubTestServer();
  gh.createRepository('acme', 'infra');
  gh.addToken('ghp_test');
  return gh;
}

async function get(gh: GitHubTestServer, path = '/repos/acme/infra'): Promise<Response> {
  return fetch(`${gh.url}${path}`, { headers: { authorization: 'token ghp_test' } });
}

async function statuses(gh: GitHubTestServer, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await get(gh)).status);
  return out;
}

test('faults hit about the given share of requests, the same ones for the same seed', async (t) => {
  const gh = await server();
  t.after(() => gh.close());
  gh.setFaults({ rate: 0.3, kinds: ['500'], seed: 7 });
  const first = await statuses(gh, 200);
  const failed = first.filter((status) => status !== 200);
  assert.ok(failed.every((status) => status === 500 || status === 502));
  assert.ok(failed.length > 35 && failed.length < 85, `${failed.length} of 200 failed at rate 0.3`);
  assert.equal(gh.faultsInjected.total, failed.length);
  assert.equal(gh.calls.filter((call) => call.fault === '500').length, failed.length);
  gh.setFaults({ rate: 0.3, kinds: ['500'], seed: 7 });
  assert.deepEqual(await statuses(gh, 200), first);
  gh.setFaults(undefined);
  assert.ok((await statuses(gh, 20)).every((status) => status === 200));
});

test("rate-limit faults answer GitHub's primary 403 with a reset, and the secondary 429 with Retry-After", async (t) => {
  const gh = await server();
  t.after(() => gh.close());
  gh.setFaults({ rate: 1, kinds: ['rate-limit'], seed: 3 });
  const seen = new Set<number>();
  for (let i = 0; i < 20 && seen.size < 2; i++) {
    const response = await get(gh);
    const body = (await response.json()) as { message: string };
    seen.add(response.status);
    if (response.status === 403) {
      assert.equal(response.headers.get('x-ratelimit-remaining'), '0');
      const wait = Number(response.headers.get('x-ratelimit-reset')) - Date.now() / 1000;
      assert.ok(wait > 0 && wait <= 2, `reset is a second or two ahead (${wait} s)`);
      assert.match(body.message, /^API rate limit exceeded/);
    } else {
      assert.equal(response.status, 429);
      assert.equal(response.headers.get('retry-after'), '1');
      assert.match(body.message, /secondary rate limit/);
    }
  }
  assert.deepEqual([...seen].sort(), [403, 429]);
});

test('a timeout holds the request unanswered, for the time given or until close()', async () => {
  const gh = await server();
  gh.setFaults({ rate: 1, kinds: ['timeout'], timeoutMs: 300 });
  const started = Date.now();
  await assert.rejects(get(gh));
  assert.ok(Date.now() - started >= 290);
  assert.deepEqual(
    gh.calls.map((call) => [call.status, call.fault]),
    [[0, 'timeout']],
  );
  gh.setFaults({ rate: 1, kinds: ['timeout'] });
  const held = get(gh);
  const closing = Date.now();
  await gh.close();
  await assert.rejects(held);
  assert.ok(Date.now() - closing < 5000, 'close() drops held requests at once');
});

test('/_meta is never faulted nor counted', async (t) => {
  const gh = await server();
  t.after(() => gh.close());
  gh.setFaults({ rate: 1, kinds: ['500'] });
  const response = await fetch(`${gh.url}/_meta/calls`);
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), []);
  assert.equal(gh.faultsInjected.total, 0);
});

test("Octokit's retry and throttling plugins get through 30% faults with the server's headers", async (t) => {
  const gh = await server();
  t.after(() => gh.close());
  const Client = TestOctokit.plugin(retry, throttling);
  let primaryLimits = 0;
  const octokit = new Client({
    auth: 'ghp_test',
    baseUrl: gh.url,
    retry: { retryAfterBaseValue: 10 },
    throttle: {
      onRateLimit: () => {
        primaryLimits++;
        return true;
      },
      // A 429 is retried by the retry plugin, after its Retry-After.
      onSecondaryRateLimit: () => true,
    },
  });
  gh.setFaults({ rate: 0.3, kinds: ['500', 'rate-limit'], seed: 5 });
  for (let i = 0; i < 8; i++) {
    const { data } = await octokit.rest.repos.get({ owner: 'acme', repo: 'infra' });
    assert.equal(data.full_name, 'acme/infra');
  }
  const primary = gh.calls.filter((call) => call.status === 403).length;
  assert.ok(primary > 0 && gh.faultsInjected['500'] > 0, 'the seed gives both kinds');
  assert.equal(primaryLimits, primary, 'each 403 is seen as a rate limit, from x-ratelimit-remaining: 0');
});
