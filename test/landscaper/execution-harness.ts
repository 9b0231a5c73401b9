// An embedded API server with Bosun's CRDs, the execution and deploy item controllers on a manager,
// and a minimal stand-in deployer for controller-level tests: it finishes (or fails, or holds) a
// deploy item when the item gets a new job ID, and removes the finalizer when triggered for deletion.
// Every trigger, finish and deletion is recorded in the order the watch delivered it.
import { pino } from 'pino';
import { stringify as toYaml } from 'yaml';
import { secretsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/index.ts';
import type { RequestLogEntry } from '../../src/apiserver/router.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { NotFoundError } from '../../src/client/errors.ts';
import { loadBosunCrds } from '../../src/crds/index.ts';
import { deployItemsResource, executionsResource } from '../../src/landscaper/api/resources.ts';
import { action } from '../../src/runtime/controller/action.ts';
import type { Controller } from '../../src/runtime/controller/controller.ts';
import { Manager } from '../../src/runtime/manager.ts';
import { EXECUTION_MANAGED_NAME_LABEL, LANDSCAPER_FINALIZER } from '../../src/landscaper/api/constants.ts';
import type { DeployItem } from '../../src/landscaper/api/deploy-item.ts';
import type { DeployItemTemplate, Execution } from '../../src/landscaper/api/execution.ts';
import type { JSONObject } from '../../src/landscaper/api/shared.ts';
import { registerDeployItemController } from '../../src/landscaper/deployitem/index.ts';
import { lsTime, registerExecutionController, type ExecutionController } from '../../src/landscaper/execution/index.ts';

export const TEST_DEPLOYER_TYPE = 'test.bosun.dev/stand-in';

export type Behaviour = 'succeed' | 'fail' | 'hang';

export interface RecordedEvent {
  type: 'trigger' | 'finish' | 'deleted';
  namespace: string;
  /** Template name (label execution.landscaper.gardener.cloud/name). */
  item: string;
  deleting: boolean;
}

export interface ExecHarness {
  server: RunningApiServer;
  client: KubeClient;
  mgr: Manager;
  /** The execution controller (its work queue shows retries). */
  executions: Controller<Execution, ExecutionController>;
  events: RecordedEvent[];
  /** Behaviour of the stand-in deployer per "<namespace>/<template name>"; default succeed. */
  behaviour: Map<string, Behaviour>;
  /** Exports the stand-in writes per "<namespace>/<template name>". */
  exports: Map<string, JSONObject>;
  /** Every API request the server answered, in order. */
  requests: RequestLogEntry[];
  close(): Promise<void>;
}

const templateName = (di: DeployItem): string => di.metadata.labels?.[EXECUTION_MANAGED_NAME_LABEL] ?? di.metadata.name ?? '';

export async function startExecHarness(options: { pickupTimeout?: string | number } = {}): Promise<ExecHarness> {
  const requests: RequestLogEntry[] = [];
  const server = await startApiServer({ inMemory: true, port: 0, crds: loadBosunCrds(), onRequest: (r) => requests.push(r) });
  const clients: KubeClient[] = [];
  const newClient = (): KubeClient => {
    const c = createKubeClient({ kubeconfig: server.kubeconfig });
    clients.push(c);
    return c;
  };
  const client = newClient();
  const mgr = new Manager({ client: newClient(), logger: pino({ enabled: false }), gracefulShutdownTimeoutMs: 2000 });
  const executions = registerExecutionController(mgr);
  registerDeployItemController(mgr, { pickupTimeout: options.pickupTimeout ?? 1500, recheckSlackMs: 50 });

  const events: RecordedEvent[] = [];
  const behaviour = new Map<string, Behaviour>();
  const exports = new Map<string, JSONObject>();
  const informer = mgr.informer<DeployItem>(deployItemsResource);
  informer.addEventHandler({
    onAdd: () => {},
    onUpdate: (old, di) => {
      const base = { namespace: di.metadata.namespace ?? '', item: templateName(di), deleting: di.metadata.deletionTimestamp !== undefined };
      if (di.status?.jobID && old.status?.jobID !== di.status.jobID) events.push({ type: 'trigger', ...base });
      if (di.status?.jobIDFinished && old.status?.jobIDFinished !== di.status.jobIDFinished) events.push({ type: 'finish', ...base });
    },
    onDelete: (di) => events.push({ type: 'deleted', namespace: di.metadata.namespace ?? '', item: templateName(di), deleting: true }),
  });

  const deployer = mgr.client;
  mgr.controller<DeployItem, null>({
    name: 'stand-in-deployer',
    for: deployItemsResource,
    data: null,
    concurrency: 2,
    reconcile: async (di) => {
      const st = di.status;
      if (di.spec.type !== TEST_DEPLOYER_TYPE || !st?.jobID || st.jobID === st.jobIDFinished) return action.awaitChange();
      const ns = di.metadata.namespace ?? '';
      const key = `${ns}/${templateName(di)}`;
      const b = behaviour.get(key) ?? 'succeed';
      const now = lsTime(new Date());
      if (di.metadata.deletionTimestamp !== undefined) {
        const index = (di.metadata.finalizers ?? []).indexOf(LANDSCAPER_FINALIZER);
        if (index >= 0) {
          await deployer.patch(deployItemsResource, di.metadata.name ?? '', [
            { op: 'test', path: `/metadata/finalizers/${index}`, value: LANDSCAPER_FINALIZER },
            { op: 'remove', path: `/metadata/finalizers/${index}` },
          ], { type: 'json', namespace: ns });
        }
        return action.awaitChange();
      }
      const status = { ...st, observedGeneration: di.metadata.generation ?? 0, lastReconcileTime: now };
      if (b === 'hang') {
        if (st.phase === 'Progressing' && st.lastReconcileTime) return action.awaitChange();
        await deployer.updateStatus(deployItemsResource, { ...di, status: { ...status, phase: 'Progressing' } });
        return action.awaitChange();
      }
      const exp = exports.get(key);
      let exportRef: { name: string; namespace: string } | undefined;
      if (exp && b === 'succeed') {
        const name = `${di.metadata.name ?? ''}-export`;
        const secret: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: ns }, data: { config: Buffer.from(toYaml(exp)).toString('base64') } };
        try {
          await deployer.create(secretsResource, secret);
        } catch {
          await deployer.update(secretsResource, secret);
        }
        exportRef = { name, namespace: ns };
      }
      await deployer.updateStatus(deployItemsResource, {
        ...di,
        status: {
          ...status,
          phase: b === 'succeed' ? 'Succeeded' : 'Failed',
          jobIDFinished: st.jobID,
          ...(exportRef ? { exportRef } : {}),
          ...(b === 'fail' ? { lastError: { operation: 'Reconcile', reason: 'Boom', message: 'boom: the stand-in deployer failed', lastTransitionTime: now, lastUpdateTime: now } } : {}),
        },
      });
      return action.awaitChange();
    },
  });
  await mgr.start();
  return {
    server,
    client,
    mgr,
    executions,
    events,
    behaviour,
    exports,
    requests,
    async close() {
      await mgr.stop();
      await Promise.all(clients.map((c) => c.close()));
      await server.close();
    },
  };
}

