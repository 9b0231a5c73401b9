// An embedded API server with Bosun's CRDs, a manager running the Installation controller, and a stand-in
// for the Execution controller: it finishes each execution job with the phase (and exports) a test
// chooses. Unit-level: the real execution controller is tested on its own.
import { pino } from 'pino';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/index.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { NotFoundError } from '../../src/client/errors.ts';
import { loadBosunCrds } from '../../src/crds/index.ts';
import { action } from '../../src/runtime/controller/action.ts';
import { Manager } from '../../src/runtime/manager.ts';
import type { Execution } from '../../src/landscaper/api/execution.ts';
import type { Installation } from '../../src/landscaper/api/installation.ts';
import { LANDSCAPER_FINALIZER } from '../../src/landscaper/api/constants.ts';
import { registerInstallationController } from '../../src/landscaper/installation/index.ts';
import { deployItemTemplates } from '../../src/landscaper/api/execution-spec.ts';
import { dataObjectsResource, executionsResource, installationsResource } from '../../src/landscaper/api/resources.ts';
import { executionExportDataObjectName } from '../../src/landscaper/naming.ts';
import type { AnyJSON } from '../../src/landscaper/api/shared.ts';

export interface ExecutionOutcome {
  phase: 'Succeeded' | 'Failed' | 'hold';
  /** Deploy item name → exports, written into the execution's export DataObject. */
  exports?: { [item: string]: AnyJSON };
  message?: string;
}

export interface LsHarness {
  server: RunningApiServer;
  client: KubeClient;
  mgr: Manager;
  /** What the stand-in execution controller does per execution name (default Succeeded). */
  outcomes: Map<string, ExecutionOutcome>;
  /** Execution events the stand-in saw: "<name>:<jobID>" per triggered job, "<name>:delete" per deletion. */
  log: string[];
  close(): Promise<void>;
}

export async function startLsHarness(): Promise<LsHarness> {
  const server = await startApiServer({ inMemory: true, port: 0, crds: loadBosunCrds(), onError: () => {} });
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  const mgrClient = createKubeClient({ kubeconfig: server.kubeconfig });
  const mgr = new Manager({ client: mgrClient, logger: pino({ enabled: false }), gracefulShutdownTimeoutMs: 2000 });
  registerInstallationController(mgr);
  const outcomes = new Map<string, ExecutionOutcome>();
  const log: string[] = [];
  mgr.controller<Execution, null>({
    name: 'fake-execution',
    for: executionsResource,
    data: null,
    reconcile: async (exec) => {
      const ns = exec.metadata.namespace ?? 'default';
      const name = exec.metadata.name ?? '';
      const s = exec.status ?? {};
      if ((s.jobID ?? '') === (s.jobIDFinished ?? '')) return action.awaitChange();
      if (exec.metadata.deletionTimestamp !== undefined) {
        log.push(`${name}:delete`);
        const fins = (exec.metadata.finalizers ?? []).filter((f) => f !== LANDSCAPER_FINALIZER);
        await mgrClient.patch(executionsResource, name, { metadata: { finalizers: fins } }, { type: 'merge', namespace: ns });
        return action.awaitChange();
      }
      const outcome: ExecutionOutcome = outcomes.get(name) ?? { phase: 'Succeeded', exports: { item: { value: 'default' } } };
      if (outcome.phase === 'hold') {
        if (s.phase !== 'Progressing') await mgrClient.updateStatus(executionsResource, { ...exec, status: { ...s, phase: 'Progressing' } });
        return action.awaitChange();
      }
      log.push(`${name}:${deployItemTemplates(exec.spec).map((d) => d.name).join('+')}`);
      let exportRef: { name: string; namespace: string } | undefined;
      if (outcome.exports !== undefined) {
        const doName = executionExportDataObjectName(name);
        const body: KubeObject = { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'DataObject', metadata: { name: doName, namespace: ns }, data: outcome.exports };
        try {
          const old = await mgrClient.get(dataObjectsResource, doName, { namespace: ns });
          await mgrClient.update(dataObjectsResource, { ...old, data: outcome.exports });
        } catch (err) {
          if (!(err instanceof NotFoundError)) throw err;
          await mgrClient.create(dataObjectsResource, body);
        }
        exportRef = { name: doName, namespace: ns };
      }
      const lastError = outcome.message !== undefined
        ? { operation: 'Test', reason: 'Test', message: outcome.message, lastTransitionTime: new Date().toISOString(), lastUpdateTime: new Date().toISOString() }
        : undefined;
      await mgrClient.updateStatus(executionsResource, {
        ...exec,
        status: { ...s, phase: outcome.phase, jobIDFinished: s.jobID, ...(exportRef ? { exportRef } : {}), ...(lastError ? { lastError } : {}) },
      });
      return action.awaitChange();
    },
  });
  await mgr.start();
  return {
    server,
    client,
    mgr,
    outcomes,
    log,
    async close() {
      await mgr.stop();
      await Promise.all([client.close(), mgrClient.close()]);
      await server.close();
    },
  };
}

let nsCounter = 0;
export async function newNamespace(h: LsHarness, prefix: string): Promise<string> {
  const name = `${prefix}-${++nsCounter}`;
  await h.client.create({ apiVersion: 'v1', kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return name;
}

export async function getInst(h: Pick<LsHarness, 'client'>, ns: string, name: string): Promise<Installation | undefined> {
  try {
    return await h.client.get<Installation>(installationsResource, name, { namespace: ns });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** Polls until cond() holds; the message of the last seen state helps when it does not. */
export async function until<T>(what: string, probe: () => Promise<T>, cond: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: T = await probe();
  while (!cond(last)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last state: ${JSON.stringify(last, (k, v: unknown) => (k === "managedFields" || k === "blueprint" ? undefined : v))?.slice(0, 3000)}`);
    await new Promise((r) => setTimeout(r, 20));
    last = await probe();
  }
  return last;
}

export const phaseOf = (i: Installation | undefined): string | undefined => i?.status?.phase;

/** A root installation with an inline blueprint. */
export function installation(name: string, ns: string, blueprint: string, spec: Partial<Installation['spec']> = {}, annotations: Record<string, string> = {}): Installation {
  return {
    apiVersion: 'landscaper.gardener.cloud/v1alpha1',
    kind: 'Installation',
    metadata: { name, namespace: ns, annotations },
    spec: { ...spec, blueprint: { inline: { filesystem: { 'blueprint.yaml': blueprint } } } },
  };
}

export const RECONCILE = { 'landscaper.gardener.cloud/operation': 'reconcile' };


/** Waits until the installation exists and cond holds; returns it. */
export async function untilInst(h: LsHarness, ns: string, name: string, what: string, cond: (i: Installation) => boolean, timeoutMs?: number): Promise<Installation> {
  const i = await until(what, () => getInst(h, ns, name), (x) => x !== undefined && cond(x), timeoutMs);
  return i!;
}
