// Shared setup of the deployer tests: an embedded API server with Bosun's CRDs, a client, namespaces with a
// default Context, and helpers that trigger a deploy item the way the execution controller does.
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/index.ts';
import type { RequestLogEntry } from '../../src/apiserver/router.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { loadBosunCrds } from '../../src/crds/index.ts';
import type { DeployItem } from '../../src/landscaper/api/deploy-item.ts';
import { contextsResource, deployItemsResource } from '../../src/landscaper/api/resources.ts';
import { Manager } from '../../src/runtime/manager.ts';
import { updateStatus } from '../../src/runtime/status.ts';

export const quiet = pino({ enabled: process.env['DEPLOYER_TEST_LOG'] !== undefined, level: 'debug' });
export const namespaces = { group: '', version: 'v1', resource: 'namespaces', namespaced: false, kind: 'Namespace' };

export interface Server {
  server: RunningApiServer;
  client: KubeClient;
  close(): Promise<void>;
}

/** requests: every request the server receives is appended (method, url, status). */
export async function startServer(withCrds = true, requests?: RequestLogEntry[]): Promise<Server> {
  const server = await startApiServer({ inMemory: true, port: 0, ...(withCrds ? { crds: loadBosunCrds() } : {}), ...(requests ? { onRequest: (e: RequestLogEntry) => requests.push(e) } : {}) });
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  return {
    server,
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

export async function createNamespace(client: KubeClient, name: string, withContext = true): Promise<void> {
  await client.create(namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  if (withContext) {
    await client.create(contextsResource, { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Context', metadata: { name: 'default', namespace: name } });
  }
}

export function startManager(client: KubeClient, namespace?: string): Manager {
  return new Manager({ client, logger: quiet, ...(namespace ? { namespace } : {}) });
}

export function deployItem(name: string, namespace: string, spec: DeployItem['spec'], meta: Partial<DeployItem['metadata']> = {}): DeployItem {
  return { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'DeployItem', metadata: { name, namespace, finalizers: ['finalizer.landscaper.gardener.cloud'], ...meta }, spec };
}

/** Gives the item a new job, as the execution controller's triggerDeployItem does; returns the job ID. */
export async function trigger(client: KubeClient, namespace: string, name: string): Promise<string> {
  const jobID = randomUUID();
  const current = await client.get<DeployItem>(deployItemsResource, name, { namespace });
  const ts = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  await updateStatus(client, deployItemsResource, current, (draft) => {
    draft.status = { observedGeneration: 0, ...draft.status, jobID, jobIDGenerationTime: ts, transitionTimes: { ...draft.status?.transitionTimes, triggerTime: ts } };
  });
  return jobID;
}

export async function getItem(client: KubeClient, namespace: string, name: string): Promise<DeployItem | undefined> {
  try {
    return await client.get<DeployItem>(deployItemsResource, name, { namespace });
  } catch {
    return undefined;
  }
}

/** Polls until the item finished the job (jobIDFinished === jobID) and returns it. */
export async function waitFinished(client: KubeClient, namespace: string, name: string, jobID: string, timeoutMs = 10_000): Promise<DeployItem> {
  let last: DeployItem | undefined;
  await eventually(async () => {
    last = await getItem(client, namespace, name);
    return last?.status?.jobIDFinished === jobID;
  }, () => `${namespace}/${name} to finish job ${jobID} (last phase ${last?.status?.phase ?? '-'}, lastError ${last?.status?.lastError?.message ?? '-'})`, timeoutMs);
  return last!;
}

export async function waitGone(client: KubeClient, namespace: string, name: string, timeoutMs = 10_000): Promise<void> {
  await eventually(async () => (await getItem(client, namespace, name)) === undefined, `${namespace}/${name} to be gone`, timeoutMs);
}

/** Deletes the item and gives it a job, as the execution controller does, then waits until its finalizer is gone. */
export async function deleteItem(client: KubeClient, namespace: string, name: string, timeoutMs = 10_000): Promise<void> {
  await client.delete(deployItemsResource, name, { namespace });
  await trigger(client, namespace, name);
  await waitGone(client, namespace, name, timeoutMs);
}

export async function eventually(cond: () => boolean | Promise<boolean>, what: string | (() => string), timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function secretData(secret: KubeObject, key: string): string | undefined {
  const data = secret['data'] as Record<string, string> | undefined;
  const v = data?.[key];
  return v === undefined ? undefined : Buffer.from(v, 'base64').toString('utf8');
}
