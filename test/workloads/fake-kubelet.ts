// A stand-in for the kubelet in the workload controller tests: it registers Nodes (capacity, Ready, a Lease it
// renews in kube-node-lease) and, when the scheduler binds a pod to one of them, writes the pod's status as a
// kubelet would: Running and Ready, or finished (Succeeded / Failed with the container's exit code). Nothing runs.
// The real node agent (src/node) replaces it; tests decide each pod's fate through `decide`, or keep a pod
// Running until `finish` or `markReady` is called.
import { nowMicroTime, nowTime } from '../../src/apimachinery/time.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { NotFoundError } from '../../src/client/errors.ts';
import { Informer } from '../../src/runtime/informer/informer.ts';
import { updateStatus } from '../../src/runtime/status.ts';
import { leasesResource, NODE_LEASE_NAMESPACE, nodesResource, podsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { Lease, Node, Pod } from '../../src/apimachinery/api/index.ts';

export interface FakeNode {
  name: string;
  cpu?: string;
  memory?: string;
  pods?: number;
  labels?: Record<string, string>;
}

/** What becomes of a pod once bound: Running (Ready unless ready is false), or finished. */
export type PodFate = { phase: 'Running'; ready?: boolean } | { phase: 'Succeeded' } | { phase: 'Failed'; exitCode?: number };

export interface FakeKubeletOptions {
  nodes: FakeNode[];
  /** How often each Lease is renewed; default 200 ms. */
  renewIntervalMs?: number;
  decide?: (pod: Pod) => PodFate;
}

export class FakeKubelet {
  /** Decides each newly bound pod's fate; Running and Ready by default. */
  decide: (pod: Pod) => PodFate;
  readonly pods: Informer<Pod>;
  private readonly client: KubeClient;
  private readonly nodes: FakeNode[];
  private readonly renewIntervalMs: number;
  private readonly heartbeats = new Map<string, NodeJS.Timeout>();
  private readonly started = new Set<string>();
  private readonly writes = new Set<Promise<void>>();

  constructor(client: KubeClient, options: FakeKubeletOptions) {
    this.client = client;
    this.nodes = options.nodes;
    this.renewIntervalMs = options.renewIntervalMs ?? 200;
    this.decide = options.decide ?? (() => ({ phase: 'Running' }));
    this.pods = new Informer<Pod>({ client, resource: podsResource, onError: () => undefined });
  }

  async start(): Promise<void> {
    for (const node of this.nodes) await this.register(node);
    this.pods.addEventHandler({ onAdd: (pod) => this.onPod(pod), onUpdate: (_old, pod) => this.onPod(pod) });
    this.pods.start();
    await this.pods.waitForSync();
  }

  async stop(): Promise<void> {
    for (const name of [...this.heartbeats.keys()]) this.stopHeartbeat(name);
    await this.pods.stop();
    await Promise.allSettled([...this.writes]);
  }

  /** The kubelet of this node dies: its Lease is no longer renewed. */
  stopHeartbeat(name: string): void {
    clearInterval(this.heartbeats.get(name));
    this.heartbeats.delete(name);
  }

  /** It comes back: renews its Lease and reports Ready again. */
  async resumeHeartbeat(name: string): Promise<void> {
    await this.renew(name);
    await this.reportReady(name);
    this.heartbeats.set(name, setInterval(() => void this.renew(name).catch(() => undefined), this.renewIntervalMs));
  }

  /** Ends a running pod's container. */
  async finish(pod: Pod, phase: 'Succeeded' | 'Failed', exitCode = phase === 'Succeeded' ? 0 : 1): Promise<void> {
    await this.write(pod, { phase, ...(phase === 'Failed' ? { exitCode } : {}) } as PodFate);
  }

  /** A running pod's readiness probe starts passing. */
  async markReady(pod: Pod): Promise<void> {
    await this.write(pod, { phase: 'Running', ready: true });
  }

  private async register(spec: FakeNode): Promise<void> {
    const capacity = { cpu: spec.cpu ?? '4', memory: spec.memory ?? '8Gi', pods: String(spec.pods ?? 110) };
    const node = await this.client.create<Node>(nodesResource, { apiVersion: 'v1', kind: 'Node', metadata: { name: spec.name, labels: { 'kubernetes.io/hostname': spec.name, ...spec.labels } } });
    const now = nowTime();
    await updateStatus<Node>(this.client, nodesResource, node, (draft) => {
      draft.status = {
        capacity,
        allocatable: capacity,
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now }],
      };
    });
    await this.client.create<Lease>(leasesResource, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: spec.name, namespace: NODE_LEASE_NAMESPACE },
      spec: { holderIdentity: spec.name, leaseDurationSeconds: 40, renewTime: nowMicroTime() },
    });
    this.heartbeats.set(spec.name, setInterval(() => void this.renew(spec.name).catch(() => undefined), this.renewIntervalMs));
  }

  private async renew(name: string): Promise<void> {
    await this.client.patch(leasesResource, name, { spec: { renewTime: nowMicroTime() } }, { type: 'merge', namespace: NODE_LEASE_NAMESPACE });
  }

  private async reportReady(name: string): Promise<void> {
    const node = await this.client.get<Node>(nodesResource, name);
    await updateStatus<Node>(this.client, nodesResource, node, (draft) => {
      const now = nowTime();
      draft.status = { ...draft.status, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now }] };
    });
  }

  private onPod(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    if (pod.metadata.deletionTimestamp && pod.spec?.nodeName && this.heartbeats.has(pod.spec.nodeName)) {
      // A kubelet's last word on a gracefully deleted pod: its containers stopped, it removes the object.
      void this.remove(pod).catch(() => undefined);
      return;
    }
    if (this.started.has(uid) || !pod.spec?.nodeName || !this.heartbeats.has(pod.spec.nodeName) || pod.metadata.deletionTimestamp) return;
    this.started.add(uid);
    void this.write(pod, this.decide(pod)).catch(() => undefined);
  }

  private async remove(pod: Pod): Promise<void> {
    try {
      await this.client.delete(podsResource, pod.metadata.name ?? '', { namespace: pod.metadata.namespace ?? '', gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid ?? '' } });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }

  private write(pod: Pod, fate: PodFate): Promise<void> {
    const done = this.writeStatus(pod, fate);
    this.writes.add(done);
    void done.finally(() => this.writes.delete(done)).catch(() => undefined);
    return done;
  }

  private async writeStatus(pod: Pod, fate: PodFate): Promise<void> {
    const now = nowTime();
    const running = fate.phase === 'Running';
    const ready = running && fate.ready !== false;
    try {
      await updateStatus<Pod>(this.client, podsResource, pod, (draft) => {
        const condition = (type: string, status: boolean, reason?: string) => {
          const before = draft.status?.conditions?.find((c) => c.type === type);
          const value = status ? 'True' : 'False';
          return { type, status: value, reason: reason ?? '', message: '', lastProbeTime: null, lastTransitionTime: before?.status === value ? before.lastTransitionTime : now } as const;
        };
        const containers = draft.spec.containers.map((c) => ({
          name: c.name,
          image: c.image ?? '',
          imageID: '',
          containerID: `fake://${draft.metadata.uid ?? ''}/${c.name}`,
          ready,
          started: running,
          restartCount: 0,
          state: running
            ? { running: { startedAt: now } }
            : { terminated: { exitCode: fate.phase === 'Failed' ? (fate.exitCode ?? 1) : 0, reason: fate.phase === 'Failed' ? 'Error' : 'Completed', startedAt: now, finishedAt: now } },
        }));
        draft.status = {
          ...draft.status,
          phase: fate.phase,
          hostIP: '127.0.0.1',
          podIP: '127.0.0.1',
          startTime: draft.status?.['startTime'] ?? now,
          conditions: [
            condition('PodScheduled', true),
            condition('Initialized', true),
            condition('ContainersReady', ready, running ? undefined : 'PodCompleted'),
            condition('Ready', ready, running ? undefined : 'PodCompleted'),
          ],
          containerStatuses: containers,
        };
      });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
}
