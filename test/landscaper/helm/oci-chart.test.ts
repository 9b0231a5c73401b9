// chart.ref: Helm charts from OCI registries. Charts are packaged and pushed with the real helm binary (`helm
// package`, `helm push … oci:// --plain-http`) into Debian's docker-registry on 127.0.0.1, anonymous and with
// htpasswd, and deployed by the helm deployer onto a real embedded target cluster; bad references fail the item
// naming the cause (the registry's 404, the refused host:port, the 401, a corrupted layer).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { secretsResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { DeployItem } from '../../../src/landscaper/api/deploy-item.ts';
import { contextsResource, deployItemsResource, targetsResource } from '../../../src/landscaper/api/resources.ts';
import { registerHelmDeployer, type HelmDeployerHandle } from '../../../src/landscaper/deployers/helm/index.ts';
import type { Manager } from '../../../src/runtime/manager.ts';
import { helmBinary } from '../../helpers/helm-binary.ts';
import { startTestRegistry, type TestRegistry } from '../../helpers/test-registry.ts';
import { createNamespace, deleteItem, deployItem, getItem, startManager, startServer, trigger, waitFinished, type Server } from '../deployer-harness.ts';

const TESTDATA = join(import.meta.dirname, 'testdata');
const CHART_01 = join(TESTDATA, 'test/integration/deployers/helmdeployer/testdata/01/chart');
const CHART_01_UPDATED = join(TESTDATA, 'test/integration/deployers/helmdeployer/testdata/01_updated/chart');
const HELM = 'landscaper.gardener.cloud/helm';
const ns = 'oci';
const configMaps = { group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' };

let ls: Server;
let remote: Server;
let mgr: Manager;
let handle: HelmDeployerHandle;
let registry: TestRegistry;
let privateRegistry: TestRegistry;
let work: string;
/** `helm push`'s digest of the chart 01 manifest in the anonymous registry. */
let pushedDigest = '';

const config = (name: string, ref: string): DeployItem['spec']['config'] =>
  ({ apiVersion: 'helm.deployer.landscaper.gardener.cloud/v1alpha1', kind: 'ProviderConfiguration', helmDeployment: false, name: 'test', namespace: name, createNamespace: true, chart: { ref } }) as DeployItem['spec']['config'];

/** The real helm, with its config, cache and registry logins kept in this test's directory; stdout and stderr. */
function helm(...args: string[]): string {
  const env = { ...process.env, HELM_CONFIG_HOME: join(work, 'config'), HELM_CACHE_HOME: join(work, 'cache'), HELM_DATA_HOME: join(work, 'data') };
  const result = spawnSync(helmBinary(), args, { env, encoding: 'utf8' });
  assert.equal(result.status, 0, `helm ${args.join(' ')}: ${result.stderr}`);
  return result.stdout + result.stderr;
}

/** `helm package` of a chart directory into its own folder; returns the .tgz path. */
function helmPackage(chartDir: string, into: string): string {
  const dir = join(work, into);
  helm('package', chartDir, '-d', dir);
  const [file] = readdirSync(dir);
  assert.ok(file, `helm package wrote nothing into ${dir}`);
  return join(dir, file);
}

/** `helm push --plain-http`; returns the manifest digest helm prints. */
function helmPush(tgz: string, target: string): string {
  const out = helm('push', tgz, target, '--plain-http');
  const digest = /Digest: (sha256:[a-f0-9]{64})/.exec(out)?.[1];
  assert.ok(digest, `helm push printed no digest: ${out}`);
  return digest;
}

async function run(name: string, ref: string, context?: string): Promise<DeployItem> {
  const existing = await getItem(ls.client, ns, name);
  if (existing) await ls.client.update(deployItemsResource, { ...existing, spec: { ...existing.spec, config: config(name, ref) } });
  else await ls.client.create(deployItemsResource, deployItem(name, ns, { type: HELM, target: { name: 'remote', namespace: ns }, config: config(name, ref), ...(context ? { context } : {}) }));
  const job = await trigger(ls.client, ns, name);
  return waitFinished(ls.client, ns, name, job, 20_000);
}

const remove = (name: string): Promise<void> => deleteItem(ls.client, ns, name, 20_000);

const remoteConfigMap = (namespace: string): Promise<KubeObject | undefined> => remote.client.get(configMaps, 'mychart-configmap', { namespace }).catch(() => undefined);

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'bosun-oci-chart-'));
  [registry, privateRegistry] = await Promise.all([startTestRegistry(), startTestRegistry({ htpasswd: { alice: 's3cret' } })]);
  const chart01 = helmPackage(CHART_01, '01');
  pushedDigest = helmPush(chart01, `oci://${registry.host}/charts`);
  helmPush(helmPackage(CHART_01_UPDATED, '01_updated'), `oci://${registry.host}/updated`);
  helm('registry', 'login', privateRegistry.host, '--username', 'alice', '--password', 's3cret', '--insecure');
  helmPush(chart01, `oci://${privateRegistry.host}/charts`);

  ls = await startServer();
  remote = await startServer(false);
  await createNamespace(ls.client, ns);
  await ls.client.create(targetsResource, { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Target', metadata: { name: 'remote', namespace: ns }, spec: { type: 'landscaper.gardener.cloud/kubernetes-cluster', config: { kubeconfig: remote.server.kubeconfig } } });
  mgr = startManager(ls.client);
  handle = registerHelmDeployer(mgr, { unreachableGraceMs: 300, targetRequestTimeoutMs: 2000, watchLingerMs: 100, errorBackoff: { initialMs: 50, maxMs: 200 } });
  await mgr.start();
});

