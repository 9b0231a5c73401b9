// The node agent: opens the sandbox, registers the Node, keeps its Lease, and runs the pods bound to it.
// It owns its informer and Event recorder rather than sharing a Manager: pod workers are long-lived per-pod
// state machines driven by the watch and by process exits, not idempotent reconciles, and `bosun node`
// runs an agent on its own against any API server.
import { mkdir } from 'node:fs/promises';
import type { Logger } from 'pino';
import { nodesResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import { createLogger, EventRecorder } from '../../runtime/index.ts';
import type { CgroupPlacement } from '../sandbox/cgroup-layout.ts';
import { Sandbox } from '../sandbox/sandbox.ts';
import type { ImageDefaults } from './container-argv.ts';
import { openImageRuntime, type ContainerRuntimeMode } from './oci/open-image-runtime.ts';
import { NodeLease } from './node-lease.ts';
import { desiredNodeStatus, refreshPressureConditions, registerNode, type NodeRegistrationOptions } from './node-registration.ts';
import type { NodeVersions } from './node-info.ts';
import { hostNetworkProvider, type PodNetworkProvider } from './pod-network.ts';
import type { NodeFailureRequest } from '../../client/node-runtime/protocol.ts';
import { startRuntimeApi, type RuntimeApi } from '../runtime-api/server.ts';
import { defaultRuntimeSocketPath } from '../runtime-api/socket-path.ts';
import { ContainerRegistry } from './pods/container-registry.ts';
import { PodController, type AgentStopOptions, type AgentStopResult } from './pods/pod-controller.ts';
import type { ClusterDnsSettings } from './pods/pod-dns-config.ts';
import type { PodWorkerContext } from './pods/pod-worker.ts';
import type { RestartBackoffOptions } from './restart-backoff.ts';
import type { RunningContainers } from './running-containers.ts';
import { StatsSummary } from '../stats/stats-summary.ts';
import { podCgroupRoots } from '../stats/pod-cgroup-roots.ts';
import { LocalPathReclaimer } from './volumes/local-path-provisioner.ts';
import { PodStartQueue } from './pods/start-queue.ts';

export const DEFAULT_TRUSTED_NAMESPACES = ['kube-system', 'chaos-engineering'];
export const DEFAULT_NODE_FAILURE_REBOOT_AFTER_MS = 30_000;

export interface NodeAgentOptions {
  client: KubeClient;
  nodeName: string;
  /** Pod directories and logs live here. */
  dataDir: string;
  /** Default: every pod on the host's network with the node's address, 127.0.0.1. */
  network?: PodNetworkProvider;
  /** The node's address: status.hostIP, and podIP of host-network pods. Default 127.0.0.1. */
  hostIP?: string;
  /** Namespaces whose pods may be privileged or use hostPID. */
  trustedNamespaces?: string[];
  allowRootByDefault?: boolean;
  /** Entrypoints of images beyond the built-in table (busybox, alpine, …), by base name: `bosun node --image-map`. */
  imageMap?: Record<string, ImageDefaults>;
  restartBackoff?: RestartBackoffOptions;
  /**
   * Where the pods' cgroups go; default bosun-<nodeName> at the top of each hierarchy, where a restarted agent
   * finds them, and apart from other nodes' agents on the same machine (each kills what it finds at start).
   */
  cgroup?: CgroupPlacement;
  leaseDurationSeconds?: number;
  leaseRenewIntervalMs?: number;
  /** The kubelet API's port, written to the Node's daemonEndpoints for the API server's logs and exec. */
  kubeletPort?: number;
  /** Host directories no container may see: the agent's own state (other pods' volumes and logs). */
  privateDirs?: string[];
  /** The node runtime API's unix socket; default /run/bosun/runtime-<12 hex of sha256(dataDir)>.sock. */
  runtimeSocketPath?: string;
  /** How long a crashed node (the runtime API's node failure) stays down before it comes back; default 30 s. */
  nodeFailureRebootAfterMs?: number;
  /** How often pods' local storage is measured for eviction (kubelet's housekeeping: 10 s). */
  localStorageIntervalMs?: number;
  /** auto: images run under runc when runc, conmon and overlayfs work; oci: they must; host (default): never. */
  containerRuntime?: ContainerRuntimeMode;
  /** k3s's registries.yaml: mirrors and credentials for image pulls. */
  registryConfig?: string;
  /** Pod set-ups and container starts at once, oldest pod first; default defaultMaxParallelPodStarts(). */
  maxParallelPodStarts?: number;
  /** kubelet's and the runtime's versions, for the Node's nodeInfo. */
  versions?: NodeVersions;
  /** kubelet's --cluster-dns and --cluster-domain; without it pods on ClusterFirst get the host's resolvers. */
  clusterDns?: ClusterDnsSettings;
  logger?: Logger;
}

export interface NodeAgent {
  /**
   * Stops the agent; the pods' processes keep running unless killPods (the next agent kills them), and with
   * keepImageContainers the pods whose image containers run stay for the next agent to adopt.
   */
  stop(options?: AgentStopOptions): Promise<AgentStopResult>;
  containers: RunningContainers;
  sandbox: Sandbox;
  /** The node runtime API's socket. */
  runtimeSocketPath: string;
  /**
   * A node failure (the runtime API's POST /v1/node/failure): the agent stops heartbeating and kills its pods'
   * processes without a word to the API server, as a crashed kubelet on a dying machine; after a crash it comes
   * back nodeFailureRebootAfterMs later as after a reboot, after a shutdown only when started again.
   */
  fail(request: NodeFailureRequest): Promise<void>;
  /** Resolves once a node failure's reboot is done (at once when the agent is up). */
  readonly up: Promise<void>;
  /** The node's and its pods' readings, kubelet's /stats/summary. */
  stats: StatsSummary;
}

/** What runs while the node is up: its heartbeat and its pods. A node failure ends it; a reboot starts another. */
interface Life {
  lease: NodeLease;
  pods: PodController;
}

export async function startNodeAgent(options: NodeAgentOptions): Promise<NodeAgent> {
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const hostIP = options.hostIP ?? '127.0.0.1';
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const sandbox = await Sandbox.open({
    cgroup: options.cgroup ?? { placement: 'top', name: `bosun-${options.nodeName}` },
    ...(options.allowRootByDefault !== undefined ? { allowRootByDefault: options.allowRootByDefault } : {}),
    ...(options.privateDirs !== undefined ? { privateDirs: options.privateDirs } : {}),
  });
  const cgroupName = options.cgroup?.name ?? `bosun-${options.nodeName}`;
  const ociCgroupParent = `/${cgroupName}-oci`;
  const images = await openImageRuntime({ mode: options.containerRuntime ?? 'host', dataDir: options.dataDir, cgroupParent: ociCgroupParent, ...(options.registryConfig !== undefined ? { registryConfig: options.registryConfig } : {}),
    publish: async (images) => {
      await options.client.patchStatus(nodesResource, options.nodeName, { status: { images: await images.list() } }, { type: 'merge' });
    },
    onError: (err) => logger.warn({ err }, 'the image runtime: writing Node.status.images or removing a leftover container failed'),
  });
  const registry = new ContainerRegistry();
  const runtimeSocketPath = options.runtimeSocketPath ?? defaultRuntimeSocketPath(options.dataDir);
  const context: PodWorkerContext = {
    client: options.client,
    sandbox,
    runtime: sandbox,
    ...(images ? { images } : {}),
    network: options.network ?? hostNetworkProvider(hostIP),
    recorder: new EventRecorder({ client: options.client, component: 'kubelet', instance: options.nodeName, logger }),
    logger,
    nodeName: options.nodeName,
    hostIP,
    dataDir: options.dataDir,
    policy: { trustedNamespaces: options.trustedNamespaces ?? DEFAULT_TRUSTED_NAMESPACES, imageMap: options.imageMap ?? {}, runtimeSocketPath },
    restartBackoff: options.restartBackoff ?? {},
    nodeAllocatable: desiredNodeStatus({ nodeName: options.nodeName }).allocatable ?? {},
    registry,
    localStorageIntervalMs: options.localStorageIntervalMs ?? 10_000,
    ...(options.clusterDns !== undefined ? { clusterDns: options.clusterDns } : {}),
    starts: new PodStartQueue(options.maxParallelPodStarts),
  };

  async function bootUp(): Promise<Life> {
    const registration: NodeRegistrationOptions = {
      nodeName: options.nodeName,
      fsPath: options.dataDir,
      ...(options.kubeletPort !== undefined ? { kubeletPort: options.kubeletPort } : {}),
      ...(options.versions !== undefined ? { versions: options.versions } : {}),
    };
    await registerNode(options.client, registration);
    const lease = new NodeLease(options.client, {
      afterRenew: () => refreshPressureConditions(options.client, registration),
      nodeName: options.nodeName,
      ...(options.leaseDurationSeconds !== undefined ? { leaseDurationSeconds: options.leaseDurationSeconds } : {}),
      ...(options.leaseRenewIntervalMs !== undefined ? { renewIntervalMs: options.leaseRenewIntervalMs } : {}),
      onError: (err) => logger.warn({ err }, 'could not renew the node lease'),
    });
    await lease.start();
    const pods = new PodController(context);
    try {
      await pods.start();
    } catch (error) {
      lease.stop();
      throw error;
    }
    return { lease, pods };
  }

  let life: Life | undefined = await bootUp();
  let stopped = false;
  let rebootTimer: NodeJS.Timeout | undefined;
  let up: Promise<void> = Promise.resolve();
  let cancelReboot = () => undefined as void;

  const containers: RunningContainers = {
    running: (ref) => life?.pods.running(ref),
    logPath: (ref, previous) => life?.pods.logPath(ref, previous),
    forwardTarget: (ref) => life?.pods.forwardTarget(ref),
  };

  async function reboot(): Promise<void> {
    rebootTimer = undefined;
    if (stopped || life !== undefined) return;
    logger.warn('the node comes back after a node failure');
    // A failed boot (the API server unreachable) is retried as kubelet's would be by its service manager.
    for (;;) {
      try {
        life = await bootUp();
        return;
      } catch (err) {
        logger.error({ err }, 'booting after a node failure failed');
        await new Promise((resolve) => setTimeout(resolve, 1000));
        if (stopped) return;
      }
    }
  }

  let goingDark: Promise<void> = Promise.resolve();
  function fail(request: NodeFailureRequest): Promise<void> {
    goingDark = goDark(request);
    return goingDark;
  }

  async function goDark(request: NodeFailureRequest): Promise<void> {
    const current = life;
    if (current === undefined || stopped) return;
    life = undefined;
    logger.warn({ shutdown: request.shutdown }, 'node failure: the agent goes dark');
    current.lease.stop();
    // Detached workers write nothing: the API server learns of the failure only from the missing heartbeat.
    await current.pods.stop({ killPods: true });
    if (request.shutdown || stopped) return;
    up = new Promise<void>((resolve) => {
      rebootTimer = setTimeout(() => void reboot().then(resolve), options.nodeFailureRebootAfterMs ?? DEFAULT_NODE_FAILURE_REBOOT_AFTER_MS);
      cancelReboot = () => {
        if (rebootTimer === undefined) return;
        clearTimeout(rebootTimer);
        rebootTimer = undefined;
        resolve();
      };
    });
  }

  let runtimeApi: RuntimeApi;
  try {
    runtimeApi = await startRuntimeApi({
      socketPath: runtimeSocketPath,
      nodeName: options.nodeName,
      client: options.client,
      registry,
      cgroupLayout: sandbox.cgroupLayout,
      failNode: (request) => void fail(request).catch((err: unknown) => logger.error({ err }, 'node failure failed')),
      logger,
    });
  } catch (error) {
    life.lease.stop();
    await life.pods.stop();
    throw error;
  }

  const reclaimer = new LocalPathReclaimer({ client: options.client, nodeName: options.nodeName, dataDir: options.dataDir, logger });
  reclaimer.start();

  const stats = new StatsSummary({ nodeName: options.nodeName, fsPath: options.dataDir, roots: [podCgroupRoots(sandbox.cgroupLayout), ...(images ? [podCgroupRoots(sandbox.cgroupLayout, ociCgroupParent)] : [])], podByUid: (uid) => registry.podByUid(uid) });

  return {
    containers,
    sandbox,
    stats,
    runtimeSocketPath,
    fail,
    get up() {
      return up;
    },
    async stop(stopOptions = {}) {
      stopped = true;
      await goingDark.catch(() => undefined);
      cancelReboot();
      await up;
      await runtimeApi.close();
      await reclaimer.stop();
      const current = life;
      life = undefined;
      let result: AgentStopResult = { pods: 0, kept: 0 };
      if (current) {
        current.lease.stop();
        result = await current.pods.stop(stopOptions);
      }
      // The image containers left running report their exits to the next agent, not this one.
      images?.close();
      if (stopOptions.killPods === true) await sandbox.close();
      return result;
    },
  };
}
