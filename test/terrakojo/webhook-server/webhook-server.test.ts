// The GitHub webhook server over real HTTP, against the embedded API server, with deliveries signed as GitHub
// signs them: which deliveries poke which Repositories, what every refusal answers, and that nothing is
// written when nothing should be.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Registry } from 'prom-client';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { KubeClient } from '../../../src/client/client.ts';
import { NetworkError } from '../../../src/client/errors.ts';
import { createLogger } from '../../../src/runtime/logger.ts';
import { repositoriesResource } from '../../../src/terrakojo/api/resources.ts';
import { GitHubWebhookServer, WebhookSecretMissingError, type GitHubWebhookServerOptions } from '../../../src/terrakojo/webhook-server/webhook-server.ts';
import type { TestServer } from '../../helpers/api-server.ts';
import { capturedLogger, createRepository, getRepository, startTerrakojoApi, syncRequestedAt } from './harness.ts';
import { delivery, pingPayload, pullRequestPayload, pushPayload, send } from './payloads.ts';

const SECRET = 'It\'s a Secret to Everybody';
const quiet = createLogger({ level: 'silent' });

let api: TestServer;
let client: KubeClient;
const servers: GitHubWebhookServer[] = [];

before(async () => {
  ({ api, client } = await startTerrakojoApi());
});

after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await client.close();
  await api.close();
});

async function startWebhook(options: Partial<GitHubWebhookServerOptions> = {}): Promise<GitHubWebhookServer> {
  const server = new GitHubWebhookServer({ client, logger: quiet, secret: SECRET, ...options });
  await server.listen(0, '127.0.0.1');
  servers.push(server);
  return server;
}

/** The number of writes (anything but reads) to Repositories since mark. */
function repositoryWrites(mark: number): number {
  return api.since(mark).filter((r) => r.url.includes('/repositories') && !['GET', 'HEAD'].includes(r.method)).length;
}

test('ping is answered 200 pong', async () => {
  const server = await startWebhook();
  const answer = await send(server.url, await delivery('ping', pingPayload('acme', 'ping-repo'), { secret: SECRET }));
  assert.deepEqual([answer.status, answer.message], [200, 'pong']);
});

test('a push to the default or a feature branch pokes the Repository for its repository and no other', async () => {
  const server = await startWebhook();
  await createRepository(client, 'default', 'infra', 'acme', 'infra');
  await createRepository(client, 'default', 'other', 'acme', 'other');
  const answer = await send(server.url, await delivery('push', pushPayload('acme', 'infra'), { secret: SECRET }));
  assert.deepEqual([answer.status, answer.message], [202, 'sync requested for acme/infra']);
  const stamped = syncRequestedAt(await getRepository(client, 'default', 'infra'));
  assert.match(stamped ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/, 'RFC 3339 with nanoseconds, as upstream writes it');
  assert.equal(syncRequestedAt(await getRepository(client, 'default', 'other')), undefined);
  const feature = await send(server.url, await delivery('push', pushPayload('acme', 'infra', { ref: 'refs/heads/feature/auth', after: '1'.repeat(40) }), { secret: SECRET }));
  assert.equal(feature.status, 202, feature.message);
  assert.notEqual(syncRequestedAt(await getRepository(client, 'default', 'infra')), stamped);
  assert.equal(syncRequestedAt(await getRepository(client, 'default', 'other')), undefined);
});

test('deliveries arriving together for one Repository all succeed', async () => {
  const server = await startWebhook();
  await createRepository(client, 'default', 'busy', 'acme', 'busy');
  const mark = api.mark();
  const answers = await Promise.all(Array.from({ length: 8 }, async (_, i) => send(server.url, await delivery('push', pushPayload('acme', 'busy', { after: String(i).repeat(40) }), { secret: SECRET }))));
  assert.deepEqual(answers.map((a) => a.status), Array(8).fill(202));
  const puts = api.since(mark).filter((r) => r.method === 'PUT' && r.url.includes('/repositories/busy'));
  assert.equal(puts.filter((r) => r.status === 200).length, 8, 'one stored write per delivery, conflicts retried');
});

test('a Kubernetes API that does not answer in time makes the answer 503 within the limit', async () => {
  const hanging = new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'list') return Reflect.get(target, property, receiver);
      return (_resource: unknown, options: { signal?: AbortSignal } = {}) =>
        new Promise((_resolve, reject) => options.signal?.addEventListener('abort', () => reject(options.signal?.reason as Error), { once: true }));
    },
  });
  const server = await startWebhook({ client: hanging, writeTimeoutMs: 200 });
  const started = Date.now();
  const answer = await send(server.url, await delivery('push', pushPayload('acme', 'slow'), { secret: SECRET }));
  assert.equal(answer.status, 503);
  assert.ok(Date.now() - started < 5_000, 'answered well inside GitHub\'s 10 s');
});

