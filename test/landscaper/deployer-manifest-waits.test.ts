// The manifest deployer waits on watches, never by polling: while a readiness check, an export or a deletion is
// pending the target cluster sees no requests, the Waiting condition names what is awaited, and the change that
// ends the wait is acted on without a poll interval.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestLogEntry } from '../../src/apiserver/router.ts';
import type { DeployItem } from '../../src/landscaper/api/deploy-item.ts';
import { CONDITION_WAITING } from '../../src/landscaper/api/constants.ts';
import { secretsResource } from '../../src/apimachinery/builtin-resources.ts';
import { deployItemsResource } from '../../src/landscaper/api/resources.ts';
import { deployItem, eventually, getItem, secretData, trigger, waitFinished, waitGone } from './deployer-harness.ts';
import { cm, configMaps, MANIFEST_TYPE as type, manifestConfig as config, startManifestFixture, type ManifestFixture } from './manifest-fixture.ts';

const ns = 'waits';
// Far longer than the quiet windows below: a poller would show up in them.
const QUIET_MS = 1500;

let f: ManifestFixture;
const remoteRequests: RequestLogEntry[] = [];

const waitingOf = (di: DeployItem | undefined): { status: string; message: string } | undefined => di?.status?.conditions?.find((c) => c.type === CONDITION_WAITING);

async function waitingFor(name: string, fragment: string): Promise<void> {
  let last: unknown;
  await eventually(async () => {
    const w = waitingOf(await getItem(f.ls.client, ns, name));
    last = w;
    return w?.status === 'True' && w.message.includes(fragment);
  }, () => `${name} waiting for "${fragment}"; condition is ${JSON.stringify(last)}`);
}

/**
 * Requests the target cluster received during a quiet period. It starts once the requests of the last change
 * have settled (a new watch's initial list wakes the item for one more check).
 */
async function requestsWhileQuiet(): Promise<string[]> {
  for (let seen = -1; seen !== remoteRequests.length; ) {
    seen = remoteRequests.length;
    await new Promise((r) => setTimeout(r, 200));
  }
  const start = remoteRequests.length;
  await new Promise((r) => setTimeout(r, QUIET_MS));
  return remoteRequests.slice(start).map((r) => `${r.method} ${r.url}`);
}

before(async () => {
  f = await startManifestFixture(ns, remoteRequests);
});
after(() => f.close());

test('readiness: no requests while waiting, the Waiting condition names the check, a change ends the wait', async () => {
  const readinessChecks = { custom: [{ name: 'gate-open', resourceSelector: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'gate', namespace: 'default' }], requirements: [{ jsonPath: '.data.open', operator: '==', values: [{ value: 'yes' }] }] }] };
  await f.ls.client.create(deployItemsResource, deployItem('ready', ns, { type, target: { name: 'remote', namespace: ns }, config: config({ manifests: [{ manifest: cm('app', { a: 'b' }) }], readinessChecks }) }));
  const j = await trigger(f.ls.client, ns, 'ready');
  await waitingFor('ready', 'waiting for readiness: custom readiness check "gate-open": ConfigMap default/gate not found');
  assert.deepEqual(await requestsWhileQuiet(), [], 'nothing polls the target while the gate is missing');

  await f.remote.client.create(configMaps, cm('gate', { open: 'no' }));
  await waitingFor('ready', 'requirement .data.open == ["yes"] is not fulfilled (value "no")');
  assert.deepEqual(await requestsWhileQuiet(), [], 'nothing polls the target while the gate is closed');

  await f.remote.client.patch(configMaps, 'gate', { data: { open: 'yes' } }, { type: 'merge', namespace: 'default' });
  const di = await waitFinished(f.ls.client, ns, 'ready', j);
  assert.equal(di.status?.phase, 'Succeeded', di.status?.lastError?.message);
  assert.equal(waitingOf(di)?.status, 'False', 'no longer waiting');
});

test('exports: a value that appears later is exported once it is there', async () => {
  const exportsCfg = { exports: [{ key: 'endpoint', jsonPath: '.data.endpoint', fromResource: { apiVersion: 'v1', kind: 'ConfigMap', name: 'svc-info', namespace: 'default' } }] };
  await f.ls.client.create(deployItemsResource, deployItem('exp', ns, { type, target: { name: 'remote', namespace: ns }, config: config({ manifests: [{ manifest: cm('svc-info', { port: '80' }) }], exports: exportsCfg }) }));
  const j = await trigger(f.ls.client, ns, 'exp');
  await waitingFor('exp', 'waiting for exports: export "endpoint": ConfigMap default/svc-info has no value at .data.endpoint');
  assert.deepEqual(await requestsWhileQuiet(), []);
  // Another actor fills the value in (as a controller would write a status).
  await f.remote.client.patch(configMaps, 'svc-info', { data: { endpoint: 'http://svc:80' } }, { type: 'merge', namespace: 'default' });
  const di = await waitFinished(f.ls.client, ns, 'exp', j);
  assert.equal(di.status?.phase, 'Succeeded', di.status?.lastError?.message);
  const secret = await f.ls.client.get(secretsResource, di.status!.exportRef!.name, { namespace: ns });
  assert.deepEqual(JSON.parse(secretData(secret, 'config')!), { endpoint: 'http://svc:80' });
});

