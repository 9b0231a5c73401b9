// A node agent for the pod lifecycle tests: the embedded API server over real HTTP, a real sandbox whose
// cgroups nest in this test process's own (as harness.ts does), short back-offs, and watch-driven waits.
import { mkdtemp, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventsResource, podsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { startNodeAgent, type NodeAgent, type NodeAgentOptions } from '../../src/node/agent/node-agent.ts';
import type { Container, ContainerStatus, Pod, PodSpec } from '../../src/apimachinery/api/index.ts';
import { Informer } from '../../src/runtime/informer/informer.ts';
import { createLogger } from '../../src/runtime/logger.ts';
import { Changes } from '../client/wait.ts';
import type { ApiServerOptions } from '../../src/apiserver/index.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

export const NODE = 'node-test';

export interface KubeEvent extends KubeObject {
  involvedObject: { name?: string; uid?: string };
  reason?: string;
  message?: string;
  type?: string;
  source?: { component?: string; host?: string };
}

export interface PodHarness {
  server: TestServer;
  client: KubeClient;
  agent: NodeAgent;
  dataDir: string;
  /** Starts another agent on the same node, cgroups and data dir (after agent.stop()). */
  restartAgent(): Promise<NodeAgent>;
  create(name: string, spec: Omit<PodSpec, 'nodeName'>, namespace?: string): Promise<Pod>;
  pod(name: string, namespace?: string): Pod | undefined;
  pods(): Pod[];
  container(name: string, container: string, init?: boolean): ContainerStatus | undefined;
  events(name: string): KubeEvent[];
  until(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export function busybox(name: string, script: string, more: Partial<Container> = {}): Container {
  return { name, image: 'busybox', command: ['sh', '-c', script], ...more };
}

export async function startPodHarness(options: Partial<NodeAgentOptions> = {}, serverOptions: ApiServerOptions = {}): Promise<PodHarness> {
  const server = await startTestServer(serverOptions);
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  const dataDir = await mkdtemp(join(tmpdir(), 'bosun-agent-'));
  const cgroup = { placement: 'agent' as const, name: `bosun-pods-${process.pid}-${Date.now().toString(36)}` };
  const logger = createLogger({ level: (process.env['POD_TEST_LOG'] as 'debug' | undefined) ?? 'silent' });
  const agentOptions: NodeAgentOptions = { client, nodeName: NODE, dataDir, cgroup, logger, restartBackoff: { initialMs: 300, maxMs: 1200 }, ...options };
  const changes = new Changes();
  const pods = new Informer<Pod>({ client, resource: podsResource, onError: () => undefined });
  const events = new Informer<KubeEvent>({ client, resource: eventsResource, onError: () => undefined });
  const handlers = { onAdd: changes.notify, onUpdate: changes.notify, onDelete: changes.notify };
  pods.addEventHandler(handlers);
  events.addEventHandler(handlers);
  pods.start();
  events.start();
  await Promise.all([pods.waitForSync(), events.waitForSync()]);
  const h: PodHarness = {
    server,
    client,
    dataDir,
    agent: await startNodeAgent(agentOptions),
    async restartAgent() {
      h.agent = await startNodeAgent(agentOptions);
      return h.agent;
    },
    create: (name, spec, namespace = 'default') =>
      client.create<Pod>(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { ...spec, nodeName: NODE } }, { namespace }),
    pods: () => pods.list(),
    pod: (name, namespace = 'default') => pods.list().find((p) => p.metadata.name === name && p.metadata.namespace === namespace),
    container(name, container, init = false) {
      const status = h.pod(name)?.status;
      return (init ? status?.initContainerStatuses : status?.containerStatuses)?.find((c) => c.name === container);
    },
    events: (name) => events.list().filter((e) => e.involvedObject.name === name),
    until: (check, what, timeoutMs = 15_000) => changes.until(check, timeoutMs, what),
    async close() {
      await h.agent.stop({ killPods: true });
      await Promise.allSettled(h.agent.sandbox.cgroupLayout.hierarchies.map((hierarchy) => rmdir(hierarchy.root)));
      await Promise.all([pods.stop(), events.stop()]);
      await client.close();
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return h;
}