test('pull_request opened, synchronize and closed (and one from the default branch) each poke the Repository again', async () => {
  const server = await startWebhook();
  await createRepository(client, 'default', 'pr-repo', 'acme', 'pr-repo');
  const seen = new Set<string>();
  const fromDefaultBranch = { number: 8, head: 'main' };
  for (const [action, options] of [['opened', {}], ['synchronize', { sha: 'f'.repeat(40) }], ['closed', { merged: true }], ['opened', fromDefaultBranch]] as const) {
    const mark = api.mark();
    const answer = await send(server.url, await delivery('pull_request', pullRequestPayload('acme', 'pr-repo', action, options), { secret: SECRET }));
    assert.equal(answer.status, 202, `${action}: ${answer.message}`);
    assert.equal(repositoryWrites(mark), 1, action);
    const stamp = syncRequestedAt(await getRepository(client, 'default', 'pr-repo'));
    assert.ok(stamp !== undefined && !seen.has(stamp), `${action} wrote a new stamp`);
    seen.add(stamp);
  }
});

test('a Repository not labelled yet is found by its spec, without regard to case', async () => {
  const server = await startWebhook();
  await createRepository(client, 'default', 'unlabelled', 'acme', 'Unlabelled-Repo', { labelled: false });
  const answer = await send(server.url, await delivery('push', pushPayload('ACME', 'unlabelled-repo'), { secret: SECRET }));
  assert.equal(answer.status, 202, answer.message);
  assert.ok(syncRequestedAt(await getRepository(client, 'default', 'unlabelled')));
});

test('every Repository for the repository is poked, or only those in --namespace', async () => {
  await createRepository(client, 'team-a', 'shared', 'acme', 'shared');
  await createRepository(client, 'team-b', 'shared', 'acme', 'shared');
  const scoped = await startWebhook({ namespace: 'team-b' });
  assert.equal((await send(scoped.url, await delivery('push', pushPayload('acme', 'shared'), { secret: SECRET }))).status, 202);
  assert.equal(syncRequestedAt(await getRepository(client, 'team-a', 'shared')), undefined);
  const onlyB = syncRequestedAt(await getRepository(client, 'team-b', 'shared'));
  assert.ok(onlyB);

  const all = await startWebhook();
  assert.equal((await send(all.url, await delivery('push', pushPayload('acme', 'shared'), { secret: SECRET }))).status, 202);
  assert.ok(syncRequestedAt(await getRepository(client, 'team-a', 'shared')));
  assert.notEqual(syncRequestedAt(await getRepository(client, 'team-b', 'shared')), onlyB);
});

test('a bad or missing signature is 401 and writes nothing', async () => {
  const server = await startWebhook();
  await createRepository(client, 'default', 'guarded', 'acme', 'guarded');
  const mark = api.mark();
  const wrongSecret = await delivery('push', pushPayload('acme', 'guarded'), { secret: 'not the secret' });
  const bad = await send(server.url, wrongSecret);
  assert.deepEqual([bad.status, bad.message], [401, 'the X-Hub-Signature-256 signature does not match']);
  const tampered = await delivery('push', pushPayload('acme', 'guarded'), { secret: SECRET });
  const forged = await send(server.url, { ...tampered, body: tampered.body.replace('guarded', 'guarded ') });
  assert.equal(forged.status, 401);
  const unsigned = await delivery('push', pushPayload('acme', 'guarded'));
  const missing = await send(server.url, unsigned);
  assert.deepEqual([missing.status, missing.message], [401, 'missing X-Hub-Signature-256: the webhook must be configured with the secret']);
  assert.equal(repositoryWrites(mark), 0);
  assert.equal(api.since(mark).filter((r) => r.url.includes('/repositories')).length, 0, 'not even a read');
  assert.equal(syncRequestedAt(await getRepository(client, 'default', 'guarded')), undefined);
});

test('an event that is not handled is 202 and writes nothing', async () => {
  const server = await startWebhook();
  await createRepository(client, 'default', 'checks', 'acme', 'checks');
  const mark = api.mark();
  const answer = await send(server.url, await delivery('check_run', { action: 'completed', repository: { name: 'checks', owner: { login: 'acme' } } }, { secret: SECRET }));
  assert.deepEqual([answer.status, answer.message], [202, 'ignored: check_run events are not handled (only push, pull_request and ping are)']);
  assert.equal(api.since(mark).filter((r) => r.url.includes('/repositories')).length, 0);
});

test('a push for a repository no Repository is for is 202, ignored, and writes nothing', async () => {
  const server = await startWebhook();
  const mark = api.mark();
  const answer = await send(server.url, await delivery('push', pushPayload('acme', 'nobody-syncs-this'), { secret: SECRET }));
  assert.deepEqual([answer.status, answer.message], [202, 'ignored: no Repository is for acme/nobody-syncs-this']);
  assert.equal(repositoryWrites(mark), 0);
});

