// The embedded API server over real HTTP with the workloads family on a manager, a fake kubelet, kubectl, and
// watch-driven waits: `until` re-checks whenever an informer the test watches delivers an event.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { KubeClient, ResourceRef } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { Informer } from '../../src/runtime/informer/informer.ts';
import { createLogger } from '../../src/runtime/logger.ts';
import { Manager } from '../../src/runtime/manager.ts';
import { registerWorkloads, workloadsFamily, type WorkloadsOptions } from '../../src/workloads/family.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';
import { unauthorizedRequests } from '../helpers/rbac.ts';
import { Changes } from '../client/wait.ts';
import { FakeKubelet, type FakeKubeletOptions } from './fake-kubelet.ts';

export interface KubeEvent extends KubeObject {
  involvedObject: { kind?: string; name?: string; namespace?: string; uid?: string };
  reason?: string;
  message?: string;
  type?: string;
  count?: number;
  source?: { component?: string };
}

export const eventsResource: ResourceRef = { group: '', version: 'v1', resource: 'events', namespaced: true, kind: 'Event' };

/** The user agent of the controllers' client, to tell their requests from the test's and kubectl's. */
export const CONTROLLERS_USER_AGENT = 'bosun-controllers';

export interface WorkloadsHarness {
  server: TestServer;
  client: KubeClient;
  manager: Manager;
  kubelet: FakeKubelet;
  kubectl: Kubectl;
  /** A started informer whose events wake `until`. */
  watch<T extends KubeObject>(resource: ResourceRef, options?: { namespace?: string }): Informer<T>;
  /** Resolves when check() holds, re-checked on every watched event; rejects after timeoutMs. */
  until(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Events about the named object, as `kubectl describe` lists them. */
  events(name: string): KubeEvent[];
  /** The controllers' requests so far that the family's RBAC rules would deny. */
  deniedToControllers(): string[];
  /** kubectl apply -f of the given objects. */
  apply(...objects: KubeObject[]): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  workloads?: WorkloadsOptions;
  kubelet?: Omit<FakeKubeletOptions, 'nodes'> & { nodes?: FakeKubeletOptions['nodes'] };
}

export async function startWorkloads(options: HarnessOptions = {}): Promise<WorkloadsHarness> {
  const server = await startTestServer();
  const clients: KubeClient[] = [];
  const newClient = (userAgent?: string): KubeClient => {
    const c = createKubeClient({ kubeconfig: server.kubeconfig, ...(userAgent ? { userAgent } : {}) });
    clients.push(c);
    return c;
  };
  const manager = new Manager({
    client: newClient(CONTROLLERS_USER_AGENT),
    logger: createLogger({ level: (process.env['WORKLOADS_TEST_LOG'] as 'debug' | undefined) ?? 'silent' }),
    // Tests use short deadlines: do not let a silent watch sit for the default 90 s.
    informerDefaults: { inactivityTimeoutMs: 30_000 },
    gracefulShutdownTimeoutMs: 2_000,
  });
  registerWorkloads(manager, options.workloads);
  const changes = new Changes();
  const informers: Informer<KubeObject>[] = [];
  const testClient = newClient();
  const watch = <T extends KubeObject>(resource: ResourceRef, o: { namespace?: string } = {}): Informer<T> => {
    const informer = new Informer<T>({ client: testClient, resource, onError: () => undefined, ...(o.namespace ? { namespace: o.namespace } : {}) });
    informer.addEventHandler({ onAdd: changes.notify, onUpdate: changes.notify, onDelete: changes.notify });
    informer.start();
    informers.push(informer as unknown as Informer<KubeObject>);
    return informer;
  };
  const events = watch<KubeEvent>(eventsResource);
  const kubelet = new FakeKubelet(newClient(), { nodes: [{ name: 'node-a' }], ...options.kubelet });
  await manager.start();
  await kubelet.start();
  kubelet.pods.addEventHandler({ onAdd: changes.notify, onUpdate: changes.notify, onDelete: changes.notify });
  await Promise.all(informers.map((i) => i.waitForSync()));
  const kubectl = kubectlFor(server.kubeconfigFile);
  const dir = mkdtempSync(join(tmpdir(), 'bosun-workloads-'));
  let applied = 0;
  return {
    server,
    client: testClient,
    manager,
    kubelet,
    kubectl,
    watch,
    until: (check, what, timeoutMs = 15_000) => changes.until(check, timeoutMs, what),
    events: (name) => events.list().filter((e) => e.involvedObject.name === name),
    deniedToControllers: () => {
      const requests = server.requests.filter((r) => r.userAgent === CONTROLLERS_USER_AGENT);
      if (requests.length === 0) throw new Error('the controllers made no requests under their user agent');
      return unauthorizedRequests(requests, workloadsFamily.rbac);
    },
    async apply(...objects) {
      const file = join(dir, `apply-${applied++}.json`);
      writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
      const result = await kubectl(['apply', '-f', file]);
      if (result.code !== 0) throw new Error(`kubectl apply failed: ${result.stderr}`);
    },
    async close() {
      await kubelet.stop();
      await manager.stop();
      await Promise.all(informers.map((i) => i.stop()));
      await Promise.all(clients.map((c) => c.close()));
      await server.close();
    },
  };
}
