// Simulated nodes for benchmarks: Node objects that report Ready and a kubelet stand-in that runs no process.
// A pod bound to one of them turns Running and Ready at once (every container running, a chaos pod's injector
// "ready"), and a pod being deleted ends as kubelet ends it: a chaos pod's injector cleans (drops its
// finalizer), then the pod is removed with grace 0. What is left to measure is the control plane itself.
import { randomBytes } from 'node:crypto';
import { nodesResource, podsResource } from '../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../src/apimachinery/object.ts';
import { CHAOS_POD_FINALIZER } from '../src/chaos/api/constants.ts';
import type { KubeClient } from '../src/client/client.ts';
import { NotFoundError } from '../src/client/errors.ts';
import { updateObject } from '../src/runtime/conflict-retry.ts';
import { Informer } from '../src/runtime/informer/informer.ts';

interface PodSpecLike {
  nodeName?: string;
  containers: { name: string; image?: string }[];
}

export class HollowNodes {
  private readonly pods: Informer<KubeObject>;
  private readonly done = new Set<string>();
  private readonly ending = new Set<string>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly client: KubeClient,
    readonly names: readonly string[],
  ) {
    this.pods = new Informer<KubeObject>({ client, resource: podsResource, onError: () => {} });
    this.pods.addEventHandler({ onAdd: (p) => this.react(p), onUpdate: (_, p) => this.react(p) });
  }

  async start(): Promise<void> {
    const now = new Date().toISOString();
    for (const [i, name] of this.names.entries()) {
      const node = await this.client.create(nodesResource, {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name, labels: { 'kubernetes.io/hostname': name } },
        spec: {},
      });
      await this.client.updateStatus(nodesResource, {
        ...node,
        status: {
          conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: now, lastTransitionTime: now }],
          addresses: [{ type: 'InternalIP', address: `10.250.0.${i + 1}` }],
          capacity: { cpu: '1000', memory: '4000Gi', pods: '10000' },
          allocatable: { cpu: '1000', memory: '4000Gi', pods: '10000' },
        },
      });
    }
    this.pods.start();
    await this.pods.waitForSync();
  }

  async stop(): Promise<void> {
    await this.pods.stop();
    await Promise.allSettled([...this.pending]);
  }

  private react(pod: KubeObject): void {
    const spec = pod['spec'] as PodSpecLike;
    if (!spec.nodeName || !this.names.includes(spec.nodeName)) return;
    const key = `${pod.metadata.namespace}/${pod.metadata.name}/${pod.metadata.uid}`;
    if (pod.metadata.deletionTimestamp !== undefined) {
      if (this.ending.has(key)) return;
      this.ending.add(key);
      this.track(this.end(pod));
      return;
    }
    if (this.done.has(key)) return;
    this.done.add(key);
    this.track(this.run(pod, spec));
  }

  private track(work: Promise<unknown>): void {
    const p = work.catch(() => {}).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  private async run(pod: KubeObject, spec: PodSpecLike): Promise<void> {
    const now = new Date().toISOString();
    const index = this.names.indexOf(spec.nodeName ?? '');
    await this.client.updateStatus(podsResource, {
      ...pod,
      status: {
        phase: 'Running',
        hostIP: `10.250.0.${index + 1}`,
        podIP: `10.251.${index}.${1 + (Number.parseInt(randomBytes(1).toString('hex'), 16) % 250)}`,
        startTime: now,
        conditions: ['Initialized', 'ContainersReady', 'Ready', 'PodScheduled'].map((type) => ({ type, status: 'True', lastTransitionTime: now })),
        containerStatuses: spec.containers.map((c) => ({
          name: c.name,
          image: c.image ?? '',
          imageID: '',
          containerID: `bosun://${randomBytes(32).toString('hex')}`,
          ready: true,
          started: true,
          restartCount: 0,
          state: { running: { startedAt: now } },
        })),
      },
    });
  }

  /** A chaos pod's injector cleans and drops its finalizer; then the pod is gone, as after kubelet's grace-0 delete. */
  private async end(pod: KubeObject): Promise<void> {
    const name = pod.metadata.name ?? '';
    const namespace = pod.metadata.namespace ?? '';
    try {
      if (pod.metadata.finalizers?.includes(CHAOS_POD_FINALIZER)) {
        await updateObject(this.client, podsResource, pod, (draft) => {
          draft.metadata.finalizers = (draft.metadata.finalizers ?? []).filter((f) => f !== CHAOS_POD_FINALIZER);
        });
      }
      await this.client.delete(podsResource, name, { namespace, gracePeriodSeconds: 0, ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}) });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
}
