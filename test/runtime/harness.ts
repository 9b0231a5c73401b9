// A real embedded API server over HTTP for runtime integration tests, with a small Widget CRD
// (status subresource, generation tracking) to reconcile.
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/index.ts';
import type { KubeClient, ResourceRef } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';

export const widgets: ResourceRef = { group: 'test.bosun.dev', version: 'v1', resource: 'widgets', namespaced: true, kind: 'Widget' };
export const configMaps: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' };

export const widgetCrd: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.test.bosun.dev' },
  spec: {
    group: 'test.bosun.dev',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        },
      },
    ],
  },
};

export interface Harness {
  server: RunningApiServer;
  client: KubeClient;
  /** Another client, for a second manager or a competing writer. */
  newClient(): KubeClient;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const server = await startApiServer({ inMemory: true, port: 0, crds: [widgetCrd], rootCAPublisher: false });
  const clients: KubeClient[] = [];
  const newClient = (): KubeClient => {
    const c = createKubeClient({ kubeconfig: server.kubeconfig });
    clients.push(c);
    return c;
  };
  const client = newClient();
  return {
    server,
    client,
    newClient,
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await server.close();
    },
  };
}

export function widget(name: string, spec: Record<string, unknown> = {}, namespace = 'default'): KubeObject {
  return { apiVersion: 'test.bosun.dev/v1', kind: 'Widget', metadata: { name, namespace }, spec };
}

/** Resolves when cond() holds, checking after each event-loop turn; event-driven code under test needs no sleeps. */
export async function eventually(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
