// The deployer library's recoverable errors go through the runtime's one error model: recorded in lastError,
// counted in controller_runtime_reconcile_errors_total, retried with the controller's work queue backoff
// (errorBackoff), and the backoff never postpones the job's progressing deadline.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server as NetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { deployItemsResource, targetsResource } from '../../src/landscaper/api/resources.ts';
import { registerManifestDeployer, type ManifestDeployerHandle } from '../../src/landscaper/deployers/manifest/index.ts';
import type { Manager } from '../../src/runtime/manager.ts';
import { createNamespace, deployItem, eventually, getItem, startManager, startServer, trigger, waitFinished, type Server } from './deployer-harness.ts';
import { cm, manifestConfig, MANIFEST_TYPE } from './manifest-fixture.ts';

const ns = 'errors';
const DEPLOYER = 'manifest-deployer';

let ls: Server;
let mgr: Manager;
let handle: ManifestDeployerHandle;
/** A "cluster" that takes every connection and drops it at once; each reconcile's attempt shows up here. */
let dead: NetServer;
const attempts: number[] = [];

before(async () => {
  ls = await startServer();
  await createNamespace(ls.client, ns);
  dead = createServer((socket) => {
    attempts.push(Date.now());
    socket.destroy();
  });
  await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
  const port = (dead.address() as AddressInfo).port;
  const kubeconfig = ls.server.kubeconfig.replace(/server: https:\/\/127\.0\.0\.1:\d+/, `server: https://127.0.0.1:${port}`);
  await ls.client.create(targetsResource, { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Target', metadata: { name: 'dead', namespace: ns }, spec: { type: 'landscaper.gardener.cloud/kubernetes-cluster', config: { kubeconfig } } });
  mgr = startManager(ls.client);
  // The grace period outlasts the test: the target stays a recoverable error until the progressing timeout.
  handle = registerManifestDeployer(mgr, { unreachableGraceMs: 600_000, targetRequestTimeoutMs: 2000, errorBackoff: { initialMs: 200, maxMs: 60_000 } });
  await mgr.start();
});
after(async () => {
  await mgr.stop();
  await handle.close();
  await new Promise((resolve) => dead.close(resolve));
  await ls.close();
});

test('a recoverable error is recorded, counted, retried with a growing backoff, and capped at the progressing deadline', { timeout: 30_000 }, async () => {
  await ls.client.create(deployItemsResource, deployItem('flaky', ns, { type: MANIFEST_TYPE, target: { name: 'dead', namespace: ns }, timeout: '5s', config: manifestConfig({ manifests: [{ manifest: cm('x', { a: 'b' }) }] }) }));
  const jobID = await trigger(ls.client, ns, 'flaky');
  await eventually(async () => (await getItem(ls.client, ns, 'flaky'))?.status?.lastError?.reason === 'TargetUnreachable', 'lastError TargetUnreachable');
  const failing = (await getItem(ls.client, ns, 'flaky'))!;
  assert.equal(failing.status?.phase, 'Progressing', 'a recoverable error keeps the phase');
  assert.equal(failing.status?.jobIDFinished, undefined, 'and the job runs on');
  assert.match(failing.status?.lastError?.message ?? '', new RegExp(`target ${ns}/dead .* is unreachable`));

  const di = await waitFinished(ls.client, ns, 'flaky', jobID, 10_000);
  const ended = Date.now();
  assert.equal(di.status?.phase, 'Failed');
  assert.equal(di.status?.lastError?.reason, 'ProgressingTimeout');
  assert.match(di.status?.lastError?.message ?? '', new RegExp(`timed out after 5s .*; last error \\(ApplyManifests\\): target ${ns}/dead .* is unreachable`), 'the timeout keeps the cause it retried');

  // 200 ms doubling: attempts about 0, 0.2, 0.6, 1.4 and 3 s after pickup, the next one due at 6.2 s; the
  // deadline (initTime, in whole seconds, + 5 s) falls 4 to 5 s after pickup.
  const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
  const shown = gaps.map((g) => g.toFixed(0)).join(', ');
  assert.ok(attempts.length >= 4 && attempts.length <= 6, `retried with the work queue's backoff: ${attempts.length} attempts, gaps ${shown} ms`);
  assert.ok(gaps[0]! >= 150, `the first retry waits errorBackoff.initialMs: ${shown} ms`);
  // Each gap is the backoff plus the failing reconcile (longest the first time: pickup and Progressing writes).
  for (let i = 1; i < gaps.length; i++) assert.ok(gaps[i]! > gaps[i - 1]!, `the gaps grow: ${shown} ms`);
  assert.ok(gaps.at(-1)! > 4 * gaps[0]!, `the gaps double: ${shown} ms`);
  const deadline = Date.parse(di.status?.transitionTimes?.initTime ?? '') + 5000;
  const uncapped = attempts.at(-1)! + 2 * gaps.at(-1)!;
  assert.ok(uncapped > deadline + 500, `the backoff alone would retry only after the deadline (${uncapped - deadline} ms after it)`);
  // Seen through polling on a possibly loaded machine: within a second of the deadline, and before the backoff
  // alone would have run the item again.
  assert.ok(ended >= deadline && ended < Math.min(deadline + 1000, uncapped), `the job failed at its deadline (${ended - deadline} ms after it), not at the next backoff (${uncapped - deadline} ms after it)`);

  // The final reconcile wrote Failed, then ended with the TerminalError the controller counts.
  await eventually(async () => (await mgr.metrics.value('controller_runtime_terminal_reconcile_errors_total', { controller: DEPLOYER })) === 1, 'the timeout counted as a terminal error');
  const errors = await mgr.metrics.value('controller_runtime_reconcile_errors_total', { controller: DEPLOYER });
  assert.ok(errors >= attempts.length + 1, `every failed attempt and the timeout counted as a reconcile error (${errors} for ${attempts.length} attempts)`);
  assert.ok((await mgr.metrics.value('workqueue_retries_total', { name: DEPLOYER })) >= attempts.length, 'retried through the work queue');
});
