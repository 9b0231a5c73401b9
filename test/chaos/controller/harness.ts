// The Disruption controller against real components: the embedded API server (with the Disruption CRD) over
// HTTP and the controller on a manager. No node agent runs, so chaos pods never start: tests play the kubelet
// by writing pod statuses (Running, Ready, Succeeded, Failed). Waiting is event-driven: a probe is re-evaluated
// whenever the test's own informers see a Disruption, Pod or Event change.
import { ChangeWaiter } from '../../helpers/change-waiter.ts';
import { pino } from 'pino';
import { eventsResource, namespacesResource, nodesResource, podsResource, serviceAccountsResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { TRUSTED_NAMESPACE_LABELS } from '../../../src/apimachinery/pod-security-labels.ts';
import { DISRUPTION_NAME_LABEL, DISRUPTION_NAMESPACE_LABEL } from '../../../src/chaos/api/constants.ts';
import { disruptionsResource } from '../../../src/chaos/api/resources.ts';
import type { Disruption, DisruptionSpec } from '../../../src/chaos/api/types.ts';
import { chaosConfig, type ChaosConfig } from '../../../src/chaos/config.ts';
import { registerDisruptionController, type DisruptionControllerOptions, type DisruptionControllers } from '../../../src/chaos/controller/index.ts';
import type { Pod } from '../../../src/apimachinery/api/index.ts';
import type { KubeClient } from '../../../src/client/client.ts';
import { createKubeClient } from '../../../src/client/create-client.ts';
import { NotFoundError } from '../../../src/client/errors.ts';
import { loadBosunCrds } from '../../../src/crds/index.ts';
import { Informer } from '../../../src/runtime/informer/informer.ts';
import { Manager } from '../../../src/runtime/manager.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';

export const CONTROLLER_USER_AGENT = 'chaos-controller-test';
export const CHAOS_NS = 'chaos-engineering';

export interface Harness {
  server: TestServer;
  client: KubeClient;
  mgr: Manager;
  controllers: DisruptionControllers;
  config: ChaosConfig;
  /** A fresh namespace for targets and disruptions. */
  namespace(): Promise<string>;
  /** A target pod on node, Running with the given containers (each running, with a containerd id). */
  targetPod(ns: string, name: string, labels: Record<string, string>, options?: { node?: string; containers?: string[]; annotations?: Record<string, string> }): Promise<Pod>;
  node(name: string, labels?: Record<string, string>, ready?: boolean): Promise<void>;
  createDisruption(ns: string, name: string, spec: Partial<DisruptionSpec>): Promise<Disruption>;
  getDisruption(ns: string, name: string): Promise<Disruption | undefined>;
  chaosPods(ns: string, name: string): Pod[];
  /** Writes a chaos pod's status as the kubelet would. */
  kubelet(pod: Pod, state: 'ready' | 'succeeded' | 'failed-started' | 'failed-unstarted'): Promise<void>;
  events(ns: string, name: string): Array<{ type: string; reason: string; message: string }>;
  until<T>(what: string, probe: () => T | Promise<T>, cond: (v: T) => boolean, timeoutMs?: number): Promise<T>;
  untilDisruption(ns: string, name: string, what: string, cond: (d: Disruption) => boolean): Promise<Disruption>;
  close(): Promise<void>;
}

type Event = KubeObject & { type: string; reason: string; message: string; involvedObject: { name: string; namespace?: string } };

export async function startHarness(options: Omit<DisruptionControllerOptions, 'config'> & { config?: Parameters<typeof chaosConfig>[0] } = {}): Promise<Harness> {
  const server = await startTestServer({ crds: loadBosunCrds().filter((c) => c.metadata.name === 'disruptions.chaos.datadoghq.com') });
  const clients: KubeClient[] = [];
  const newClient = (userAgent?: string): KubeClient => {
    const c = createKubeClient({ kubeconfig: server.kubeconfig, ...(userAgent ? { userAgent } : {}) });
    clients.push(c);
    return c;
  };
  const client = newClient();
  // Chaos pods are privileged with host paths: their namespace is trusted (labelled privileged), as the family makes it.
  await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: CHAOS_NS, labels: TRUSTED_NAMESPACE_LABELS } });
  const config = chaosConfig({ finalizerDeletionDelayMs: 300, ...options.config });
  // The injector's ServiceAccount, which the family makes with the namespace: a pod naming a missing one is refused.
  await client.create(serviceAccountsResource, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: config.injector.serviceAccount, namespace: CHAOS_NS } });
  const mgr = new Manager({ client: newClient(CONTROLLER_USER_AGENT), logger: pino({ level: process.env['TEST_LOG'] ? 'debug' : 'silent' }), gracefulShutdownTimeoutMs: 2000 });
  const { config: _ignored, ...controllerOptions } = options;
  const controllers = registerDisruptionController(mgr, { ...controllerOptions, config });

  const disruptions = new Informer<Disruption>({ client: newClient(), resource: disruptionsResource });
  const pods = new Informer<Pod>({ client: newClient(), resource: podsResource });
  const events = new Informer<Event>({ client: newClient(), resource: eventsResource });
  const watchers: Array<Informer<Disruption> | Informer<Pod> | Informer<Event>> = [disruptions, pods, events];
  const changes = new ChangeWaiter(20_000, 1000);
  for (const w of watchers) w.addEventHandler({ onAdd: changes.notify, onUpdate: changes.notify, onDelete: changes.notify });
  // The kubelet's part of a graceful pod deletion: the containers stop (a chaos pod's injector cleans and exits
  // 0, unless the test already made it fail), then the kubelet deletes the pod for good (grace 0); finalizers
  // still hold it until they are removed.
  const finishing = new Set<string>();
  pods.addEventHandler({
    onAdd: (p) => void finishDeletion(p),
    onUpdate: (_old, p) => void finishDeletion(p),
  });
  async function finishDeletion(pod: Pod): Promise<void> {
    const m = pod.metadata;
    if (!m.deletionTimestamp || m.deletionGracePeriodSeconds === 0 || !m.name) return;
    const key = `${m.namespace ?? ''}/${m.name}`;
    if (finishing.has(key)) return;
    finishing.add(key);
    try {
      const phase = pod.status?.phase;
      if (m.namespace === CHAOS_NS && phase !== 'Failed' && phase !== 'Succeeded') await h.kubelet(pod, 'succeeded');
      await client.delete(podsResource, m.name, { namespace: m.namespace ?? '', gracePeriodSeconds: 0 });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    } finally {
      finishing.delete(key);
    }
  }
  for (const w of watchers) w.start();
  await Promise.all(watchers.map((w) => w.waitForSync()));

  const h: Harness = {
    server,
    client,
    mgr,
    controllers,
    config,
    async namespace() {
      const ns = `t-${Math.random().toString(36).slice(2, 8)}`;
      await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      return ns;
    },
    async targetPod(ns, name, labels, o = {}) {
      const containers = o.containers ?? ['app'];
      await client.create(podsResource, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: ns, labels, ...(o.annotations ? { annotations: o.annotations } : {}) },
        spec: { nodeName: o.node ?? 'node-a', containers: containers.map((c) => ({ name: c, image: 'busybox' })) },
      });
      const status = {
        phase: 'Running',
        podIP: '10.1.0.9',
        hostIP: '192.168.0.1',
        containerStatuses: containers.map((c) => ({ name: c, containerID: `containerd://${name}-${c}`, ready: true, started: true, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } })),
      };
      return client.patchStatus<Pod>(podsResource, name, { status }, { type: 'merge', namespace: ns });
    },
    async node(name, labels = {}, ready = true) {
      await client.create(nodesResource, { apiVersion: 'v1', kind: 'Node', metadata: { name, labels } });
      await client.patchStatus(nodesResource, name, { status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } }, { type: 'merge' });
    },
    async createDisruption(ns, name, spec) {
      return client.create<Disruption>(disruptionsResource, {
        apiVersion: 'chaos.datadoghq.com/v1beta1',
        kind: 'Disruption',
        metadata: { name, namespace: ns },
        spec: { count: 1, duration: '10m', level: 'pod', ...spec } as DisruptionSpec,
      });
    },
    async getDisruption(ns, name) {
      try {
        return await client.get<Disruption>(disruptionsResource, name, { namespace: ns });
      } catch (err) {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      }
    },
    chaosPods: (ns, name) => pods.list(CHAOS_NS).filter((p) => p.metadata.labels?.[DISRUPTION_NAME_LABEL] === name && p.metadata.labels[DISRUPTION_NAMESPACE_LABEL] === ns),
    async kubelet(pod, state) {
      const at = new Date().toISOString();
      const injector = (s: Record<string, unknown>) => [{ name: 'injector', containerID: 'containerd://inj', ...s }];
      const status =
        state === 'ready'
          ? { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at }], containerStatuses: injector({ started: true, ready: true, state: { running: { startedAt: at } } }) }
          : state === 'succeeded'
            ? { phase: 'Succeeded', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: at }], containerStatuses: injector({ started: false, ready: false, state: { terminated: { exitCode: 0, reason: 'Completed' } } }) }
            : state === 'failed-started'
              ? { phase: 'Failed', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: at }], containerStatuses: injector({ started: true, ready: false, state: { terminated: { exitCode: 1, reason: 'Error' } } }) }
              : { phase: 'Failed', containerStatuses: injector({ started: false, state: { terminated: { exitCode: 128, reason: 'StartError' } } }) };
      await client.patchStatus(podsResource, pod.metadata.name ?? '', { status }, { type: 'merge', namespace: CHAOS_NS });
    },
    events: (ns, name) =>
      events
        .list(ns)
        .filter((e) => e.involvedObject.name === name)
        .map((e) => ({ type: e.type, reason: e.reason, message: e.message })),
    until: () => Promise.reject(new Error('until before start')),
    async untilDisruption(ns, name, what, cond) {
      const found = await h.until(what, () => disruptions.store.get(`${ns}/${name}`), (d) => d !== undefined && cond(d));
      return found!;
    },
    async close() {
      for (const w of watchers) await w.stop();
      await mgr.stop();
      for (const c of clients) await c.close();
      await server.close();
    },
  };
  h.until = changes.until;
  await mgr.start();
  return h;
}
