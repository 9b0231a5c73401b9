// One pod on this node, driven as kubelet's pod worker drives it: set the pod up (directory, network,
// volumes), run its init containers in order and then its containers, restart them per restartPolicy with
// CrashLoopBackOff, probe them, enforce activeDeadlineSeconds, and on deletion stop them gracefully, clean
// up and remove the pod object. Everything it learns becomes one coalesced status write and kubelet's Events.
// Nothing here polls: pod changes come from the controller's watch, exits from the handles.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { podsResource } from '../../../apimachinery/builtin-resources.ts';
import { formatGoDuration } from '../../../apimachinery/duration.ts';
import { nowTime } from '../../../apimachinery/time.ts';
import type { KubeClient } from '../../../client/client.ts';
import { ConflictError, NotFoundError } from '../../../client/errors.ts';
import type { EventRecorder } from '../../../runtime/index.ts';
import type { ContainerExit } from '../../sandbox/container-handle.ts';
import { SandboxSpecError } from '../../sandbox/errors.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { imageBaseName } from '../container-argv.ts';
import { runtimeFor, type ContainerRuntime, type RunningContainer } from '../container-runtime.ts';
import { ensureImage, ImagePullFailedError } from '../oci/image-pulls.ts';
import { OCI_CONTAINER_ID_SCHEME, type ImageRuntime } from '../oci/open-image-runtime.ts';
import { containerId } from '../../oci-runtime/oci-runtime.ts';
import { PodApiObjects } from '../pod-api-objects.ts';
import { containerLogPath, podLogDir } from '../log-paths.ts';
import { LiveVolumes } from '../live-volumes.ts';
import { unmountPodVolumes } from '../pod-volumes.ts';
import type { ObjectWatches } from '../volumes/object-watches.ts';
import type { PodNetworkAttachment, PodNetworkProvider } from '../pod-network.ts';
import { restartDelayMs, type RestartBackoffOptions } from '../restart-backoff.ts';
import { ProbeWorker } from '../probes/probe-worker.ts';
import { containerConfig, preparePod, removeVolumes, type NodePolicy, type PodPlacement, type PreparedPod } from './container-spec.ts';
import type { ContainerRecord, PodContainers } from './container-record.ts';
import type { ClusterDnsSettings } from './pod-dns-config.ts';
import { EVICTED_REASON, LocalStorageMonitor, localStorageLimits } from './local-storage.ts';
import type { ContainerRegistry } from './container-registry.ts';
import { podPhase, renderStatus, type PodFactsForStatus } from './pod-status.ts';
import type { Pod } from '../../../apimachinery/api/index.ts';
import type { ContainerStateOneOf as ContainerState } from './pod-status.ts';
import { formatPod } from './format-pod.ts';
import { adoptPodStatus } from './status-adoption.ts';
import { PodStatusManager } from './status-manager.ts';
import { tracePodStart } from '../../pod-start-trace.ts';
import type { PodStartQueue } from './start-queue.ts';

export interface PodWorkerContext {
  client: KubeClient;
  /** The host sandbox: the pods' cgroups and leftovers. */
  sandbox: Sandbox;
  /** Runs the containers (the host sandbox's start where no other runtime is chosen). */
  runtime: ContainerRuntime;
  /** Pulls images and runs containers from them (--container-runtime oci, or auto with runc): absent on a host-only node. */
  images?: ImageRuntime;
  network: PodNetworkProvider;
  recorder: EventRecorder;
  logger: Logger;
  nodeName: string;
  hostIP: string;
  dataDir: string;
  policy: NodePolicy;
  restartBackoff: RestartBackoffOptions;
  /** The node's allocatable cpu and memory (the downward API's value for an unset limit). */
  nodeAllocatable: Readonly<Record<string, string>>;
  /** Where the runs' IDs, PIDs and cgroups are published for the node runtime API. */
  registry: ContainerRegistry;
  /** How often local storage is measured against emptyDir sizeLimit and ephemeral-storage limits (kubelet: 10 s). */
  localStorageIntervalMs: number;
  /** kubelet's --cluster-dns and --cluster-domain; undefined where the node serves no cluster DNS. */
  clusterDns?: ClusterDnsSettings;
  /** The pods' set-ups and container starts take turns in it, oldest pod first. */
  starts: PodStartQueue;
}

