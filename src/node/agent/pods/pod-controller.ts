// The pods bound to one node: a watch on spec.nodeName=<node> feeding one PodWorker per pod uid. On start it
// first kills whatever the previous agent left running (it can no longer read those containers' output or
// learn their exits), then lets each worker restart its pod's containers per restartPolicy, and removes what
// belongs to pods that were deleted while no agent ran.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { podsResource } from '../../../apimachinery/builtin-resources.ts';
import { Informer } from '../../../runtime/index.ts';
import type { RunningContainer } from '../container-runtime.ts';
import type { ContainerRef, ForwardTarget, RunningContainers } from '../running-containers.ts';
import { removeVolumes } from './container-spec.ts';
import { PodWorker, type PodWorkerContext } from './pod-worker.ts';
import { ObjectWatches } from '../volumes/object-watches.ts';
import { tracePodStart } from '../../pod-start-trace.ts';
import type { Pod } from '../../../apimachinery/api/index.ts';

async function entries(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

export interface AgentStopOptions {
  /** Kill the pods' processes (else they are left for the next agent, which kills or adopts them). */
  killPods?: boolean;
  /** With killPods: leave the pods whose image containers run to them, for the next agent to adopt. */
  keepImageContainers?: boolean;
}

export interface AgentStopResult {
  /** The pods the agent drove. */
  pods: number;
  /** Of those, the ones left running for the next agent. */
  kept: number;
}

export class PodController implements RunningContainers {
  private readonly workers = new Map<string, PodWorker>();
  private readonly informer: Informer<Pod>;
  /** The ConfigMaps and Secrets the pods' volumes read, watched one by one while a pod needs them. */
  private readonly objectWatches: ObjectWatches;
  private stopped = false;

  constructor(private readonly ctx: PodWorkerContext) {
    this.objectWatches = new ObjectWatches(ctx.client, ctx.logger);
    this.informer = new Informer<Pod>({
      client: ctx.client,
      resource: podsResource,
      fieldSelector: `spec.nodeName=${ctx.nodeName}`,
      onError: (err, info) => ctx.logger.warn({ err, phase: info.phase }, 'pod watch failed'),
    });
  }

  async start(): Promise<void> {
    // Nothing the previous agent started can be driven any more: kill it before any worker runs.
    const leftovers = await this.ctx.sandbox.listPods();
    await Promise.all(leftovers.map((pod) => this.ctx.sandbox.destroyPod(pod.podUid)));
    this.informer.addEventHandler({
      onAdd: (pod) => this.onPod(pod),
      onUpdate: (_old, pod) => this.onPod(pod),
      onDelete: (pod) => this.onGone(pod),
    });
    this.informer.start();
    await this.informer.waitForSync();
    // Every worker of a pod this node runs exists now and has claimed the image containers its status names.
    await this.ctx.images?.removeUnclaimed();
    await this.removeOrphans();
  }

  /**
   * Stops watching; with killPods the pods' processes are killed, otherwise left for the next agent; with
   * keepImageContainers too, pods whose image containers run are left to them (PodWorker.detach). Resolves with
   * the number of pods it drove and of those left running.
   */
  async stop(options: AgentStopOptions = {}): Promise<AgentStopResult> {
    this.stopped = true;
    await this.informer.stop();
    const workers = [...this.workers.values()];
    const kept = await Promise.all(workers.map((w) => w.detach(options.killPods === true, options.keepImageContainers === true)));
    this.workers.clear();
    await this.objectWatches.stop();
    return { pods: workers.length, kept: kept.filter(Boolean).length };
  }

  running(ref: ContainerRef): RunningContainer | undefined {
    return this.worker(ref)?.runningHandle(ref.container);
  }

  logPath(ref: ContainerRef, previous: boolean): string | undefined {
    return this.worker(ref)?.logPath(ref.container, previous);
  }

  forwardTarget(ref: ContainerRef): ForwardTarget | undefined {
    const worker = this.worker(ref);
    const address = worker?.podAddress();
    return worker && address !== undefined ? { address, pod: worker.name, uid: worker.uid } : undefined;
  }

  /** The newest pod of that name: a pod deleted and created again may still have its old worker cleaning up. */
  private worker(ref: ContainerRef): PodWorker | undefined {
    return [...this.workers.values()].findLast((worker) => worker.namespace === ref.namespace && worker.name === ref.pod);
  }

  private onPod(pod: Pod): void {
    const uid = pod.metadata.uid;
    if (this.stopped || uid === undefined) return;
    const existing = this.workers.get(uid);
    if (existing) return existing.update(pod);
    tracePodStart(uid, 'worker');
    const worker = new PodWorker(this.ctx, pod, this.objectWatches);
    this.workers.set(uid, worker);
    worker.start();
  }

  private onGone(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    const worker = this.workers.get(uid);
    if (worker === undefined) return;
    void worker
      .vanished()
      .catch((err: unknown) => this.ctx.logger.warn({ err, pod: uid }, 'cleaning up a deleted pod failed'))
      .finally(() => {
        if (this.workers.get(uid) === worker) this.workers.delete(uid);
      });
  }

  /** Pod directories, log directories and network attachments of pods that no longer exist. */
  private async removeOrphans(): Promise<void> {
    const podsDir = join(this.ctx.dataDir, 'pods');
    const logsDir = join(this.ctx.dataDir, 'logs', 'pods');
    const known = (uid: string) => this.workers.has(uid);
    const [podDirs, logDirs, attached] = await Promise.all([entries(podsDir), entries(logsDir), this.ctx.network.attached()]);
    await Promise.all([
      ...podDirs.filter((uid) => !known(uid)).map(async (uid) => {
        await removeVolumes(join(podsDir, uid));
        await rm(join(podsDir, uid), { recursive: true, force: true });
      }),
      // <namespace>_<pod>_<uid>: namespaces and names cannot hold "_", so the uid is the last part.
      ...logDirs.filter((dir) => !known(dir.split('_').pop() ?? '')).map((dir) => rm(join(logsDir, dir), { recursive: true, force: true })),
      ...attached.filter((uid) => !known(uid)).map((uid) => this.ctx.network.detach(uid)),
    ]);
  }
}
