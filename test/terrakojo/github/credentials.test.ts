// Secret → GitHub credentials, as upstream's secret_parser.go, with the private key checked while parsing.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { parseGitHubCredentials, type GitHubSecret } from '../../../src/terrakojo/github/credentials.ts';
import { GitHubCredentialsError } from '../../../src/terrakojo/github/errors.ts';

const rsaPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

function secret(data: Record<string, string>): GitHubSecret {
  const encoded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
  return { metadata: { namespace: 'ci', name: 'github', resourceVersion: '7' }, data: encoded };
}

function rejects(s: GitHubSecret, reason: string, message: RegExp, key?: string): void {
  assert.throws(
    () => parseGitHubCredentials(s),
    (err: unknown) => {
      assert.ok(err instanceof GitHubCredentialsError, String(err));
      assert.equal(err.name, 'GitHubCredentialsError');
      assert.equal(err.reason, reason);
      assert.equal(err.secret, 'ci/github');
      assert.equal(err.key, key);
      assert.match(err.message, /^secret ci\/github: /);
      assert.match(err.message, message);
      assert.doesNotMatch(err.message, /BEGIN|ghp_/, 'no key or token in the message');
      return true;
    },
  );
}

test('a non-empty token is a personal access token, and wins over App fields', () => {
  assert.deepEqual(parseGitHubCredentials(secret({ token: 'ghp_abc\n', 'github-app-id': '1' })), { type: 'token', token: 'ghp_abc' });
});

test('an empty token falls through to the App fields', () => {
  const creds = parseGitHubCredentials(secret({ token: '', 'github-app-id': '12', 'github-installation-id': '34\n', 'github-private-key': rsaPem }));
  assert.deepEqual(creds, { type: 'app', appId: 12, installationId: 34, privateKey: rsaPem });
});

test('a PKCS#8 RSA key is accepted as well as GitHub\'s PKCS#1', () => {
  const pkcs8 = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const creds = parseGitHubCredentials(secret({ 'github-app-id': '12', 'github-installation-id': '34', 'github-private-key': pkcs8 }));
  assert.equal(creds.type, 'app');
});

test('a Secret with neither token nor App fields', () => {
  rejects(secret({}), 'NoCredentials', /secret does not contain valid GitHub credentials/);
  rejects({ metadata: { namespace: 'ci', name: 'github' } }, 'NoCredentials', /secret does not contain valid GitHub credentials/);
  rejects(secret({ token: '  \n' }), 'NoCredentials', /secret does not contain valid GitHub credentials/);
});

test('a non-numeric App id or installation id', () => {
  rejects(secret({ 'github-app-id': 'abc', 'github-installation-id': '34', 'github-private-key': rsaPem }), 'InvalidAppId', /github-app-id must be a positive integer/, 'github-app-id');
  rejects(secret({ 'github-app-id': '12', 'github-installation-id': 'x34', 'github-private-key': rsaPem }), 'InvalidInstallationId', /github-installation-id must be a positive integer/, 'github-installation-id');
  rejects(secret({ 'github-app-id': '12', 'github-installation-id': '-3', 'github-private-key': rsaPem }), 'InvalidInstallationId', /github-installation-id must be a positive integer/, 'github-installation-id');
});

test('App fields missing the installation id or the key', () => {
  rejects(secret({ 'github-app-id': '12', 'github-private-key': rsaPem }), 'MissingInstallationId', /github-installation-id is required for GitHub App authentication/, 'github-installation-id');
  rejects(secret({ 'github-app-id': '12', 'github-installation-id': '34' }), 'MissingPrivateKey', /github-private-key is required/, 'github-private-key');
});

test('a malformed private key is named, without its contents', () => {
  const truncated = rsaPem.slice(0, 200);
  rejects(secret({ 'github-app-id': '12', 'github-installation-id': '34', 'github-private-key': truncated }), 'InvalidPrivateKey', /github-private-key is not a PEM private key/, 'github-private-key');
  rejects(secret({ 'github-app-id': '12', 'github-installation-id': '34', 'github-private-key': '/etc/keys/app.pem' }), 'InvalidPrivateKey', /github-private-key is not a PEM private key/, 'github-private-key');
});

test('a key GitHub cannot sign App tokens with (not RSA) is refused', () => {
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  rejects(secret({ 'github-app-id': '12', 'github-installation-id': '34', 'github-private-key': ec }), 'InvalidPrivateKey', /github-private-key is a ec key; a GitHub App key is RSA/, 'github-private-key');
});