test('deletion: an object held by a finalizer is waited for by name, without requests, until it is gone', async () => {
  await f.ls.client.create(deployItemsResource, deployItem('held', ns, { type, target: { name: 'remote', namespace: ns }, config: config({ manifests: [{ manifest: cm('held-cm', { a: 'b' }, { finalizers: ['example.com/hold'] }) }] }) }));
  const j = await trigger(f.ls.client, ns, 'held');
  assert.equal((await waitFinished(f.ls.client, ns, 'held', j)).status?.phase, 'Succeeded');

  await f.ls.client.delete(deployItemsResource, 'held', { namespace: ns });
  await trigger(f.ls.client, ns, 'held');
  await waitingFor('held', 'waiting for the deletion of ConfigMap default/held-cm');
  const di = await getItem(f.ls.client, ns, 'held');
  assert.equal(di?.status?.phase, 'Deleting');
  assert.deepEqual(await requestsWhileQuiet(), [], 'nothing polls the target while the finalizer holds the object');

  await f.remote.client.patch(configMaps, 'held-cm', { metadata: { finalizers: null } }, { type: 'merge', namespace: 'default' });
  await waitGone(f.ls.client, ns, 'held');
  assert.equal(await f.remote.client.get(configMaps, 'held-cm', { namespace: 'default' }).catch(() => undefined), undefined);
});

test('a progressing timeout during a wait names what was awaited; the watches are released', async () => {
  const never = { custom: [{ name: 'never', resourceSelector: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'no-such-cm', namespace: 'default' }], requirements: [{ jsonPath: '.data.x', operator: 'exists' }] }] };
  await f.ls.client.create(deployItemsResource, deployItem('late', ns, { type, timeout: '3s', target: { name: 'remote', namespace: ns }, config: config({ manifests: [{ manifest: cm('late-cm', { a: 'b' }) }], readinessChecks: never }) }));
  const j = await trigger(f.ls.client, ns, 'late');
  const di = await waitFinished(f.ls.client, ns, 'late', j, 15_000);
  assert.equal(di.status?.phase, 'Failed');
  assert.equal(di.status?.lastError?.reason, 'ProgressingTimeout');
  assert.match(di.status?.lastError?.message ?? '', /; still waiting for readiness: custom readiness check "never": ConfigMap default\/no-such-cm not found$/);
  assert.equal(waitingOf(di)?.status, 'False');
  // Nobody waits any more: every target watch stops after the linger time.
  const watchesOpen = (): number => remoteRequests.filter((r) => r.url.includes('watch=true')).length;
  assert.ok(watchesOpen() > 0, 'the waits used watches');
  await eventually(() => f.handle.activeWatches() === 0, () => `target watches still running: ${f.handle.activeWatches()}`);
});

test('a deployer restarted during a wait applies again, waits again, and finishes when the change comes', async () => {
  const readinessChecks = { custom: [{ name: 'gate-two', resourceSelector: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'gate-two', namespace: 'default' }], requirements: [{ jsonPath: '.data.open', operator: 'exists' }] }] };
  await f.ls.client.create(deployItemsResource, deployItem('restart', ns, { type, target: { name: 'remote', namespace: ns }, config: config({ manifests: [{ manifest: cm('restart-cm', { a: 'b' }) }], readinessChecks }) }));
  const j = await trigger(f.ls.client, ns, 'restart');
  await waitingFor('restart', 'ConfigMap default/gate-two not found');
  // The deployer goes away mid-wait (its memory of the job with it); the object it applied is changed meanwhile.
  await f.restartDeployer(async () => {
    await f.remote.client.patch(configMaps, 'restart-cm', { data: { a: 'changed by hand' } }, { type: 'merge', namespace: 'default' });
  });
  const valueA = async (): Promise<string | undefined> => ((await f.remote.client.get(configMaps, 'restart-cm', { namespace: 'default' }))['data'] as Record<string, string> | undefined)?.['a'];
  await eventually(async () => (await valueA()) === 'b', 'the restarted deployer applied the manifest again');
  await waitingFor('restart', 'ConfigMap default/gate-two not found');
  await f.remote.client.create(configMaps, cm('gate-two', { open: '' }));
  const di = await waitFinished(f.ls.client, ns, 'restart', j);
  assert.equal(di.status?.phase, 'Succeeded', di.status?.lastError?.message);
});
