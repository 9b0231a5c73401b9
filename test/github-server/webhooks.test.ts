import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { verify } from '@octokit/webhooks-methods';
import { startGitHubTestServer, type GitHubTestServer } from './index.ts';

const SECRET = 'webhook-secret';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let gh: GitHubTestServer;
const received: Received[] = [];
let receiverUrl: string;
let closeReceiver: () => Promise<void>;

before(async () => {
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(req.headers['x-github-event'] === 'ping' ? 200 : 202).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
  closeReceiver = () => new Promise((resolve) => receiver.close(() => resolve()));
  gh = await startGitHubTestServer();
  gh.createRepository('acme', 'infra', { defaultBranch: 'main' });
  gh.addWebhook('acme', 'infra', { url: receiverUrl, secret: SECRET });
});
after(async () => {
  await gh.close();
  await closeReceiver();
});

/** The deliveries of `event` received since `from`, each checked for a valid signature. */
async function receivedSince(from: number, event: string): Promise<{ guid: string; payload: any }[]> {
  await gh.deliveriesSettled();
  const out: { guid: string; payload: any }[] = [];
  for (const { headers, body } of received.slice(from)) {
    assert.equal(headers['content-type'], 'application/json');
    assert.ok(await verify(SECRET, body, String(headers['x-hub-signature-256'])), 'the signature verifies with the secret');
    assert.equal(await verify('another-secret', body, String(headers['x-hub-signature-256'])), false);
    if (headers['x-github-event'] === event) out.push({ guid: String(headers['x-github-delivery']), payload: JSON.parse(body) });
  }
  return out;
}

test('a new hook is pinged', async () => {
  const [ping] = await receivedSince(0, 'ping');
  assert.ok(ping);
  assert.equal(ping.payload.repository.full_name, 'acme/infra');
  assert.equal(gh.deliveries[0]?.status, 200);
});

test('a commit delivers a signed push with its commits', async () => {
  const mark = received.length;
  const before = gh.branchHead('acme', 'infra', 'main');
  const sha = gh.commit('acme', 'infra', { branch: 'main', files: ['infra/app/main.tf', 'README.md'] });
  const [push] = await receivedSince(mark, 'push');
  assert.ok(push);
  assert.match(push.guid, /^[0-9a-f-]{36}$/);
  assert.equal(push.payload.ref, 'refs/heads/main');
  assert.equal(push.payload.before, before);
  assert.equal(push.payload.after, sha);
  assert.deepEqual(push.payload.commits.map((c: { id: string }) => c.id), [sha]);
  assert.deepEqual(push.payload.commits[0].added, ['infra/app/main.tf']);
  assert.deepEqual(push.payload.commits[0].modified, ['README.md']);
  assert.equal(push.payload.repository.name, 'infra');
  assert.equal(push.payload.repository.owner.login, 'acme');
  assert.equal(push.payload.repository.owner.name, 'acme');
  assert.equal(push.payload.repository.default_branch, 'main');
  assert.equal(gh.deliveries.at(-1)?.status, 202);
});

test('pull requests deliver opened, synchronize and closed', async () => {
  const mark = received.length;
  gh.commit('acme', 'infra', { branch: 'feature/x', files: ['a.tf'] });
  const number = gh.openPullRequest('acme', 'infra', { head: 'feature/x', base: 'main' });
  const next = gh.commit('acme', 'infra', { branch: 'feature/x', files: ['b.tf'] });
  gh.closePullRequest('acme', 'infra', number, { merged: false });
  const events = await receivedSince(mark, 'pull_request');
  assert.deepEqual(
    events.map((e) => [e.payload.action, e.payload.number, e.payload.pull_request.head.ref, e.payload.pull_request.base.ref, e.payload.pull_request.merged]),
    [
      ['opened', number, 'feature/x', 'main', false],
      ['synchronize', number, 'feature/x', 'main', false],
      ['closed', number, 'feature/x', 'main', false],
    ],
  );
  assert.equal(events[1]?.payload.pull_request.head.sha, next);
  assert.equal(events[1]?.payload.after, next);
});

test('a redelivery carries the same delivery GUID; any event can be sent', async () => {
  const mark = received.length;
  const [sent] = gh.deliver('acme', 'infra', 'check_suite', { action: 'requested' });
  assert.ok(sent);
  gh.redeliver(sent.guid);
  const events = await receivedSince(mark, 'check_suite');
  assert.deepEqual(
    events.map((e) => [e.guid, e.payload.action]),
    [
      [sent.guid, 'requested'],
      [sent.guid, 'requested'],
    ],
  );
  assert.deepEqual(
    gh.deliveries.slice(-2).map((d) => d.redelivery),
    [false, true],
  );
});

test('an unreachable receiver is recorded with status 0', async () => {
  gh.createRepository('acme', 'lonely');
  const hookId = gh.addWebhook('acme', 'lonely', { url: 'http://127.0.0.1:1/webhook', secret: SECRET, events: ['push'] });
  gh.commit('acme', 'lonely', { branch: 'main', files: ['x'] });
  await gh.deliveriesSettled();
  const lonely = gh.deliveries.filter((d) => d.hookId === hookId);
  assert.deepEqual(
    lonely.map((d) => [d.event, d.status]),
    [
      ['ping', 0],
      ['push', 0],
    ],
  );
  assert.ok(lonely[1]?.error);
});
