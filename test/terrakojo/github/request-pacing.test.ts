// The GitHub client's pacing hook on its own, with a stand-in for Octokit's request: the limits it keeps and the
// waits it takes (octokit-client.test.ts drives the same rules against the GitHub test server).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RequestError } from '@octokit/request-error';
import { pacedRequest, rateLimitRetryAfterSeconds, type RequestPacingOptions } from '../../../src/terrakojo/github/request-pacing.ts';

let ids = 0;
function hook(options: Partial<RequestPacingOptions> = {}) {
  return pacedRequest({ id: `pacing-test-${ids++}`, writeIntervalMs: 0, retries: 3, retryBaseMs: 10, onRateLimit: () => true, ...options });
}

function answer(status: number, headers: Record<string, string> = {}, message = `HTTP ${status}`): RequestError {
  return new RequestError(message, status, {
    request: { method: 'GET', url: 'https://api.github.test/x', headers: {} },
    response: { status, url: 'https://api.github.test/x', headers, data: {} },
  });
}

const get = { method: 'GET', url: '/repos/acme/infra/branches' };

test('at most 10 requests at a time per id; an installation token request is not held behind them', async () => {
  const paced = hook();
  let active = 0;
  let most = 0;
  const release: (() => void)[] = [];
  const held = () =>
    new Promise<string>((resolve) => {
      most = Math.max(most, ++active);
      release.push(() => {
        active--;
        resolve('ok');
      });
    });
  const calls = Array.from({ length: 25 }, () => paced(held, get));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(active, 10);
  // The token every waiting request needs must not wait for them.
  assert.equal(await paced(() => 'token', { method: 'POST', url: '/app/installations/1/access_tokens' }), 'token');
  while (release.length > 0) {
    release.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.deepEqual(new Set(await Promise.all(calls)), new Set(['ok']));
  assert.equal(most, 10);
});

test('the starts of writes are spaced by writeIntervalMs, reads are not', async () => {
  const paced = hook({ writeIntervalMs: 100 });
  const starts: number[] = [];
  const t0 = performance.now();
  const started = () => {
    starts.push(performance.now() - t0);
    return 'ok';
  };
  await Promise.all([0, 1, 2].map(() => paced(started, { method: 'POST', url: '/repos/acme/infra/check-runs' })));
  for (let i = 1; i < starts.length; i++) assert.ok((starts[i] ?? 0) - (starts[i - 1] ?? 0) >= 95, `writes started at ${starts.join(', ')} ms`);
  starts.length = 0;
  await Promise.all([0, 1, 2].map(() => paced(started, get)));
  assert.ok((starts[2] ?? 0) - (starts[0] ?? 0) < 50, `reads started at ${starts.join(', ')} ms`);
});

test('a 5xx or a request without an answer is retried with n² backoff, as often as request.retries allows', async () => {
  const paced = hook({ retries: 2, retryBaseMs: 20 });
  let attempts = 0;
  const failingWith = (status: number) => () => {
    attempts++;
    throw answer(status);
  };
  const failing = failingWith(502);
  const started = performance.now();
  await assert.rejects(paced(failing, get), (err) => err instanceof RequestError && err.status === 502);
  assert.equal(attempts, 3);
  // 1² + 2² units.
  assert.ok(performance.now() - started >= 95, `${performance.now() - started} ms`);

  attempts = 0;
  await assert.rejects(paced(failing, { ...get, request: { retries: 0 } }));
  assert.equal(attempts, 1, 'request.retries: 0 sends once');

  for (const status of [400, 401, 404, 422]) {
    attempts = 0;
    await assert.rejects(paced(failingWith(status), get));
    assert.equal(attempts, 1, `${status} is not retried`);
  }
});

test('a rate limit is waited out as long as onRateLimit agrees, counting its own retries', async () => {
  const asked: [number, number][] = [];
  const paced = hook({ onRateLimit: (seconds, count) => (asked.push([seconds, count]), count < 1) });
  let attempts = 0;
  const started = performance.now();
  await assert.rejects(
    paced(() => {
      attempts++;
      throw answer(429, { 'retry-after': '0' });
    }, get),
    (err) => err instanceof RequestError && err.status === 429,
  );
  assert.equal(attempts, 2);
  assert.deepEqual(asked, [
    [0, 0],
    [0, 1],
  ]);
  assert.ok(performance.now() - started < 500);
});

test('how long a rate-limited answer says to wait', () => {
  const reset = String(Math.floor(Date.now() / 1000) + 10);
  const cases: [string, RequestError, number | undefined][] = [
    ['429 with Retry-After', answer(429, { 'retry-after': '7' }), 7],
    ['403 with Retry-After', answer(403, { 'retry-after': '3' }), 3],
    ['a secondary limit without Retry-After: a minute', answer(403, {}, 'You have exceeded a secondary rate limit.'), 60],
    ['the primary limit: a second past its reset', answer(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }), 11],
    ['an exhausted limit without a reset to wait for', answer(403, { 'x-ratelimit-remaining': '0' }), undefined],
    ['a 403 that is no rate limit', answer(403, { 'x-ratelimit-remaining': '4999' }, 'Resource not accessible by integration'), undefined],
    ['a 500', answer(500, { 'retry-after': '1' }), undefined],
  ];
  for (const [name, err, seconds] of cases) {
    const got = rateLimitRetryAfterSeconds(err);
    if (seconds === 11) assert.ok(got === 10 || got === 11, `${name}: ${got}`);
    else assert.equal(got, seconds, name);
  }
});

test('an aborted caller stops waiting out a rate limit at once and sends nothing more', async () => {
  const paced = hook();
  const caller = new AbortController();
  let attempts = 0;
  const started = performance.now();
  setTimeout(() => caller.abort(new Error('leadership lost')), 50);
  await assert.rejects(
    paced(() => {
      attempts++;
      throw answer(429, { 'retry-after': '30' });
    }, { ...get, request: { signal: caller.signal } }),
    (err: Error) => err.name === 'AbortError',
  );
  assert.ok(performance.now() - started < 1000, `${performance.now() - started} ms`);
  assert.equal(attempts, 1);
});