after(async () => {
  await mgr?.stop();
  await handle?.close();
  await remote?.close();
  await ls?.close();
  await Promise.all([registry?.stop(), privateRegistry?.stop()]);
  rmSync(work, { recursive: true, force: true });
});

describe('charts from an OCI registry (chart.ref)', () => {
  test('a chart helm pushed deploys by tag, updates to another ref, and deletes', async () => {
    const first = await run('bytag', `${registry.host}/charts/test-chart:v0.1.0`);
    assert.equal(first.status?.phase, 'Succeeded', first.status?.lastError?.message);
    assert.deepEqual((await remoteConfigMap('bytag'))?.['data'], { key: 'value' });
    const requests = await registry.requests();
    assert.ok(requests.some((r) => r.method === 'GET' && r.path === '/v2/charts/test-chart/manifests/v0.1.0' && r.status === 200), JSON.stringify(requests));

    const second = await run('bytag', `oci://${registry.host}/updated/test-chart:v0.1.0`);
    assert.equal(second.status?.phase, 'Succeeded', second.status?.lastError?.message);
    assert.deepEqual((await remoteConfigMap('bytag'))?.['data'], { key: 'value_updated' });
    await remove('bytag');
    assert.equal(await remoteConfigMap('bytag'), undefined);
  });

  test('a tag pinned to helm push\'s digest is fetched by that digest', async () => {
    const di = await run('bydigest', `oci://${registry.host}/charts/test-chart:v0.1.0@${pushedDigest}`);
    assert.equal(di.status?.phase, 'Succeeded', di.status?.lastError?.message);
    const requests = await registry.requests();
    assert.ok(requests.some((r) => r.method === 'GET' && r.path === `/v2/charts/test-chart/manifests/${pushedDigest}` && r.status === 200), JSON.stringify(requests));
    await remove('bydigest');
  });

  test('a chart with the legacy layer media type application/tar+gzip', async () => {
    await pushLegacyChart(registry, 'legacy/test-chart', 'v0.1.0', execFileSync('tar', ['-C', join(CHART_01, '..'), '-czf', '-', 'chart']));
    const di = await run('legacy', `${registry.host}/legacy/test-chart:v0.1.0`);
    assert.equal(di.status?.phase, 'Succeeded', di.status?.lastError?.message);
    assert.deepEqual((await remoteConfigMap('legacy'))?.['data'], { key: 'value' });
    await remove('legacy');
  });

  test('a private registry: 401 without credentials, Succeeded with the Context\'s registryPullSecrets', async () => {
    const ref = `${privateRegistry.host}/charts/test-chart:v0.1.0`;
    const denied = await run('private', ref);
    assert.equal(denied.status?.phase, 'Failed');
    assert.match(denied.status?.lastError?.message ?? '', new RegExp(`chart\\.ref ${ref.replace(/\./g, '\\.')}: pull access denied for charts/test-chart on registry ${privateRegistry.host}: 401 Unauthorized`));
    assert.equal(denied.status?.lastError?.reason, 'ChartRepositoryUnauthorized');
    await remove('private');

    const auths = { auths: { [privateRegistry.host]: { auth: Buffer.from('alice:s3cret').toString('base64') } } };
    await ls.client.create(secretsResource, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'registry', namespace: ns }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from(JSON.stringify(auths)).toString('base64') } });
    await ls.client.create(contextsResource, { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Context', metadata: { name: 'private', namespace: ns }, registryPullSecrets: [{ name: 'registry' }] });
    const allowed = await run('private2', ref, 'private');
    assert.equal(allowed.status?.phase, 'Succeeded', allowed.status?.lastError?.message);
    assert.deepEqual((await remoteConfigMap('private2'))?.['data'], { key: 'value' });
    await remove('private2');
  });
});