export async function createNamespace(client: KubeClient, name: string): Promise<void> {
  await client.create({ apiVersion: 'v1', kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

export function item(name: string, dependsOn: string[] = [], extra: Partial<DeployItemTemplate> = {}): DeployItemTemplate {
  return { name, type: TEST_DEPLOYER_TYPE, config: { apiVersion: 'test.bosun.dev/v1', kind: 'Config', value: name }, ...(dependsOn.length > 0 ? { dependsOn } : {}), ...extra };
}

export async function createExecution(client: KubeClient, namespace: string, name: string, spec: Execution['spec'], annotations?: Record<string, string>): Promise<Execution> {
  return client.create<Execution>(executionsResource, {
    apiVersion: 'landscaper.gardener.cloud/v1alpha1',
    kind: 'Execution',
    metadata: { name, namespace, ...(annotations ? { annotations } : {}) },
    spec,
  });
}

/** What the installation controller does in ObjectsCreated / TriggerDelete: hand over a job ID. */
export async function setJob(client: KubeClient, namespace: string, name: string, jobID: string): Promise<void> {
  await client.patchStatus(executionsResource, name, { status: { jobID, transitionTimes: { triggerTime: lsTime(new Date()) } } }, { type: 'merge', namespace });
}

export async function getExecution(client: KubeClient, namespace: string, name: string): Promise<Execution | undefined> {
  try {
    return await client.get<Execution>(executionsResource, name, { namespace });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** Waits until the execution finished the job (jobIDFinished = jobID) and returns it. */
export async function waitFinished(client: KubeClient, namespace: string, name: string, jobID: string, timeoutMs = 15_000): Promise<Execution> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const exec = await getExecution(client, namespace, name);
    if (exec?.status?.jobIDFinished === jobID) return exec;
    if (Date.now() > end) throw new Error(`execution ${namespace}/${name} did not finish job ${jobID}: ${JSON.stringify(exec?.status)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function waitGone(client: KubeClient, namespace: string, name: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const exec = await getExecution(client, namespace, name);
    if (!exec) return;
    if (Date.now() > end) throw new Error(`execution ${namespace}/${name} is still there: ${JSON.stringify(exec.status)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function listDeployItems(client: KubeClient, namespace: string): Promise<DeployItem[]> {
  return (await client.list<DeployItem>(deployItemsResource, { namespace })).items;
}

export function eventsIn(events: readonly RecordedEvent[], namespace: string, type?: RecordedEvent['type']): RecordedEvent[] {
  return events.filter((e) => e.namespace === namespace && (type === undefined || e.type === type));
}
