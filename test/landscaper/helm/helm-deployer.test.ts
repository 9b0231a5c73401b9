// The helm deployer against a real embedded target cluster with upstream Landscaper's own test charts (copied
// unchanged under testdata/): archives in the configuration, at a URL, and in a chart repository served over
// HTTP on 127.0.0.1; deploy, update, export and delete in helm-free mode; bad input Failed, naming the cause.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { secretsResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { DeployItem } from '../../../src/landscaper/api/deploy-item.ts';
import { deployItemsResource, targetsResource } from '../../../src/landscaper/api/resources.ts';
import { registerHelmDeployer, type HelmDeployerHandle } from '../../../src/landscaper/deployers/helm/index.ts';
import { createHelmActions } from '../../../src/landscaper/deployers/helm/release/helm-actions.ts';
import type { Manager } from '../../../src/runtime/manager.ts';
import { createNamespace, deleteItem, deployItem, getItem, secretData, startManager, startServer, trigger, waitFinished, type Server } from '../deployer-harness.ts';

const TESTDATA = join(import.meta.dirname, 'testdata');
const upstream = (path: string): string => join(TESTDATA, path);
const HELM = 'landscaper.gardener.cloud/helm';
const ns = 'helm';
const configMaps = { group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' };
const secrets = secretsResource;
const crds = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', namespaced: false, kind: 'CustomResourceDefinition' };

/** A chart directory packed as `helm package` lays it out: the chart's files under one top directory. */
function pack(chartDir: string): Buffer {
  return execFileSync('tar', ['-C', dirname(chartDir), '-czf', '-', basename(chartDir)]);
}

const config = (extra: Record<string, unknown>): DeployItem['spec']['config'] =>
  ({ apiVersion: 'helm.deployer.landscaper.gardener.cloud/v1alpha1', kind: 'ProviderConfiguration', helmDeployment: false, ...extra }) as DeployItem['spec']['config'];

let ls: Server;
let remote: Server;
let mgr: Manager;
let handle: HelmDeployerHandle;
let repo: HttpServer;
let repoUrl = '';
const served = new Map<string, Buffer>();

async function run(name: string, cfg: DeployItem['spec']['config'], timeout?: string): Promise<DeployItem> {
  const existing = await getItem(ls.client, ns, name);
  if (existing) await ls.client.update(deployItemsResource, { ...existing, spec: { ...existing.spec, config: cfg } });
  else await ls.client.create(deployItemsResource, deployItem(name, ns, { type: HELM, target: { name: 'remote', namespace: ns }, config: cfg, ...(timeout ? { timeout } : {}) }));
  const job = await trigger(ls.client, ns, name);
  return waitFinished(ls.client, ns, name, job, 20_000);
}

const remove = (name: string): Promise<void> => deleteItem(ls.client, ns, name, 20_000);

const remoteGet = (kind: typeof configMaps, name: string, namespace: string): Promise<KubeObject | undefined> => remote.client.get(kind, name, { namespace }).catch(() => undefined);

before(async () => {
  ls = await startServer();
  remote = await startServer(false);
  await createNamespace(ls.client, ns);
  await ls.client.create(targetsResource, { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Target', metadata: { name: 'remote', namespace: ns }, spec: { type: 'landscaper.gardener.cloud/kubernetes-cluster', config: { kubeconfig: remote.server.kubeconfig } } });
  mgr = startManager(ls.client);
  handle = registerHelmDeployer(mgr, { unreachableGraceMs: 300, targetRequestTimeoutMs: 2000, watchLingerMs: 100, errorBackoff: { initialMs: 50, maxMs: 200 } });
  await mgr.start();
  // A chart repository: index.yaml and archives, as `helm repo index` lays them out (URLs relative to it).
  served.set('/charts/test-chart-v0.1.0.tgz', readFileSync(upstream('test/integration/deployers/helmdeployer/testdata/01/chart.tgz')));
  served.set('/charts/test-chart2-v0.1.0.tgz', pack(upstream('test/integration/deployers/helmdeployer/testdata/02_export/chart')));
  served.set('/charts/index.yaml', Buffer.from(['apiVersion: v1', 'entries:', '  test-chart:', '  - name: test-chart', '    version: v0.1.0', '    urls: [test-chart-v0.1.0.tgz]', '  test-chart2:', '  - name: test-chart2', '    version: v0.1.0', '    urls: [test-chart2-v0.1.0.tgz]', ''].join('\n')));
  served.set('/updated/chart.tgz', pack(upstream('test/integration/deployers/helmdeployer/testdata/01_updated/chart')));
  repo = createServer((req, res) => {
    const body = served.get(req.url ?? '');
    res.writeHead(body ? 200 : 404).end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => repo.listen(0, '127.0.0.1', resolve));
  repoUrl = `http://127.0.0.1:${(repo.address() as AddressInfo).port}`;
});

after(async () => {
  await mgr.stop();
  await handle.close();
  await new Promise((resolve) => repo.close(resolve));
  await remote.close();
  await ls.close();
});

describe('helm-free mode', () => {
  test('the guided tour\'s hello-world archive deploys into a new namespace, updates with values, and deletes', async () => {
    const raw = readFileSync(upstream('docs/guided-tour/hello-world/chart/hello-world-1.0.0.tgz')).toString('base64');
    const first = await run('hello', config({ name: 'hello', namespace: 'tour', createNamespace: true, chart: { archive: { raw } } }));
    assert.equal(first.status?.phase, 'Succeeded', first.status?.lastError?.message);
    const cm = await remoteGet(configMaps, 'hello', 'tour');
    assert.deepEqual(cm?.['data'], { testData: 'default-data' });
    assert.equal(cm?.metadata.labels?.['helm.deployer.landscaper.gardener.cloud/deployitem'], 'hello');
    const status = first.status?.providerStatus as { apiVersion: string; managedResources: { resource: { kind: string; name: string } }[] };
    assert.equal(status.apiVersion, 'helm.deployer.landscaper.gardener.cloud/v1alpha1');
    assert.deepEqual(status.managedResources.map((m) => `${m.resource.kind}/${m.resource.name}`).sort(), ['ConfigMap/hello', 'Namespace/tour']);

    const second = await run('hello', config({ name: 'hello', namespace: 'tour', createNamespace: true, chart: { archive: { raw } }, values: { testData: 'from values' } }));
    assert.equal(second.status?.phase, 'Succeeded', second.status?.lastError?.message);
    assert.deepEqual((await remoteGet(configMaps, 'hello', 'tour'))?.['data'], { testData: 'from values' });

    await remove('hello');
    assert.equal(await remoteGet(configMaps, 'hello', 'tour'), undefined);
    assert.ok(await remote.client.get({ group: '', version: 'v1', resource: 'namespaces', namespaced: false, kind: 'Namespace' }, 'tour'), 'the release namespace is kept (policy keep), so uninstall never waits on it');
  });

  test('upstream 01 from a chart repository, then 01_updated from an archive URL', async () => {
    const first = await run('repo', config({ name: 'test', namespace: 'default', chart: { helmChartRepo: { helmChartRepoUrl: `${repoUrl}/charts`, helmChartName: 'test-chart', helmChartVersion: 'v0.1.0' } } }));
    assert.equal(first.status?.phase, 'Succeeded', first.status?.lastError?.message);
    assert.deepEqual((await remoteGet(configMaps, 'mychart-configmap', 'default'))?.['data'], { key: 'value' });
    const second = await run('repo', config({ name: 'test', namespace: 'default', chart: { archive: { remote: { url: `${repoUrl}/updated/chart.tgz` } } } }));
    assert.equal(second.status?.phase, 'Succeeded', second.status?.lastError?.message);
    assert.deepEqual((await remoteGet(configMaps, 'mychart-configmap', 'default'))?.['data'], { key: 'value_updated' });
    await remove('repo');
    assert.equal(await remoteGet(configMaps, 'mychart-configmap', 'default'), undefined);
  });

  test('upstream 02_export: exports from a resource and from the values reach the export Secret', async () => {
    const di = await run('export', config({
      name: 'exporter',
      namespace: 'exports',
      createNamespace: true,
      chart: { helmChartRepo: { helmChartRepoUrl: `${repoUrl}/charts`, helmChartName: 'test-chart2', helmChartVersion: 'v0.1.0' } },
      values: { answer: 42 },
      exports: { exports: [
        { key: 'exportKey', jsonPath: '.data.key', fromResource: { apiVersion: 'v1', kind: 'ConfigMap', name: 'mychart-configmap', namespace: 'exports' } },
        { key: 'answer', jsonPath: '.Values.answer' },
        { key: 'release', jsonPath: '.Release.Namespace' },
      ] },
    }));
    assert.equal(di.status?.phase, 'Succeeded', di.status?.lastError?.message);
    const secret = await ls.client.get(secrets, di.status!.exportRef!.name, { namespace: ns });
    assert.deepEqual(JSON.parse(secretData(secret, 'config')!), { exportKey: 'value', answer: 42, release: 'exports' });
    await remove('export');
  });

  test('testchart8: a chart\'s CRDs and its custom resources in one deploy (upstream #385)', async () => {
    await remote.client.create({ group: '', version: 'v1', resource: 'namespaces', namespaced: false, kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'second' } });
    const raw = pack(upstream('pkg/deployer/helm/testdata/testchart8')).toString('base64');
    const di = await run('crds', config({ name: 'crds', namespace: 'default', chart: { archive: { raw } }, values: { namespace2: 'second' } }));
    assert.equal(di.status?.phase, 'Succeeded', di.status?.lastError?.message);
    assert.ok(await remote.client.get(crds, 'testobjects.landscaper.gardener.cloud'));
    const testObjects = await remote.client.resolve({ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'TestObject' });
    const clusterTestObjects = await remote.client.resolve({ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'ClusterTestObject' });
    assert.deepEqual((await remote.client.list(testObjects)).items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`).sort(), ['default/test-a', 'default/test-b', 'second/test-c', 'second/test-d']);
    assert.deepEqual((await remote.client.list(clusterTestObjects)).items.map((o) => o.metadata.name).sort(), ['test-a', 'test-b']);
    await remove('crds');
    assert.deepEqual((await remote.client.list(testObjects)).items, [], 'the custom resources are deleted');
    assert.ok(await remote.client.get(crds, 'testobjects.landscaper.gardener.cloud'), 'the CRDs stay, as Helm keeps crds/');
  });

  test('the ingress-nginx chart of upstream\'s tutorial, with the tutorial\'s values, renders and applies', async () => {
    const raw = pack(join(import.meta.dirname, '..', '..', 'fixtures', 'helm', 'ingress-nginx')).toString('base64');
    // The tutorial's values, unchanged: the chart's IngressClass applies too.
    const values = { controller: { livenessProbe: { failureThreshold: 4, initialDelaySeconds: 30, periodSeconds: 10, successThreshold: 1, timeoutSeconds: 5 } } };
    // The target has no nodes: the controller's pods never run, so readiness is not waited for.
    const di = await run('ingress', config({ name: 'ingress', namespace: 'ingress', createNamespace: true, chart: { archive: { raw } }, values, readinessChecks: { disableDefault: true } }));
    assert.equal(di.status?.phase, 'Succeeded', di.status?.lastError?.message);
    const managed = (di.status?.providerStatus as { managedResources: { resource: { kind: string; name: string } }[] }).managedResources.map((m) => `${m.resource.kind}/${m.resource.name}`);
    for (const expected of ['Deployment/ingress-ingress-nginx-controller', 'Service/ingress-ingress-nginx-controller', 'ConfigMap/ingress-ingress-nginx-controller', 'ServiceAccount/ingress-ingress-nginx', 'ClusterRole/ingress-ingress-nginx', 'ValidatingWebhookConfiguration/ingress-ingress-nginx-admission', 'IngressClass/nginx']) {
      assert.ok(managed.includes(expected), `${expected} applied (managed: ${managed.join(', ')})`);
    }
    const deployments = await remote.client.resolve({ apiVersion: 'apps/v1', kind: 'Deployment' });
    const deployment = await remote.client.get(deployments, 'ingress-ingress-nginx-controller', { namespace: 'ingress' });
    assert.equal((deployment['spec'] as { template: { spec: { containers: { livenessProbe: { failureThreshold: number } }[] } } }).template.spec.containers[0]?.livenessProbe.failureThreshold, 4);
    await remove('ingress');
  });

  test('testchart5: a subchart deploys with its parent and not when its condition disables it', async () => {
    const raw = pack(upstream('pkg/deployer/helm/testdata/testchart5')).toString('base64');
    const on = await run('sub', config({ name: 'sub', namespace: 'default', chart: { archive: { raw } } }));
    assert.equal(on.status?.phase, 'Succeeded', on.status?.lastError?.message);
    assert.ok(await remoteGet(configMaps, 'test-subchart-configmap', 'default'));
    const off = await run('sub', config({ name: 'sub', namespace: 'default', chart: { archive: { raw } }, values: { 'subchart-enabled': false } }));
    assert.equal(off.status?.phase, 'Succeeded', off.status?.lastError?.message);
    assert.equal(await remoteGet(configMaps, 'test-subchart-configmap', 'default'), undefined, 'the disabled subchart\'s ConfigMap is removed as an orphan, and readiness does not wait for it');
    assert.ok(await remoteGet(configMaps, 'test-chart-configmap', 'default'));
    await remove('sub');
  });
});

describe('real-Helm mode', () => {
  test('hello-world installs as a Helm release, upgrades with new values and uninstalls on delete', async () => {
    const raw = readFileSync(upstream('docs/guided-tour/hello-world/chart/hello-world-1.0.0.tgz')).toString('base64');
    const real = (values: Record<string, unknown>) => config({ helmDeployment: true, name: 'real', namespace: 'real', createNamespace: true, chart: { archive: { raw } }, values });
    const first = await run('real', real({}));
    assert.equal(first.status?.phase, 'Succeeded', first.status?.lastError?.message);
    const releases = createHelmActions(remote.client);
    assert.deepEqual((await releases.list('real')).map((r) => `${r.name}:${r.revision}:${r.status}`), ['real:1:deployed']);
    assert.deepEqual((first.status?.providerStatus as { managedResources: { resource: { kind: string; name: string } }[] }).managedResources.map((m) => `${m.resource.kind}/${m.resource.name}`), ['ConfigMap/real']);
    const second = await run('real', real({ testData: 'upgraded' }));
    assert.equal(second.status?.phase, 'Succeeded', second.status?.lastError?.message);
    assert.deepEqual((await releases.history('real', 'real')).map((r) => `${r.revision}:${r.status}`), ['1:superseded', '2:deployed']);
    assert.deepEqual((await remoteGet(configMaps, 'real', 'real'))?.['data'], { testData: 'upgraded' });
    await remove('real');
    assert.deepEqual(await releases.list('real'), []);
    assert.equal(await remoteGet(configMaps, 'real', 'real'), undefined);
  });
});

describe('bad input fails the item, naming the cause', () => {
  const failed = async (name: string, cfg: Record<string, unknown>, pattern: RegExp): Promise<void> => {
    const di = await run(name, config({ name, namespace: 'default', ...cfg }));
    assert.equal(di.status?.phase, 'Failed');
    assert.match(di.status?.lastError?.message ?? '', pattern);
    await remove(name);
  };

  test('a chart the repository does not have (404)', () => failed('missing', { chart: { archive: { remote: { url: `${repoUrl}/charts/nope-1.0.0.tgz` } } } }, /GET http:\/\/127\.0\.0\.1:\d+\/charts\/nope-1\.0\.0\.tgz: HTTP 404/));

  test('a chart version the index does not list', () => failed('noversion', { chart: { helmChartRepo: { helmChartRepoUrl: `${repoUrl}/charts`, helmChartName: 'test-chart', helmChartVersion: '9.9.9' } } }, /has no version 9\.9\.9 of chart "test-chart" \(it has v0\.1\.0\)/));

  test('an unreachable repository', () => failed('unreachable', { chart: { helmChartRepo: { helmChartRepoUrl: 'http://127.0.0.1:1/charts', helmChartName: 'x', helmChartVersion: '1' } } }, /GET http:\/\/127\.0\.0\.1:1\/charts\/index\.yaml: .*ECONNREFUSED/));

  test('a template error, with Helm\'s execution error position', async () => {
    const raw = execFileSync('sh', ['-c', 'd=$(mktemp -d) && mkdir -p $d/failing/templates && printf "apiVersion: v2\\nname: failing\\nversion: 0.1.0\\n" > $d/failing/Chart.yaml && printf "a: {{ required \\"value x is required\\" .Values.x }}\\n" > $d/failing/templates/cm.yaml && tar -C $d -czf - failing && rm -rf $d']).toString('base64');
    await failed('tplerr', { chart: { archive: { raw } } }, /execution error at \(failing\/templates\/cm\.yaml:1:6\): value x is required/);
  });

  test('values that fail the chart\'s schema (upstream testchart10)', async () => {
    const raw = pack(upstream('pkg/deployer/helm/testdata/testchart10')).toString('base64');
    await failed('schema', { chart: { archive: { raw } }, values: { testData: 7 } }, /values don't meet the specifications of the schema\(s\)/);
  });

  test('an invalid configuration: two chart sources', () => failed('twosources', { chart: { archive: { raw: 'x' }, helmChartRepo: { helmChartRepoUrl: 'http://x', helmChartName: 'a', helmChartVersion: '1' } } }, /exactly one of ref, archive, helmChartRepo and resourceRef/));
});