describe('bad references fail the item, naming the cause', () => {
  const failed = async (name: string, ref: string, reason: string, pattern: RegExp): Promise<void> => {
    const di = await run(name, ref);
    assert.equal(di.status?.phase, 'Failed');
    assert.match(di.status?.lastError?.message ?? '', pattern);
    assert.equal(di.status?.lastError?.reason, reason);
    await remove(name);
  };

  test('a tag the registry does not have: its 404, naming the registry', () =>
    failed('notag', `${registry.host}/charts/test-chart:v9.9.9`, 'ChartNotFound', /manifest 127\.0\.0\.1:\d+\/charts\/test-chart:v9\.9\.9: not found \(manifest unknown\)/));

  test('a reference without a tag, as upstream refuses it', () => failed('untagged', `${registry.host}/charts/test-chart`, 'InvalidChartRef', /no tag specified in reference 127\.0\.0\.1:\d+\/charts\/test-chart$/));

  test('an unreachable registry: connection refused, naming host:port', () =>
    failed('unreachable', '127.0.0.1:1/charts/test-chart:v0.1.0', 'ChartRepositoryUnreachable', /registry endpoint http:\/\/127\.0\.0\.1:1\/v2 is unreachable .*ECONNREFUSED 127\.0\.0\.1:1/));

  test('a chart layer corrupted in the registry\'s storage fails its digest check', async () => {
    // Its own chart bytes (01_updated), so no other test's blob is the one overwritten, with the same length.
    const layer = await pushLegacyChart(registry, 'corrupt/test-chart', 'v0.1.0', execFileSync('tar', ['-C', join(CHART_01_UPDATED, '..'), '-czf', '-', 'chart']));
    const hex = layer.digest.slice('sha256:'.length);
    writeFileSync(join(registry.storageDir, 'docker/registry/v2/blobs/sha256', hex.slice(0, 2), hex, 'data'), Buffer.alloc(layer.size, 'x'));
    await failed('corrupt', `${registry.host}/corrupt/test-chart:v0.1.0`, 'ChartDigestMismatch', new RegExp(`blob ${layer.digest} failed verification: the content received has digest sha256:`));
  });
});

/**
 * Pushes a chart as Helm before 3.7 did (layer application/tar+gzip) through the registry API: monolithic blob
 * uploads, then the manifest. Returns the layer's descriptor.
 */
async function pushLegacyChart(target: TestRegistry, repository: string, tag: string, tgz: Buffer): Promise<{ digest: string; size: number }> {
  const upload = async (bytes: Buffer): Promise<{ digest: string; size: number }> => {
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    const started = await fetch(`${target.url}/v2/${repository}/blobs/uploads/`, { method: 'POST' });
    assert.equal(started.status, 202);
    const location = new URL(started.headers.get('location') ?? '', target.url);
    location.searchParams.set('digest', digest);
    const put = await fetch(location, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(put.status, 201, await put.text());
    return { digest, size: bytes.length };
  };
  const config = await upload(Buffer.from(JSON.stringify({ apiVersion: 'v2', name: 'test-chart', version: tag })));
  const layer = await upload(tgz);
  const manifest = {
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.cncf.helm.config.v1+json', ...config },
    layers: [{ mediaType: 'application/tar+gzip', ...layer }],
  };
  const put = await fetch(`${target.url}/v2/${repository}/manifests/${tag}`, { method: 'PUT', body: JSON.stringify(manifest), headers: { 'content-type': manifest.mediaType } });
  assert.equal(put.status, 201, await put.text());
  return layer;
}
