import assert from 'node:assert/strict';
import { createPrivateKey, sign } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createAppAuth } from '@octokit/auth-app';
import { startGitHubTestServer, type AppCredentials, type GitHubTestServer } from './index.ts';
import { TestOctokit } from './test-client.ts';

let gh: GitHubTestServer;
let app: AppCredentials;

before(async () => {
  gh = await startGitHubTestServer();
  gh.createRepository('acme', 'infra', { defaultBranch: 'main' });
  app = gh.createApp();
});
after(() => gh.close());

function jwt(claims: Record<string, unknown>, privateKeyPem = app.privateKeyPem): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode(claims)}`;
  return `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), createPrivateKey(privateKeyPem)).toString('base64url')}`;
}

async function accessTokens(token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${gh.url}/app/installations/${app.installationId}/access_tokens`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test('@octokit/auth-app gets an installation token with the JWT and reuses it', async () => {
  const octokit = new TestOctokit({
    authStrategy: createAppAuth,
    auth: { appId: app.appId, privateKey: app.privateKeyPem, installationId: app.installationId },
    baseUrl: gh.apiUrl.replace(/\/$/, ''),
  });
  const before = gh.tokensIssued;
  const sha = gh.branchHead('acme', 'infra', 'main') as string;
  await octokit.rest.repos.get({ owner: 'acme', repo: 'infra' });
  await octokit.rest.checks.create({ owner: 'acme', repo: 'infra', name: 'plan', head_sha: sha });
  assert.equal(gh.tokensIssued, before + 1);
  const tokenCall = gh.calls.find((call) => call.path === `/app/installations/${app.installationId}/access_tokens`);
  assert.equal(tokenCall?.status, 201);
});

test('an installation token lasts an hour and works as a token', async () => {
  const now = Math.floor(Date.now() / 1000);
  const { status, body } = await accessTokens(jwt({ iat: now - 30, exp: now + 540, iss: app.appId }));
  assert.equal(status, 201);
  assert.match(String(body.token), /^ghs_/);
  const lifetime = Date.parse(String(body.expires_at)) - Date.now();
  assert.ok(lifetime > 59 * 60 * 1000 && lifetime <= 60 * 60 * 1000, `expires_at is an hour ahead (${lifetime} ms)`);
  const repo = await fetch(`${gh.url}/repos/acme/infra`, { headers: { authorization: `token ${String(body.token)}` } });
  assert.equal(repo.status, 200);
  // A token is not a JWT: the App endpoints refuse it.
  assert.equal((await accessTokens(String(body.token))).status, 401);
});

test('a JWT that is expired, too long-lived, from another key or for another installation is refused', async () => {
  const now = Math.floor(Date.now() / 1000);
  const expired = await accessTokens(jwt({ iat: now - 700, exp: now - 60, iss: app.appId }));
  assert.equal(expired.status, 401);
  assert.match(String(expired.body.message), /'Expiration time' claim/);
  const tooLong = await accessTokens(jwt({ iat: now, exp: now + 3600, iss: app.appId }));
  assert.equal(tooLong.status, 401);
  assert.match(String(tooLong.body.message), /too far in the future/);
  const other = gh.createApp();
  const wrongKey = await accessTokens(jwt({ iat: now, exp: now + 500, iss: app.appId }, other.privateKeyPem));
  assert.equal(wrongKey.status, 401);
  assert.equal(wrongKey.body.message, 'A JSON web token could not be decoded');
  const response = await fetch(`${gh.url}/app/installations/${app.installationId}/access_tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${jwt({ iat: now, exp: now + 500, iss: other.appId }, other.privateKeyPem)}` },
  });
  assert.equal(response.status, 404);
});

test('a JWT may not call repository endpoints', async () => {
  const now = Math.floor(Date.now() / 1000);
  const response = await fetch(`${gh.url}/repos/acme/infra`, { headers: { authorization: `Bearer ${jwt({ iat: now, exp: now + 500, iss: app.appId })}` } });
  assert.equal(response.status, 403);
});

test('an installation token stops working when it expires', async (t) => {
  const shortLived = await startGitHubTestServer({ installationTokenLifetimeMs: 300 });
  t.after(() => shortLived.close());
  shortLived.createRepository('acme', 'infra');
  const { appId, installationId, privateKeyPem } = shortLived.createApp();
  const now = Math.floor(Date.now() / 1000);
  const issued = await fetch(`${shortLived.url}/app/installations/${installationId}/access_tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${jwt({ iat: now, exp: now + 500, iss: appId }, privateKeyPem)}` },
  });
  const { token, expires_at } = (await issued.json()) as { token: string; expires_at: string };
  assert.ok(Date.parse(expires_at) - Date.now() < 1000);
  const use = () => fetch(`${shortLived.url}/repos/acme/infra`, { headers: { authorization: `token ${token}` } });
  assert.equal((await use()).status, 200);
  await new Promise((resolve) => setTimeout(resolve, 350));
  const expired = await use();
  assert.equal(expired.status, 401);
  assert.equal(((await expired.json()) as { message: string }).message, 'Bad credentials');
});
