// The installation controller's normal errors go through the runtime's one error model: recorded in
// lastError, counted in controller_runtime_reconcile_errors_total, retried with the work queue's growing
// backoff (not a fixed requeue), and the job goes on once the cause is gone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/index.ts';
import type { KubeClient, ResourceTarget } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { InternalServerError } from '../../src/client/errors.ts';
import { loadBosunCrds } from '../../src/crds/index.ts';
import { registerInstallationController, INSTALLATION_CONTROLLER_NAME } from '../../src/landscaper/installation/index.ts';
import { executionsResource, installationsResource } from '../../src/landscaper/api/resources.ts';
import type { Controller } from '../../src/runtime/controller/controller.ts';
import { Manager } from '../../src/runtime/manager.ts';
import type { Installation } from '../../src/landscaper/api/installation.ts';
import type { Deps } from '../../src/landscaper/installation/types.ts';
import { getInst, installation, RECONCILE, until } from './installation-harness.ts';

let server: RunningApiServer;
let client: KubeClient;
let mgr: Manager;
let controller: Controller<Installation, Deps>;
/** While set, the API server "fails" every Execution create with a 500, as an overloaded server would. */
let failExecutionCreates = true;
const failedAt: number[] = [];

/** The manager's client, with Execution creates failing while failExecutionCreates is set. */
function failingExecutionCreates(inner: KubeClient): KubeClient {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop !== 'create') return Reflect.get(target, prop, receiver) as unknown;
      return async (resource: ResourceTarget, obj: KubeObject, options?: unknown) => {
        if (failExecutionCreates && resource === executionsResource) {
          failedAt.push(performance.now());
          throw new InternalServerError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'etcdserver: request timed out', reason: 'InternalError', code: 500 });
        }
        return (target.create as (...args: unknown[]) => Promise<unknown>)(resource, obj, options);
      };
    },
  });
}

before(async () => {
  server = await startApiServer({ inMemory: true, port: 0, crds: loadBosunCrds(), onError: () => {} });
  client = createKubeClient({ kubeconfig: server.kubeconfig });
  mgr = new Manager({ client: failingExecutionCreates(createKubeClient({ kubeconfig: server.kubeconfig })), logger: pino({ enabled: false }), gracefulShutdownTimeoutMs: 2000 });
  controller = registerInstallationController(mgr);
  await mgr.start();
});
after(async () => {
  await mgr.stop();
  await mgr.client.close();
  await client.close();
  await server.close();
});

const blueprint = 'apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\ndeployExecutions:\n  - name: default\n    type: GoTemplate\n    template: |\n      deployItems:\n        - name: item\n          type: landscaper.gardener.cloud/mock\n          config: { apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1, kind: ProviderConfiguration }\n';

test('a normal error is recorded, counted, retried with a growing backoff, and the job goes on after it', async () => {
  await client.create(installationsResource, installation('flaky', 'default', blueprint, {}, RECONCILE));
  const failing = await until('lastError from the failed Execution create', () => getInst({ client }, 'default', 'flaky'), (i) => i?.status?.lastError?.message === 'etcdserver: request timed out');
  assert.equal(failing?.status?.phase, 'Init', 'a normal error keeps the phase');
  assert.equal(failing?.status?.lastError?.operation, 'Init');

  // Let it fail for a while: a growing backoff retries a handful of times, a fixed requeue hundreds.
  await new Promise((r) => setTimeout(r, 1500));
  const attempts = failedAt.length;
  assert.ok(attempts >= 4 && attempts <= 14, `retried with backoff (5 ms doubling): ${attempts} attempts in ~1.5 s`);
  // Rate-limited requeues since the key was last forgotten: a fixed requeueAfter would show none.
  const gaps = failedAt.slice(1).map((t, i) => (t - failedAt[i]!).toFixed(0)).join(', ');
  assert.ok(controller.queue.numRequeues('default/flaky') >= 3, `the work queue backs the key off (gaps ${gaps} ms)`);
  const errors = await mgr.metrics.value('controller_runtime_reconcile_errors_total', { controller: INSTALLATION_CONTROLLER_NAME });
  assert.ok(errors >= attempts, `every failed attempt counted as a reconcile error (${errors} ≥ ${attempts})`);
  assert.equal(await mgr.metrics.value('controller_runtime_terminal_reconcile_errors_total', { controller: INSTALLATION_CONTROLLER_NAME }), 0, 'not terminal');
  assert.ok((await mgr.metrics.value('workqueue_retries_total', { name: INSTALLATION_CONTROLLER_NAME })) >= attempts, 'retried through the work queue');

  failExecutionCreates = false;
  // Progressing, whose lastError (written just after the transition) says what it waits for with upstream's
  // wait codes: the server error is gone.
  const progressing = await until('Progressing once the server takes the Execution', () => getInst({ client }, 'default', 'flaky'), (i) => i?.status?.phase === 'Progressing' && i.status.lastError?.operation === 'Progressing', 30_000);
  assert.equal(progressing?.status?.lastError?.operation, 'Progressing');
  assert.deepEqual(progressing?.status?.lastError?.codes, ['ERR_UNFINISHED', 'ERR_FOR_INFO_ONLY', 'ERR_NO_RETRY']);
  await client.get(executionsResource, 'flaky', { namespace: 'default' });
});
