// The node agent: opens the sandbox, registers the Node, keeps its Lease, and runs the pods bound to it.
// It owns its informer and Event recorder rather than sharing a Manager: pod workers are long-lived per-pod
// state machines driven by the watch and by process exits, not idempotent reconciles, and `bosun node`
// runs an agent on its own against any API server.
import { mkdir } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { KubeClient } from '../../client/client.ts';
import { EventRecorder } from '../../runtime/event-recorder.ts';
import { createLogger } from '../../runtime/logger.ts';
import type { CgroupPlacement } from '../sandbox/cgroup-layout.ts';
import { Sandbox } from '../sandbox/sandbox.ts';
import type { ImageDefaults } from './container-argv.ts';
import { NodeLease } from './node-lease.ts';
import { desiredNodeStatus, registerNode } from './node-registration.ts';
import { hostNetworkProvider, type PodNetworkProvider } from './pod-network.ts';
import { PodController } from './pods/pod-controller.ts';
import type { RestartBackoffOptions } from './restart-backoff.ts';
import type { RunningContainers } from './running-containers.ts';

export const DEFAULT_TRUSTED_NAMESPACES = ['kube-system', 'chaos-engineering'];

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
  logger?: Logger;
}

export interface NodeAgent {
  /** Stops the agent; the pods' processes keep running unless killPods (the next agent kills them). */
  stop(options?: { killPods?: boolean }): Promise<void>;
  containers: RunningContainers;
  sandbox: Sandbox;
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
  await registerNode(options.client, { nodeName: options.nodeName, ...(options.kubeletPort !== undefined ? { kubeletPort: options.kubeletPort } : {}) });
  const lease = new NodeLease(options.client, {
    nodeName: options.nodeName,
    ...(options.leaseDurationSeconds !== undefined ? { leaseDurationSeconds: options.leaseDurationSeconds } : {}),
    ...(options.leaseRenewIntervalMs !== undefined ? { renewIntervalMs: options.leaseRenewIntervalMs } : {}),
    onError: (err) => logger.warn({ err }, 'could not renew the node lease'),
  });
  await lease.start();
  const pods = new PodController({
    client: options.client,
    sandbox,
    network: options.network ?? hostNetworkProvider(hostIP),
    recorder: new EventRecorder({ client: options.client, component: 'kubelet', instance: options.nodeName, logger }),
    logger,
    nodeName: options.nodeName,
    hostIP,
    dataDir: options.dataDir,
    policy: { trustedNamespaces: options.trustedNamespaces ?? DEFAULT_TRUSTED_NAMESPACES, imageMap: options.imageMap ?? {} },
    restartBackoff: options.restartBackoff ?? {},
    nodeAllocatable: desiredNodeStatus({ nodeName: options.nodeName }).allocatable ?? {},
  });
  try {
    await pods.start();
  } catch (error) {
    lease.stop();
    throw error;
  }
  return {
    containers: pods,
    sandbox,
    async stop(stopOptions = {}) {
      lease.stop();
      await pods.stop(stopOptions);
      if (stopOptions.killPods === true) await sandbox.close();
    },
  };
}