test('malformed bodies are 400 or 415 with a clear message; a form-encoded payload is accepted', async () => {
  const server = await startWebhook();
  await createRepository(client, 'default', 'formed', 'acme', 'formed');
  const signed = async (body: string, contentType: string) => {
    const d = await delivery('push', {}, { secret: SECRET });
    const { sign } = await import('@octokit/webhooks-methods');
    return { body, headers: { ...d.headers, 'content-type': contentType, 'x-hub-signature-256': await sign(SECRET, body) } };
  };
  const broken = await send(server.url, await signed('{"ref": "refs/heads/main", ', 'application/json'));
  assert.equal(broken.status, 400);
  assert.match(broken.message ?? '', /^malformed JSON payload: /);
  const notObject = await send(server.url, await signed('[1, 2]', 'application/json'));
  assert.deepEqual([notObject.status, notObject.message], [400, 'the payload is not a JSON object']);
  const noRepository = await send(server.url, await signed('{"ref": "refs/heads/main"}', 'application/json'));
  assert.deepEqual([noRepository.status, noRepository.message], [400, 'the payload has no repository.owner.login']);
  const xml = await send(server.url, await signed('<push/>', 'application/xml'));
  assert.deepEqual([xml.status, xml.message], [415, "content type application/xml is not supported: set the webhook's content type to application/json"]);
  const form = await send(server.url, await signed(new URLSearchParams({ payload: JSON.stringify(pushPayload('acme', 'formed')) }).toString(), 'application/x-www-form-urlencoded'));
  assert.equal(form.status, 202, form.message);
  assert.ok(syncRequestedAt(await getRepository(client, 'default', 'formed')));
});

test('GET is 405, GitLab is 501, a request without X-GitHub-Event is 400, a body over the limit is 413', async () => {
  const server = await startWebhook({ maxBodyBytes: 1024 });
  const get = await send(server.url, {}, 'GET');
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST');
  const gitlab = await send(server.url, { body: '{}', headers: { 'content-type': 'application/json', 'x-gitlab-event': 'Push Hook' } });
  assert.deepEqual([gitlab.status, gitlab.message], [501, 'GitLab webhooks are not supported; only GitHub deliveries are handled']);
  const anonymous = await send(server.url, { body: '{}', headers: { 'content-type': 'application/json' } });
  assert.deepEqual([anonymous.status, anonymous.message], [400, 'not a GitHub delivery: the X-GitHub-Event header is missing']);
  const large = await delivery('push', { padding: 'x'.repeat(2000), ...pushPayload('acme', 'infra') }, { secret: SECRET });
  const tooLarge = await send(server.url, large);
  assert.deepEqual([tooLarge.status, tooLarge.message], [413, 'the body is larger than 1024 bytes']);
  const elsewhere = await send(server.url.replace('/webhook', '/hooks'), await delivery('ping', {}, { secret: SECRET }));
  assert.equal(elsewhere.status, 404);
});

