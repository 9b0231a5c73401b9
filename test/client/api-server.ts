// Starts the embedded API server for client and informer tests and hands out clients for it.
import { startApiServer } from '../../src/apiserver/index.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';

export type ApiServer = Awaited<ReturnType<typeof startApiServer>>;

export interface TestServer {
  server: ApiServer;
  client: KubeClient;
  /** Closes the client and the server. */
  stop(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  const server = await startApiServer({ inMemory: true, port: 0, rootCAPublisher: false });
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  return {
    server,
    client,
    async stop() {
      await client.close();
      await server.close();
    },
  };
}

let counter = 0;
/** A name no other test in this process uses. */
export function uniqueName(prefix: string): string {
  counter++;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

export const configMaps = { group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' } as const;
export const namespaces = { group: '', version: 'v1', resource: 'namespaces', namespaced: false, kind: 'Namespace' } as const;
export const pods = { group: '', version: 'v1', resource: 'pods', namespaced: true, kind: 'Pod' } as const;

export async function createNamespace(client: KubeClient, name: string): Promise<void> {
  await client.create(namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

export function configMap(name: string, namespace: string, data: Record<string, string> = {}, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, ...(labels ? { labels } : {}) }, data };
}