const DEFAULT_GRACE_SECONDS = 30;
/** kubelet's minimumGracePeriodInSeconds: even a forced deletion gets this long between SIGTERM and SIGKILL. */
const MINIMUM_GRACE_MS = 2000;
const DEADLINE_MESSAGE = 'Pod was active on the node longer than the specified deadline';

function isImageContainer(rec: ContainerRecord): boolean {
  return rec.status.containerID?.startsWith(OCI_CONTAINER_ID_SCHEME) === true;
}

function isTerminalPhase(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

function terminatedState(exit: ContainerExit, containerID: string | undefined): ContainerState {
  return {
    terminated: {
      exitCode: exit.exitCode,
      ...(exit.signal ? { signal: exit.exitCode - 128 } : {}),
      reason: exit.reason,
      ...(exit.message ? { message: exit.message } : {}),
      ...(exit.startedAt ? { startedAt: nowTime(exit.startedAt) } : {}),
      finishedAt: nowTime(exit.finishedAt),
      ...(containerID ? { containerID } : {}),
    },
  };
}

/** How far the worker is in stopping its pod. */
interface Stopping {
  /** Set once the containers are to stop (deletion, deadline, vanished pod, agent stop). */
  halting: { graceMs: number } | undefined;
  /** Aborted with the halt (and on detach): wakes the back-offs. */
  readonly halted: AbortController;
  /** The agent stopped driving this pod: no more writes, Events or restarts. */
  detached: boolean;
  deadlineTimer: NodeJS.Timeout | undefined;
  /** Measures local storage against emptyDir sizeLimit and ephemeral-storage limits while the pod runs. */
  localStorage: LocalStorageMonitor | undefined;
  /** The pod's run (or, for a pod already finished, the release of what it held). */
  finished: Promise<void> | undefined;
  /** The one deletion in progress, however many times the watch reports it. */
  deletion: Promise<void> | undefined;
}

export class PodWorker {
  private pod: Pod;
  /** The containers and what the pod's status is computed from. */
  private readonly state: PodContainers;
  /** The pod's directory, network and volumes, once set up (the sandbox is ready). */
  private prepared: PreparedPod | undefined;
  private readonly stopping: Stopping = { halting: undefined, halted: new AbortController(), detached: false, deadlineTimer: undefined, localStorage: undefined, finished: undefined, deletion: undefined };
  private readonly status: PodStatusManager;
  /** Keeps the configMap, secret, downwardAPI and projected volumes current while the pod runs. */
  private liveVolumes: LiveVolumes | undefined;
  /** The pod's place in the node's start queue. */
  private readonly startTicket: number;

  constructor(
    private readonly ctx: PodWorkerContext,
    pod: Pod,
    private readonly objectWatches?: ObjectWatches,
  ) {
    this.pod = pod;
    this.startTicket = ctx.starts.ticket();
    this.state = adoptPodStatus(pod, (containerID) => ctx.images?.claim(containerID) ?? false);
    this.status = new PodStatusManager({
      client: ctx.client,
      logger: ctx.logger,
      pod: () => this.pod,
      written: (written) => (this.pod = written),
      render: (existing) => renderStatus(existing, this.view(), { hostIP: ctx.hostIP, podIP: this.prepared?.placement.podIP ?? this.pod.status?.podIP, startTime: this.state.startTime }),
    });
    ctx.registry.addPod({ uid: this.uid, namespace: this.namespace, name: this.name, containers: [...this.state.init, ...this.state.containers].map((r) => r.spec.name) });
  }

  get uid(): string {
    return this.pod.metadata.uid ?? '';
  }

  get name(): string {
    return this.pod.metadata.name ?? '';
  }

  get namespace(): string {
    return this.pod.metadata.namespace ?? '';
  }

  private get podDir(): string {
    return join(this.ctx.dataDir, 'pods', this.uid);
  }

  private get logDir(): string {
    return podLogDir(this.ctx.dataDir, { namespace: this.namespace, podName: this.name, podUid: this.uid });
  }

  /** Runs the pod (or, for a pod already finished, just releases what it held). */
  start(): void {
    this.stopping.finished = isTerminalPhase(this.pod) ? this.releaseResources() : this.run();
    if (this.pod.metadata.deletionTimestamp) this.update(this.pod);
  }

  /** A newer version of the pod from the watch. */
  update(pod: Pod): void {
    this.pod = pod;
    this.liveVolumes?.podChanged(pod.metadata.labels, pod.metadata.annotations);
    if (!pod.metadata.deletionTimestamp || this.stopping.deletion) return;
    this.beginDeletion(true).catch((err: unknown) => this.ctx.logger.warn({ err, pod: formatPod(this.pod) }, 'deleting the pod failed'));
  }

  private deletionGraceMs(): number {
    const seconds = this.pod.metadata.deletionGracePeriodSeconds ?? this.pod.spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
    return Math.max(MINIMUM_GRACE_MS, seconds * 1000);
  }

  /**
   * The pod object is gone (deleted without waiting for this node): stop its containers now, with the grace
   * period kubelet gives a pod removed from the API, and clean up.
   */
  vanished(): Promise<void> {
    return this.beginDeletion(false);
  }

  /**
   * The agent stops. With killPods the containers are killed and the pod's processes removed; without,
   * they are left running for the next agent to find. keepImageContainers spares a pod whose image containers
   * run (their runtime keeps them for the next agent to adopt): only its host sandbox containers are killed, and
   * its network and volumes stay. Either way this worker writes nothing more. Resolves true when the pod was kept.
   */
  async detach(killPods: boolean, keepImageContainers = false): Promise<boolean> {
    this.stopping.detached = true;
    this.ctx.registry.removePod(this.uid);
    this.stopTimers();
    // Wakes the restart and setup back-offs, which then see the worker detached and end.
    this.stopping.halted.abort();
    await this.stopVolumeUpdates();
    const records = [...this.state.init, ...this.state.containers];
    const kept = killPods && keepImageContainers && records.some((rec) => rec.handle?.isRunning === true && isImageContainer(rec));
    if (kept) {
      await Promise.all(records.flatMap((rec) => (rec.handle === undefined || isImageContainer(rec) ? [] : [rec.handle.stop(0)])));
    } else if (killPods) {
      this.halt(0);
      await this.stopping.finished;
      await this.releaseResources();
      // Nothing of a killed pod stays mounted: the data dir can be removed once the agent is gone.
      await unmountPodVolumes(this.podDir).catch((err: unknown) => this.ctx.logger.error({ err, pod: formatPod(this.pod) }, 'unmounting the pod\'s volumes failed'));
    }
    await this.status.settled();
    return kept;
  }

  /** The container's live handle, for exec and logs. */
  runningHandle(container: string): RunningContainer | undefined {
    const rec = this.record(container);
    return rec && 'running' in rec.status.state ? rec.handle : undefined;
  }

  /** Where the host reaches the pod's ports while its network is set up (port-forward, probes). */
  podAddress(): string | undefined {
    const placement = this.prepared?.placement;
    if (placement === undefined) return undefined;
    return placement.network.kind === 'host' ? '127.0.0.1' : placement.podIP;
  }

  /** The CRI log of the current (or last) run, or of the run before it. */
  logPath(container: string, previous: boolean): string | undefined {
    const rec = this.record(container);
    if (rec === undefined) return undefined;
    const run = rec.nextRun - (previous ? 2 : 1);
    if (run < 0) return undefined;
    return containerLogPath(this.ctx.dataDir, { namespace: this.namespace, podName: this.name, podUid: this.uid, container, restartCount: run });
  }

  private record(name: string): ContainerRecord | undefined {
    return [...this.state.containers, ...this.state.init].find((r) => r.spec.name === name);
  }

  private async run(): Promise<void> {
    try {
      // The deadline counts from startTime, setup included.
      this.startDeadline();
      if (!(await this.prepare())) return;
      if (!this.state.initialized) {
        for (const rec of this.state.init) {
          if (rec.done) continue;
          const succeeded = await this.runContainer(rec);
          if (this.stopping.halting) return;
          if (!succeeded) {
            this.state.failure = {};
            this.status.request();
            return;
          }
        }
        this.state.initialized = true;
        for (const rec of this.state.containers) if ('waiting' in rec.status.state) rec.status.state = { waiting: { reason: 'ContainerCreating' } };
        this.status.request();
      }
      await Promise.all(this.state.containers.filter((r) => !r.done).map((r) => this.runContainer(r)));
    } catch (error) {
      this.ctx.logger.error({ err: error, pod: formatPod(this.pod) }, 'pod worker failed');
    } finally {
      clearTimeout(this.stopping.deadlineTimer);
      this.stopping.localStorage?.stop();
      if (!this.stopping.detached && !this.stopping.halting) await this.releaseResources();
    }
  }

  /** Sets the pod's directory, network and volumes up; retried with back-off until it works or the pod goes. */
  private async prepare(): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      if (this.stopping.halting || this.stopping.detached) return false;
      // The volumes are set up while the namespace is made: they need only the pod's address, which comes first.
      let early: { attachment: PodNetworkAttachment; prepared: Promise<PreparedPod> } | undefined;
      try {
        const prepareFor = (attachment: PodNetworkAttachment) => preparePod(this.pod, this.placement(attachment), this.ctx.client);
        this.prepared = await this.inTurn(async () => {
          const attachment =
            this.pod.spec.hostNetwork === true
              ? { podIP: this.ctx.hostIP, network: { kind: 'host' as const } }
              : await this.ctx.network.attach({ uid: this.uid, name: this.name, namespace: this.namespace }, (addressed) => {
                  early = { attachment: addressed, prepared: prepareFor(addressed) };
                  early.prepared.catch(() => undefined); // awaited below, or settled before a retry
                });
          tracePodStart(this.uid, 'network');
          const ahead = early?.attachment.podIP === attachment.podIP ? early?.prepared : undefined;
          return await (ahead ?? prepareFor(attachment));
        });
        tracePodStart(this.uid, 'prepared');
        for (const warning of this.prepared.warnings) void this.ctx.recorder.warning(this.pod, warning.reason, warning.message);
        this.watchLocalStorage(this.prepared);
        this.watchVolumeSources(this.prepared);
        this.status.request();
        return true;
      } catch (error) {
        // A volume set-up begun beside a failed attach ends before the next try begins its own.
        await early?.prepared.catch(() => undefined);
        if (this.haltedInLine(error)) return false;
        const reason = error instanceof SandboxSpecError ? error.reason : 'CreateContainerError';
        const message = (error as Error).message;
        for (const rec of [...this.state.init, ...this.state.containers]) if (!rec.done) rec.status.state = { waiting: { reason, message } };
        void this.ctx.recorder.warning(this.pod, 'Failed', `Error: ${message}`);
        this.status.request();
        await this.pause(restartDelayMs(attempt, this.ctx.restartBackoff));
      }
    }
  }

  /** Runs a set-up step in the pod's turn on the node; rejects with the halt's reason if the pod halts first. */
  private inTurn<T>(setup: () => Promise<T>): Promise<T> {
    return this.ctx.starts.run(this.startTicket, this.stopping.halted.signal, setup);
  }

  /** The pod halted (or the agent let it go) while it waited for its turn: nothing was set up or started. */
  private haltedInLine(error: unknown): boolean {
    const { signal } = this.stopping.halted;
    return signal.aborted && error === signal.reason;
  }

  private placement(attachment: PodNetworkAttachment): PodPlacement {
    const { ctx } = this;
    return { nodeName: ctx.nodeName, podDir: this.podDir, dataDir: ctx.dataDir, podIP: attachment.podIP, hostIP: ctx.hostIP, network: attachment.network, nodeAllocatable: ctx.nodeAllocatable, ...(ctx.clusterDns !== undefined ? { clusterDns: ctx.clusterDns } : {}) };
  }

  /** Resolves after ms, or at once when the pod halts. */
  private pause(ms: number): Promise<void> {
    if (this.stopping.halted.signal.aborted) return Promise.resolve();
    const signal = this.stopping.halted.signal;
    return new Promise((resolve) => {
      const onAbort = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private restartPolicy(rec: ContainerRecord): 'Always' | 'OnFailure' | 'Never' {
    const policy = this.pod.spec.restartPolicy ?? 'Always';
    // Init containers must finish: under Always they are retried on failure only.
    return rec.init && policy === 'Always' ? 'OnFailure' : policy;
  }

  /** Runs a container until it is done for good or the pod halts; true when its last run succeeded. */
  private async runContainer(rec: ContainerRecord): Promise<boolean> {
    let configFailures = 0;
    for (;;) {
      if (this.stopping.halting || this.stopping.detached) return false;
      const prepared = this.prepared;
      if (prepared === undefined) return false;
      // An adopted run keeps its count; a new one counts the runs before it.
      const restartCount = rec.adopt !== undefined ? rec.status.restartCount : rec.nextRun;
      let exit: ContainerExit;
      let containerID: string | undefined;
      try {
        const adopted = this.adoptRun(rec, prepared);
        if (adopted) {
          containerID = adopted.containerID;
          exit = await adopted.handle.exited;
        } else {
          const run = await this.chooseRuntime(rec, restartCount);
          tracePodStart(this.uid, 'image');
          const handle = await this.inTurn(async () => {
            const { spec, warnings } = await containerConfig(this.pod, rec.spec, prepared, run.policy, this.ctx.client);
            tracePodStart(this.uid, 'config');
            for (const warning of warnings) void this.ctx.recorder.warning(this.pod, 'InvalidEnvironmentVariableNames', warning);
            const logPath = containerLogPath(this.ctx.dataDir, { namespace: this.namespace, podName: this.name, podUid: this.uid, container: rec.spec.name, restartCount });
            return await run.runtime.start({ pod: prepared.facts, container: spec, logPath });
          });
          containerID = run.containerID;
          if ('terminated' in rec.status.state) rec.status.lastState = rec.status.state;
          rec.status.restartCount = restartCount;
          rec.nextRun = restartCount + 1;
          rec.status.containerID = containerID;
          rec.status.imageID = run.imageID;
          rec.handle = handle;
          configFailures = 0;
          void this.ctx.recorder.normal(this.pod, 'Created', `Created container: ${rec.spec.name}`);
          if (handle.pid !== undefined) {
            rec.status.state = { running: { startedAt: nowTime() } };
            rec.status.started = rec.spec.startupProbe === undefined;
            rec.status.ready = rec.spec.readinessProbe === undefined && rec.status.started && !rec.init;
            void this.ctx.recorder.normal(this.pod, 'Started', `Started container ${rec.spec.name}`);
            tracePodStart(this.uid, 'started');
            this.status.request();
            this.running(rec, containerID, handle, prepared);
          }
          exit = await handle.exited;
        }
      } catch (error) {
        if (this.stopping.detached) return false;
        if (this.haltedInLine(error)) return false;
        const reason = error instanceof SandboxSpecError ? error.reason : 'CreateContainerError';
        const message = (error as Error).message;
        rec.status.state = { waiting: { reason, message } };
        if (error instanceof ImagePullFailedError) await this.imagePullBackOff(rec, error.image);
        else {
          void this.ctx.recorder.warning(this.pod, 'Failed', `Error: ${message}`);
          this.status.request();
        }
        await this.pause(restartDelayMs(configFailures++, this.ctx.restartBackoff));
        continue;
      }
      this.stopProbes(rec);
      rec.handle = undefined;
      this.ctx.registry.stopped(this.uid, rec.spec.name);
      if (this.stopping.detached) return false;
      rec.status.state = terminatedState(exit, containerID);
      rec.status.ready = false;
      rec.status.started = false;
      if (exit.reason === 'StartError') void this.ctx.recorder.warning(this.pod, 'Failed', `Error: ${exit.message ?? 'the container could not start'}`);
      const policy = this.restartPolicy(rec);
      const restart = !this.stopping.halting && (policy === 'Always' || (policy === 'OnFailure' && exit.exitCode !== 0));
      if (!restart) {
        rec.done = true;
        // A completed init container reports ready, as kubelet's do.
        rec.status.ready = rec.init && exit.exitCode === 0;
        this.status.request();
        return exit.exitCode === 0;
      }
      // kubelet restarts a container the first time at once, then backs off from the initial delay.
      const delayMs = restartCount === 0 ? 0 : restartDelayMs(restartCount - 1, this.ctx.restartBackoff);
      if (delayMs > 0) {
        rec.status.lastState = rec.status.state;
        rec.status.state = { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${formatGoDuration(delayMs)} restarting failed container=${rec.spec.name} pod=${formatPod(this.pod)}` } };
        void this.ctx.recorder.warning(this.pod, 'BackOff', `Back-off restarting failed container ${rec.spec.name} in pod ${formatPod(this.pod)}`);
        this.status.request();
        await this.pause(delayMs);
      } else this.status.request();
    }
  }

  /** The container runs: the node runtime API learns of it, probes start (or, halting, it stops at once). */
  private running(rec: ContainerRecord, containerID: string, handle: RunningContainer, prepared: PreparedPod): void {
    this.ctx.registry.started(this.uid, rec.spec.name, containerID, handle);
    // A halt that came while the container started: stop it now.
    const halting = this.currentHalt();
    if (halting) void this.stopContainer(rec, halting.graceMs, false);
    else this.startProbes(rec, handle, prepared);
  }

  /**
   * The run an earlier agent started, which its runtime kept (adoptPodStatus found it): driven from here as if
   * this agent had started it, no Created or Started again. Undefined when there is none to adopt, or it is gone.
   */
  private adoptRun(rec: ContainerRecord, prepared: PreparedPod): { containerID: string; handle: RunningContainer } | undefined {
    const containerID = rec.adopt;
    if (containerID === undefined) return undefined;
    delete rec.adopt;
    const handle = this.ctx.images?.adopt(containerID);
    if (handle === undefined) return undefined;
    rec.handle = handle;
    this.status.request();
    this.running(rec, containerID, handle, prepared);
    return { containerID, handle };
  }

  /**
   * The host sandbox with today's image table, or (bosun-host, Bosun's own images and host-only nodes aside) the
   * image pulled per its policy, its Entrypoint and Cmd standing in for the table's entry.
   */
  private async chooseRuntime(rec: ContainerRecord, attempt: number): Promise<{ runtime: ContainerRuntime; policy: NodePolicy; imageID: string; containerID: string }> {
    const images = this.ctx.images;
    if (images === undefined || runtimeFor(this.pod, rec.spec.image, { oci: true, imageMap: this.ctx.policy.imageMap }) === 'host') {
      void this.ctx.recorder.normal(this.pod, 'Pulled', `Container image "${rec.spec.image ?? ''}" already present on machine`);
      return { runtime: this.ctx.runtime, policy: this.ctx.policy, imageID: `bosun://host/${rec.spec.image ?? ''}`, containerID: `bosun://${randomBytes(32).toString('hex')}` };
    }
    const image = await ensureImage(this.pod, rec.spec, images.images, new PodApiObjects(this.ctx.client, this.namespace), this.ctx.recorder);
    images.changed();
    const defaults = { entrypoint: image.config.entrypoint ?? [], cmd: image.config.cmd ?? [] };
    const policy = { ...this.ctx.policy, imageMap: { ...this.ctx.policy.imageMap, [imageBaseName(rec.spec.image ?? '')]: defaults } };
    // The runtime's own id: what the next agent finds the container by.
    const containerID = `${OCI_CONTAINER_ID_SCHEME}${containerId(this.uid, rec.spec.name, attempt)}`;
    return { runtime: images.containers.runtimeFor(image, attempt), policy, imageID: image.imageID, containerID };
  }

  /** kubelet's sequence after a failed pull: ErrImagePull written, then ImagePullBackOff while the back-off runs. */
  private async imagePullBackOff(rec: ContainerRecord, image: string): Promise<void> {
    this.status.request();
    await this.status.settled();
    if (this.stopping.halting || this.stopping.detached) return;
    const message = `Back-off pulling image "${image}"`;
    rec.status.state = { waiting: { reason: 'ImagePullBackOff', message } };
    void this.ctx.recorder.normal(this.pod, 'BackOff', message);
    this.status.request();
  }

  private startProbes(rec: ContainerRecord, handle: RunningContainer, prepared: PreparedPod): void {
    const target = { handle, host: this.podAddress() ?? prepared.placement.podIP, ports: rec.spec.ports ?? [] };
    const unhealthy = (kind: string) => (outcome: { output: string }) => void this.ctx.recorder.warning(this.pod, 'Unhealthy', `${kind} probe failed: ${outcome.output}`);
    const readiness = rec.spec.readinessProbe;
    const liveness = rec.spec.livenessProbe;
    const startOthers = () => {
      if (readiness) {
        rec.probes.push(
          new ProbeWorker({
            kind: 'readiness',
            probe: readiness,
            target,
            onFailure: unhealthy('Readiness'),
            onResult: (success) => {
              rec.status.ready = success && !rec.init;
              this.status.request();
            },
          }),
        );
      }
      if (liveness) {
        rec.probes.push(
          new ProbeWorker({
            kind: 'liveness',
            probe: liveness,
            target,
            onFailure: unhealthy('Liveness'),
            onResult: (success) => {
              if (success) return;
              void this.ctx.recorder.normal(this.pod, 'Killing', `Container ${rec.spec.name} failed liveness probe, will be restarted`);
              void this.stopContainer(rec, this.graceMs(), false);
            },
          }),
        );
      }
      for (const probe of rec.probes) probe.start();
    };
    const startup = rec.spec.startupProbe;
    if (startup === undefined) return startOthers();
    const worker = new ProbeWorker({
      kind: 'startup',
      probe: startup,
      target,
      onFailure: unhealthy('Startup'),
      onResult: (success) => {
        if (success) {
          rec.status.started = true;
          if (readiness === undefined && !rec.init) rec.status.ready = true;
          this.status.request();
          startOthers();
          return;
        }
        void this.ctx.recorder.normal(this.pod, 'Killing', `Container ${rec.spec.name} failed startup probe, will be restarted`);
        void this.stopContainer(rec, this.graceMs(), false);
      },
    });
    rec.probes.push(worker);
    worker.start();
  }

  private stopProbes(rec: ContainerRecord): void {
    for (const probe of rec.probes) probe.stop();
    rec.probes = [];
  }

  private graceMs(): number {
    return Math.max(MINIMUM_GRACE_MS, (this.pod.spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS) * 1000);
  }

  /** Stops a run with the grace period; never rejects (its exit reaches runContainer through the handle). */
  private async stopContainer(rec: ContainerRecord, graceMs: number, announce: boolean): Promise<void> {
    const handle = rec.handle;
    if (handle === undefined) return;
    this.stopProbes(rec);
    if (announce) void this.ctx.recorder.normal(this.pod, 'Killing', `Stopping container ${rec.spec.name}`);
    try {
      await handle.stop(graceMs);
    } catch (err) {
      this.ctx.logger.warn({ err, pod: formatPod(this.pod), container: rec.spec.name }, 'stopping a container failed');
    }
  }


  /** Read through a method: the awaits in runContainer change it behind the compiler's narrowing. */
  private currentHalt(): { graceMs: number } | undefined {
    return this.stopping.halting;
  }

  /** Stops every container with the grace period and lets no container start again. */
  private halt(graceMs: number): void {
    if (this.stopping.halting) {
      // A shorter grace (a second DELETE, a vanished pod) still applies to what is running.
      if (graceMs >= this.stopping.halting.graceMs) return;
    }
    this.stopping.halting = { graceMs };
    this.stopping.halted.abort();
    clearTimeout(this.stopping.deadlineTimer);
    this.stopping.localStorage?.stop();
    for (const rec of [...this.state.init, ...this.state.containers]) void this.stopContainer(rec, graceMs, !this.stopping.detached);
  }

  private startDeadline(): void {
    const seconds = this.pod.spec.activeDeadlineSeconds;
    if (seconds === undefined) return;
    const remainingMs = Date.parse(this.state.startTime) + seconds * 1000 - Date.now();
    this.stopping.deadlineTimer = setTimeout(() => {
      if (this.failPod('DeadlineExceeded', DEADLINE_MESSAGE, this.graceMs())) void this.ctx.recorder.normal(this.pod, 'DeadlineExceeded', DEADLINE_MESSAGE);
    }, Math.max(0, remainingMs));
  }

  private watchVolumeSources(prepared: PreparedPod): void {
    if (this.objectWatches === undefined) return;
    const options = { client: this.ctx.client, watches: this.objectWatches, recorder: this.ctx.recorder, logger: this.ctx.logger, pod: () => this.pod };
    this.liveVolumes = new LiveVolumes(options, prepared.context, this.pod.spec.volumes ?? []);
    this.liveVolumes.start();
  }

  /** Stops updating the volumes and waits for an update in progress: the volumes may go next. */
  private async stopVolumeUpdates(): Promise<void> {
    const live = this.liveVolumes;
    this.liveVolumes = undefined;
    await live?.stop();
  }

  /** kubelet's local storage eviction (local-storage.ts): killed at once, as kubelet evicts for it. */
  private watchLocalStorage(prepared: PreparedPod): void {
    this.stopping.localStorage?.stop();
    const volumePaths = new Map([...prepared.volumes].map(([name, volume]) => [name, volume.hostPath]));
    const limits = localStorageLimits(this.pod, this.podDir, volumePaths);
    if (limits === undefined) return;
    this.stopping.localStorage = new LocalStorageMonitor(limits, this.ctx.localStorageIntervalMs, (message) => {
      if (this.failPod(EVICTED_REASON, message, 0)) void this.ctx.recorder.warning(this.pod, EVICTED_REASON, message);
    });
    this.stopping.localStorage.start();
  }

  /** Fails a running pod (deadline, eviction): its containers stop and none starts again. False if it is done already. */
  private failPod(reason: string, message: string, graceMs: number): boolean {
    const phase = podPhase(this.view());
    if (this.stopping.halting || this.stopping.detached || phase === 'Succeeded' || phase === 'Failed') return false;
    this.state.failure = { reason, message };
    this.halt(graceMs);
    this.status.request();
    void this.stopping.finished?.then(() => this.releaseResources());
    return true;
  }

  /** Stops the containers (a later call may shorten the grace period) and cleans up once. */
  private beginDeletion(deleteObject: boolean): Promise<void> {
    this.halt(this.deletionGraceMs());
    this.stopping.deletion ??= this.finishDeletion(deleteObject);
    return this.stopping.deletion;
  }

  private async finishDeletion(deleteObject: boolean): Promise<void> {
    await this.stopping.finished;
    await this.status.settled();
    if (this.stopping.detached) return;
    await this.releaseResources();
    try {
      await removeVolumes(this.podDir);
      await rm(this.podDir, { recursive: true, force: true });
    } catch (err) {
      // A volume that will not unmount must not keep the pod object; the next agent start retries the removal.
      this.ctx.logger.error({ err, pod: formatPod(this.pod) }, 'removing the pod directory failed');
    }
    // An agent stopped meanwhile leaves the object to the next one, which finds deletionTimestamp and finishes.
    if (deleteObject && !this.stopping.detached) {
      try {
        await this.ctx.client.delete(podsResource, this.name, { namespace: this.namespace, gracePeriodSeconds: 0, preconditions: { uid: this.uid } });
      } catch (error) {
        if (!(error instanceof NotFoundError) && !(error instanceof ConflictError)) throw error;
      }
    }
    this.stopping.detached = true;
    this.ctx.registry.removePod(this.uid);
    this.stopTimers();
    // The logs go with the pod object (kubectl logs works until then).
    await rm(this.logDir, { recursive: true, force: true });
  }

  /**
   * Kills whatever is left of the pod's processes and releases its address; status and logs stay. Never
   * rejects: a failure is logged, and the next agent start kills what is left.
   */
  private async releaseResources(): Promise<void> {
    await this.stopVolumeUpdates();
    try {
      await this.ctx.sandbox.destroyPod(this.uid);
      if (this.pod.spec.hostNetwork !== true) await this.ctx.network.detach(this.uid);
    } catch (err) {
      this.ctx.logger.error({ err, pod: formatPod(this.pod) }, 'releasing the pod failed');
    }
    if (this.prepared) {
      this.prepared = undefined;
      this.status.request();
    }
    this.ctx.images?.collect();
  }

  private view(): PodFactsForStatus {
    return { ...this.state, sandboxReady: this.prepared !== undefined };
  }

  private stopTimers(): void {
    clearTimeout(this.stopping.deadlineTimer);
    this.stopping.localStorage?.stop();
    this.status.stop();
    for (const rec of [...this.state.init, ...this.state.containers]) this.stopProbes(rec);
  }
}
