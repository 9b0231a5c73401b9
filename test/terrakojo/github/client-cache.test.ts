// GitHubClients: Secrets read from the embedded API server, GitHub played by the test server. One client per Secret
// resourceVersion, so an App installation token is minted once and reused across reconciles and controllers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { namespacesResource, secretsResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../../src/client/client.ts';
import { createKubeClient } from '../../../src/client/create-client.ts';
import { NotFoundError } from '../../../src/client/errors.ts';
import type { Repository } from '../../../src/terrakojo/api/types.ts';
import { GitHubClients } from '../../../src/terrakojo/github/client-cache.ts';
import type { GitHubSecret } from '../../../src/terrakojo/github/credentials.ts';
import { githubEndpoints } from '../../../src/terrakojo/github/endpoints.ts';
import { GitHubCredentialsError } from '../../../src/terrakojo/github/errors.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';
import { startGitHubTestServer, type AppCredentials, type GitHubTestServer } from '../../github-server/index.ts';

let gh: GitHubTestServer;
let api: TestServer;
let kube: KubeClient;
let clients: GitHubClients;
let app: AppCredentials;

before(async () => {
  gh = await startGitHubTestServer();
  gh.createRepository('acme', 'infra', { defaultBranch: 'main' });
  gh.commit('acme', 'infra', { branch: 'main', files: ['main.tf'] });
  app = gh.createApp();
  api = await startTestServer();
  kube = createKubeClient({ kubeconfigPath: api.kubeconfigFile });
  for (const namespace of ['ci', 'secrets']) await kube.create(namespacesResource, { metadata: { name: namespace } });
  const readSecret = async (namespace: string, name: string) => (await kube.get(secretsResource, name, { namespace })) as unknown as GitHubSecret;
  clients = new GitHubClients(readSecret, { endpoints: githubEndpoints({ GITHUB_API_URL: gh.apiUrl }), writeIntervalMs: 0, retryBaseMs: 10, requestTimeoutMs: 2000 });
});
after(async () => {
  await kube.close();
  await api.close();
  await gh.close();
});

function appData(credentials: AppCredentials): Record<string, string> {
  return { 'github-app-id': String(credentials.appId), 'github-installation-id': String(credentials.installationId), 'github-private-key': credentials.privateKeyPem };
}

async function putSecret(namespace: string, name: string, data: Record<string, string>): Promise<void> {
  const encoded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
  const secret: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque', data: encoded };
  let resourceVersion: string | undefined;
  try {
    resourceVersion = (await kube.get(secretsResource, name, { namespace })).metadata.resourceVersion;
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
  if (resourceVersion === undefined) await kube.create(secretsResource, secret);
  else await kube.update(secretsResource, { ...secret, metadata: { ...secret.metadata, resourceVersion } });
}

function repository(name: string, secretRef: Repository['spec']['githubSecretRef']): Repository {
  return { apiVersion: 'terrakojo.io/v1alpha1', kind: 'Repository', metadata: { name, namespace: 'ci' }, spec: { owner: 'acme', name: 'infra', type: 'github', defaultBranch: 'main', githubSecretRef: secretRef } };
}

async function credentialsError(repo: Repository): Promise<GitHubCredentialsError> {
  try {
    await clients.forRepository(repo);
  } catch (err) {
    assert.ok(err instanceof GitHubCredentialsError, String(err));
    assert.equal(err.name, 'GitHubCredentialsError');
    return err;
  }
  assert.fail('forRepository succeeded');
}

test('one client, and one App installation token, per Secret version across repositories and reconciles', async () => {
  await putSecret('ci', 'github-app', appData(app));
  const issued = gh.tokensIssued;
  const infra = repository('infra', { name: 'github-app' });
  const explicit = repository('infra-explicit', { name: 'github-app', namespace: 'ci' });

  const concurrent = await Promise.all([clients.forRepository(infra), clients.forRepository(explicit), clients.forRepository(infra)]);
  const first = concurrent[0];
  assert.ok(concurrent.every((c) => c === first), 'concurrent first reconciles share one client');
  const head = await first.getBranchHead('acme', 'infra', 'main');
  for (let reconcile = 0; reconcile < 3; reconcile++) {
    const github = await clients.forRepository(reconcile % 2 ? infra : explicit);
    assert.equal(github, first);
    assert.equal(await github.getBranchHead('acme', 'infra', 'main'), head);
    await github.listBranches('acme', 'infra');
  }
  assert.equal(gh.tokensIssued - issued, 1);

  // The Secret changes (a new App): a new client with its own token; the old one is dropped.
  const rotated = gh.createApp();
  await putSecret('ci', 'github-app', appData(rotated));
  const next = await clients.forRepository(infra);
  assert.notEqual(next, first);
  assert.equal(await next.getBranchHead('acme', 'infra', 'main'), head);
  assert.equal(await clients.forRepository(explicit), next);
  await (await clients.forRepository(infra)).listOpenPullRequests('acme', 'infra');
  assert.equal(gh.tokensIssued - issued, 2);
  assert.deepEqual(
    gh.calls.filter((c) => c.path.startsWith('/app/')).map((c) => c.path),
    [`/app/installations/${app.installationId}/access_tokens`, `/app/installations/${rotated.installationId}/access_tokens`],
  );
});

test('a PAT Secret in another namespace, named by githubSecretRef.namespace', async () => {
  gh.addToken('ghp_cache_test');
  await putSecret('secrets', 'github-pat', { token: 'ghp_cache_test\n' });
  const github = await clients.forRepository(repository('pat', { name: 'github-pat', namespace: 'secrets' }));
  assert.equal(await github.getBranchHead('acme', 'infra', 'main'), gh.branchHead('acme', 'infra', 'main'));
  // The Repository's own namespace has no such Secret.
  const missing = await credentialsError(repository('pat-default', { name: 'github-pat' }));
  assert.equal(missing.reason, 'SecretNotFound');
  assert.equal(missing.message, 'secret ci/github-pat: not found');
});

test('bad Secrets: each a GitHubCredentialsError with its reason and message', async () => {
  const cases: [Record<string, string>, string, RegExp][] = [
    [{}, 'NoCredentials', /^secret ci\/bad: secret does not contain valid GitHub credentials/],
    [{ ...appData(app), 'github-private-key': '-----BEGIN RSA PRIVATE KEY-----\nnot a key\n-----END RSA PRIVATE KEY-----\n' }, 'InvalidPrivateKey', /^secret ci\/bad: github-private-key is not a PEM private key/],
    [{ ...appData(app), 'github-installation-id': 'forty-two' }, 'InvalidInstallationId', /^secret ci\/bad: github-installation-id must be a positive integer$/],
  ];
  for (const [data, reason, message] of cases) {
    await putSecret('ci', 'bad', data);
    const err = await credentialsError(repository('bad', { name: 'bad' }));
    assert.equal(err.reason, reason);
    assert.match(err.message, message);
  }
});

test('a Secret that turns bad stops its cached client from being handed out', async () => {
  await putSecret('ci', 'turns-bad', appData(app));
  const repo = repository('turns-bad', { name: 'turns-bad' });
  await (await clients.forRepository(repo)).getBranchHead('acme', 'infra', 'main');
  await putSecret('ci', 'turns-bad', { 'github-app-id': String(app.appId) });
  assert.equal((await credentialsError(repo)).reason, 'MissingInstallationId');
  await kube.delete(secretsResource, 'turns-bad', { namespace: 'ci' });
  assert.equal((await credentialsError(repo)).reason, 'SecretNotFound');
});