test('a redelivered delivery id is answered 200 duplicate and writes once', async () => {
  const server = await startWebhook();
  await createRepository(client, 'default', 'once', 'acme', 'once');
  const d = await delivery('push', pushPayload('acme', 'once'), { secret: SECRET });
  const mark = api.mark();
  assert.equal((await send(server.url, d)).status, 202);
  const first = syncRequestedAt(await getRepository(client, 'default', 'once'));
  const again = await send(server.url, d);
  assert.deepEqual([again.status, again.message], [200, 'duplicate delivery: already handled']);
  assert.equal(repositoryWrites(mark), 1);
  assert.equal(syncRequestedAt(await getRepository(client, 'default', 'once')), first);
  // The id is remembered only once the signature is good: a forged copy does not make the real one a duplicate.
  const fresh = await delivery('push', pushPayload('acme', 'once'), { secret: SECRET });
  assert.equal((await send(server.url, { ...fresh, headers: { ...fresh.headers, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` } })).status, 401);
  assert.equal((await send(server.url, fresh)).status, 202);
});

test('a conflicting write to the Repository is retried and both writes are kept', async () => {
  await createRepository(client, 'default', 'contended', 'acme', 'contended');
  let raced = false;
  // Another writer (the Repository controller, say) updates the Repository between our list and our update.
  const racing = new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'update') return Reflect.get(target, property, receiver);
      return async (resource: Parameters<KubeClient['update']>[0], obj: KubeObject, options?: Parameters<KubeClient['update']>[2]) => {
        if (!raced) {
          raced = true;
          const current = await target.get(repositoriesResource, 'contended', { namespace: 'default' });
          await target.update(repositoriesResource, { ...current, metadata: { ...current.metadata, labels: { ...current.metadata.labels, concurrent: 'writer' } } });
        }
        return target.update(resource, obj, options);
      };
    },
  });
  const server = await startWebhook({ client: racing });
  const mark = api.mark();
  const answer = await send(server.url, await delivery('push', pushPayload('acme', 'contended'), { secret: SECRET }));
  assert.equal(answer.status, 202, answer.message);
  const writes = api.since(mark).filter((r) => r.method === 'PUT' && r.url.includes('/repositories/contended'));
  assert.deepEqual(writes.map((r) => r.status), [200, 409, 200], 'the racing write, our conflicted one, our retry');
  const stored = await getRepository(client, 'default', 'contended');
  assert.equal(stored.metadata.labels?.['concurrent'], 'writer');
  assert.ok(syncRequestedAt(stored));
});

test('a Kubernetes API that is down makes the answer 503, and the redelivery is handled afresh', async () => {
  await createRepository(client, 'default', 'outage', 'acme', 'outage');
  let down = true;
  const flaky = new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'list') return Reflect.get(target, property, receiver);
      return (...args: Parameters<KubeClient['list']>) => (down ? Promise.reject(new NetworkError('connect ECONNREFUSED 127.0.0.1:6443')) : target.list(...args));
    },
  });
  const { logger, lines } = capturedLogger();
  const server = await startWebhook({ client: flaky, logger });
  const d = await delivery('push', pushPayload('acme', 'outage'), { secret: SECRET });
  const failed = await send(server.url, d);
  assert.deepEqual([failed.status, failed.message], [503, 'could not request the sync: the Kubernetes API call failed (see the webhook server log); redeliver later']);
  assert.equal(syncRequestedAt(await getRepository(client, 'default', 'outage')), undefined);
  assert.ok(lines.some((l) => l.includes('ECONNREFUSED')), 'the cause is in the log');
  down = false;
  const redelivered = await send(server.url, d);
  assert.equal(redelivered.status, 202, redelivered.message);
  assert.ok(syncRequestedAt(await getRepository(client, 'default', 'outage')));
});

test('--insecure-skip-signature accepts unsigned deliveries; without it a server needs a secret', async () => {
  assert.throws(() => new GitHubWebhookServer({ client, logger: quiet }), WebhookSecretMissingError);
  assert.throws(() => new GitHubWebhookServer({ client, logger: quiet, secret: '' }), WebhookSecretMissingError);
  await createRepository(client, 'default', 'open', 'acme', 'open');
  const server = await startWebhook({ secret: undefined, insecureSkipSignature: true });
  const answer = await send(server.url, await delivery('push', pushPayload('acme', 'open')));
  assert.equal(answer.status, 202, answer.message);
  assert.ok(syncRequestedAt(await getRepository(client, 'default', 'open')));
});

test('health endpoints answer; readiness ends with close', async () => {
  const server = await startWebhook();
  const base = server.url.replace('/webhook', '');
  assert.deepEqual([(await fetch(`${base}/healthz`)).status, await (await fetch(`${base}/readyz`)).text()], [200, 'ok\n']);
  assert.equal((await fetch(`${base}/readyz`, { method: 'POST' })).status, 405);
  assert.equal(server.ready, true);
  await server.close();
  assert.equal(server.ready, false);
  await assert.rejects(fetch(`${base}/healthz`));
});

test('the log names deliveries and outcomes but never holds the secret or the body; deliveries are counted', async () => {
  const { logger, lines } = capturedLogger();
  const registry = new Registry();
  const server = await startWebhook({ logger, registry });
  await createRepository(client, 'default', 'logged', 'acme', 'logged');
  const push = await delivery('push', pushPayload('acme', 'logged'), { secret: SECRET });
  await send(server.url, push);
  await send(server.url, push);
  await send(server.url, await delivery('push', pushPayload('acme', 'logged'), { secret: 'wrong' }));
  await send(server.url, await delivery('ping', pingPayload('acme', 'logged'), { secret: SECRET }));
  await send(server.url, await delivery('made_up_event', {}, { secret: SECRET }));
  const text = lines.join('\n');
  assert.ok(lines.some((l) => l.includes(push.headers['x-github-delivery']!) && l.includes('"outcome":"synced"') && l.includes('default/logged')), text);
  for (const needle of [SECRET, 'infra: scale the app', push.headers['x-hub-signature-256']!]) assert.ok(!text.includes(needle), `the log holds ${needle}`);
  const counted = await registry.getSingleMetric('terrakojo_webhook_deliveries_total')!.get();
  const byLabels = Object.fromEntries(counted.values.map((v) => [`${v.labels['event']}/${v.labels['outcome']}`, v.value]));
  assert.deepEqual(byLabels, { 'push/synced': 1, 'push/duplicate': 1, 'push/unauthorized': 1, 'ping/ping': 1, 'other/ignored': 1 });
});
