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

test("rate-limit faults answer GitHub's primary 403 with a reset and its secondary 429 with Retry-After, and last", async (t) => {
  const gh = await server();
  t.after(() => gh.close());
  gh.setFaults({ rate: 1, kinds: ['rate-limit'], seed: 4 });
  const seen = new Set<number>();
  for (let i = 0; i < 6 && seen.size < 2; i++) {
    const response = await get(gh);
    const body = (await response.json()) as { message: string };
    seen.add(response.status);
    let liftsAt: number;
    if (response.status === 403) {
      assert.equal(response.headers.get('x-ratelimit-remaining'), '0');
      liftsAt = Number(response.headers.get('x-ratelimit-reset')) * 1000;
      const wait = liftsAt - Date.now();
      assert.ok(wait > 0 && wait <= 2000, `reset is a second or two ahead (${wait} ms)`);
      assert.match(body.message, /^API rate limit exceeded/);
    } else {
      assert.equal(response.status, 429);
      assert.equal(response.headers.get('retry-after'), '1');
      assert.match(body.message, /secondary rate limit/);
      liftsAt = Date.now() + 1000;
    }
    // A client that does not wait gets the same answer again.
    const again = await get(gh);
    assert.equal(again.status, response.status);
    assert.equal(again.headers.get('x-ratelimit-reset'), response.headers.get('x-ratelimit-reset'));
    await new Promise((resolve) => setTimeout(resolve, liftsAt - Date.now() + 20));
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

test("Octokit's retry and throttling plugins get through 30% faults, waiting as the server's headers say", async (t) => {
  const gh = await server();
  t.after(() => gh.close());
  const Client = TestOctokit.plugin(retry, throttling);
  let rateLimits = 0;
  const octokit = new Client({
    auth: 'ghp_test',
    baseUrl: gh.url,
    // plugin-retry would retry a 429 on its own schedule, blind to Retry-After: leave 429s to plugin-throttling.
    retry: { retryAfterBaseValue: 10, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
    throttle: {
      onRateLimit: () => {
        rateLimits++;
        return true;
      },
      onSecondaryRateLimit: () => {
        rateLimits++;
        return true;
      },
    },
  });
  gh.setFaults({ rate: 0.3, kinds: ['500', 'rate-limit'], seed: 5 });
  for (let i = 0; i < 8; i++) {
    const { data } = await octokit.rest.repos.get({ owner: 'acme', repo: 'infra' });
    assert.equal(data.full_name, 'acme/infra');
  }
  assert.ok(gh.faultsInjected['rate-limit'] > 0 && gh.faultsInjected['500'] > 0, 'the seed gives both kinds');
  // Had the client retried before the limit lifted, the server would have answered with the limit again.
  assert.equal(rateLimits, gh.faultsInjected['rate-limit'], 'every rate limit was waited out at the first try');
});
