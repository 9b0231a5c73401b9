// Helm's release storage as real Helm reads and writes it: releases Bosun installs are listed and decoded by the
// real helm binary (3.17, test/helpers/helm-binary.ts), releases helm installs are listed and upgraded by Bosun;
// history is capped, an interrupted install does not block the next, hooks run by weight with their policies.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { secretsResource } from '../../../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../../src/apimachinery/object.ts';
import { createHelmActions } from '../../../../src/landscaper/deployers/helm/release/helm-actions.ts';
import type { HelmActions } from '../../../../src/landscaper/deployers/helm/release/actions.ts';
import { ReleaseStorage } from '../../../../src/landscaper/deployers/helm/release/storage.ts';
import { loadChart } from '../../../../src/template/helm/chart.ts';
import { decodeRelease } from '../../../../src/template/helm/release/release.ts';
import { helmBinary } from '../../../helpers/helm-binary.ts';
import { createNamespace, startServer, type Server } from '../../deployer-harness.ts';

const HELLO = join(import.meta.dirname, '..', 'testdata', 'docs', 'guided-tour', 'hello-world', 'chart', 'hello-world');
const configMaps = { group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' };
const ns = 'releases';

let server: Server;
let actions: HelmActions;
let home: string;
let kubeconfig: string;

/** The real helm, asynchronously: the API server it talks to runs in this process. */
async function helm(args: string[]): Promise<string> {
  const env = { ...process.env, KUBECONFIG: kubeconfig, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
  try {
    return (await promisify(execFile)(helmBinary(), args, { env, encoding: 'utf8' })).stdout;
  } catch (err) {
    assert.fail(`helm ${args.join(' ')}: ${(err as { stderr?: string }).stderr ?? String(err)}`);
  }
}

before(async () => {
  server = await startServer(false);
  await createNamespace(server.client, ns, false);
  actions = createHelmActions(server.client);
  home = mkdtempSync(join(tmpdir(), 'bosun-helm-release-'));
  kubeconfig = join(home, 'kubeconfig');
  writeFileSync(kubeconfig, server.server.kubeconfig);
});

after(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

test('a release Bosun installs is Helm\'s: helm list, history, get values and get manifest read it', async () => {
  const release = await actions.installOrUpgrade({ name: 'hello', namespace: ns, chart: loadChart(HELLO), values: { testData: 'from bosun' } });
  assert.equal(release.status, 'deployed');
  assert.deepEqual((await server.client.get(configMaps, 'hello', { namespace: ns }))['data'], { testData: 'from bosun' });
  const listed = JSON.parse(await helm(['list', '-n', ns, '-o', 'json'])) as { name: string; revision: string; status: string; chart: string; app_version: string }[];
  assert.deepEqual(listed.map((r) => ({ name: r.name, revision: r.revision, status: r.status, chart: r.chart })), [{ name: 'hello', revision: '1', status: 'deployed', chart: 'hello-world-1.0.0' }]);
  assert.deepEqual(JSON.parse(await helm(['get', 'values', 'hello', '-n', ns, '-o', 'json'])), { testData: 'from bosun' });
  assert.match(await helm(['get', 'manifest', 'hello', '-n', ns]), /# Source: hello-world\/templates\/configmap\.yaml\n[\s\S]*testData: from bosun/);

  await actions.installOrUpgrade({ name: 'hello', namespace: ns, chart: loadChart(HELLO), values: { testData: 'second' } });
  const history = JSON.parse(await helm(['history', 'hello', '-n', ns, '-o', 'json'])) as { revision: number; status: string; description: string }[];
  assert.deepEqual(history.map((h) => `${h.revision}:${h.status}:${h.description}`), ['1:superseded:Install complete', '2:deployed:Upgrade complete']);
  assert.deepEqual((await server.client.get(configMaps, 'hello', { namespace: ns }))['data'], { testData: 'second' });
  const secret = await server.client.get(secretsResource, 'sh.helm.release.v1.hello.v2', { namespace: ns });
  assert.equal((secret as KubeObject & { type?: string }).type, 'helm.sh/release.v1');
  assert.deepEqual({ ...secret.metadata.labels, createdAt: undefined, modifiedAt: undefined }, { name: 'hello', owner: 'helm', status: 'deployed', version: '2', createdAt: undefined, modifiedAt: undefined });

  await actions.uninstall({ name: 'hello', namespace: ns });
  assert.equal((await helm(['list', '-n', ns, '-q'])).trim(), '');
  await assert.rejects(server.client.get(configMaps, 'hello', { namespace: ns }));
});

test('a release real helm installs is listed and upgraded by Bosun; helm history shows both revisions', async () => {
  await helm(['install', 'fromhelm', HELLO, '-n', ns, '--set', 'testData=by-helm']);
  const listed = await actions.list(ns);
  assert.deepEqual(listed.map((r) => `${r.name}:${r.revision}:${r.status}:${r.chart}`), ['fromhelm:1:deployed:hello-world-1.0.0']);
  await actions.installOrUpgrade({ name: 'fromhelm', namespace: ns, chart: loadChart(HELLO), values: { testData: 'by-bosun' } });
  assert.deepEqual((await server.client.get(configMaps, 'fromhelm', { namespace: ns }))['data'], { testData: 'by-bosun' });
  const history = JSON.parse(await helm(['history', 'fromhelm', '-n', ns, '-o', 'json'])) as { revision: number; status: string }[];
  assert.deepEqual(history.map((h) => `${h.revision}:${h.status}`), ['1:superseded', '2:deployed']);
  await helm(['uninstall', 'fromhelm', '-n', ns]);
  assert.deepEqual(await actions.list(ns), []);
});

test('history keeps 10 revisions; a pending-install left by an interrupted action does not block the next', async () => {
  for (let i = 0; i < 12; i++) await actions.installOrUpgrade({ name: 'many', namespace: ns, chart: loadChart(HELLO), values: { testData: `v${i}` }, historyMax: 10 });
  const revisions = await actions.history('many', ns);
  assert.deepEqual(revisions.map((r) => r.revision), [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  await actions.uninstall({ name: 'many', namespace: ns });

  // What a process killed during an install leaves: revision 1, pending-install, nothing deployed.
  const storage = new ReleaseStorage(server.client);
  await actions.installOrUpgrade({ name: 'stuck', namespace: ns, chart: loadChart(HELLO), values: {} });
  const [first] = await storage.history('stuck', ns);
  assert.ok(first);
  first.info.status = 'pending-install';
  await storage.update(first);
  const next = await actions.installOrUpgrade({ name: 'stuck', namespace: ns, chart: loadChart(HELLO), values: { testData: 'after' } });
  assert.equal(next.status, 'deployed');
  const history = await actions.history('stuck', ns);
  assert.deepEqual(history.map((r) => `${r.revision}:${r.status}`), ['1:superseded', '2:deployed'], 'the recovered revision is superseded by the next, as an upgrade from a failed release');
  assert.match(history[0]!.description, /interrupted/);
});

test('hooks run in weight order, before-hook-creation and hook-succeeded delete them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-hook-chart-'));
  mkdirSync(join(dir, 'hooked', 'templates'), { recursive: true });
  writeFileSync(join(dir, 'hooked', 'Chart.yaml'), 'apiVersion: v2\nname: hooked\nversion: 0.1.0\n');
  const hook = (name: string, weight: number, policy?: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  annotations:\n    helm.sh/hook: pre-install,pre-upgrade\n    helm.sh/hook-weight: "${weight}"\n${policy ? `    helm.sh/hook-delete-policy: ${policy}\n` : ''}data:\n  at: "{{ .Release.Revision }}"\n`;
  writeFileSync(join(dir, 'hooked', 'templates', 'hooks.yaml'), [hook('late', 5), hook('early', -5), hook('gone', 0, 'hook-succeeded')].join('---\n'));
  writeFileSync(join(dir, 'hooked', 'templates', 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: main\ndata: {}\n');
  const created: string[] = [];
  const existing = await server.client.list(configMaps, { namespace: ns });
  const watch = await server.client.watch(configMaps, { namespace: ns, resourceVersion: existing.metadata.resourceVersion });
  const reading = (async () => {
    for await (const event of watch) if (event.type === 'ADDED') created.push(event.object.metadata.name ?? '');
  })();
  try {
    await actions.installOrUpgrade({ name: 'hooked', namespace: ns, chart: loadChart(join(dir, 'hooked')), values: {} });
    await actions.installOrUpgrade({ name: 'hooked', namespace: ns, chart: loadChart(join(dir, 'hooked')), values: {} });
  } finally {
    watch.close();
    await reading.catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(created, ['early', 'gone', 'late', 'main', 'early', 'gone', 'late'], 'by weight, then the release, then again on upgrade (recreated: before-hook-creation)');
  assert.equal((await server.client.get(configMaps, 'late', { namespace: ns }))['data'] && ((await server.client.get(configMaps, 'late', { namespace: ns }))['data'] as Record<string, string>)['at'], '2');
  await assert.rejects(server.client.get(configMaps, 'gone', { namespace: ns }), 'hook-succeeded deleted it');
  const stored = decodeRelease(Buffer.from((await server.client.get(secretsResource, 'sh.helm.release.v1.hooked.v2', { namespace: ns }) as KubeObject & { data: Record<string, string> }).data['release']!, 'base64').toString());
  assert.deepEqual(stored.hooks.map((h) => `${h.name}:${h.weight}:${h.last_run.phase}`).sort(), ['early:-5:Succeeded', 'gone:0:Succeeded', 'late:5:Succeeded']);
  await actions.uninstall({ name: 'hooked', namespace: ns });
});
