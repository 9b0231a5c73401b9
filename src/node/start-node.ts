// One node as `bosun up` and `bosun node` run it: the pod network (a bridge, or the host's network where no
// bridge can be made), the kubelet API that `kubectl logs` and `kubectl exec` reach through the API server,
// and the agent that registers the Node and runs its pods, with the node's own directory hidden from them.
import { createHash } from 'node:crypto';
import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { KubeClient } from '../client/client.ts';
import type { ImageDefaults } from './agent/container-argv.ts';
import { startNodeAgent, type NodeAgent } from './agent/node-agent.ts';
import type { AgentStopOptions, AgentStopResult } from './agent/pods/pod-controller.ts';
import type { ContainerRuntimeMode } from './agent/oci/open-image-runtime.ts';
import { hostNetworkProvider, type PodNetworkProvider } from './agent/pod-network.ts';
import type { ContainerRef, RunningContainers } from './agent/running-containers.ts';
import type { KubeletPki } from './kubelet-api/kubelet-pki.ts';
import type { NodeVersions } from './agent/node-info.ts';
import { startKubeletApi } from './kubelet-api/server.ts';
import { BridgeNetwork } from './network/bridge-network.ts';
import { PodNetworkUnavailableError } from './network/errors.ts';
import { DEFAULT_CLUSTER_DOMAIN, startClusterDns, type ClusterDns } from './dns/cluster-dns.ts';
import { startServiceProxy } from './proxy/service-proxy.ts';

export interface NodeOptions {
  client: KubeClient;
  nodeName: string;
  /** This node's own directory: pods, logs, network state. Containers never see it. */
  dataDir: string;
  /** More host directories no container sees (bosun up: its whole data directory, with the token and the database). */
  hiddenDirs?: string[];
  /** The kubelet API's certificates: it serves the kubelet's and accepts only clients signed by the CA (the API server). */
  kubeletPki: KubeletPki;
  /** 'bridge' (default): a network namespace and address per pod; 'host': every pod on the host's network. */
  network?: 'bridge' | 'host';
  bridgeName?: string;
  clusterCIDR?: string;
  trustedNamespaces?: string[];
  allowRootByDefault?: boolean;
  imageMap?: Record<string, ImageDefaults>;
  /** kubelet's --node-lease-duration-seconds (default 40); the Lease is renewed every quarter of it. */
  leaseDurationSeconds?: number;
  /** How long a node crashed through the runtime API's node failure stays down (default 30 s). */
  nodeFailureRebootAfterMs?: number;
  /** The node runtime API's socket (default /run/bosun/runtime-<hash of dataDir>.sock). */
  runtimeSocketPath?: string;
  containerRuntime?: ContainerRuntimeMode;
  /** k3s's registries.yaml for image pulls. */
  registryConfig?: string;
  /** Pod set-ups and container starts at once (default 8 per core). */
  maxParallelPodStarts?: number;
  /**
   * kubelet's --cluster-dns: the kube-dns Service's address(es) pods' resolv.conf names. On a bridge the node
   * serves cluster DNS on its gateway; without a bridge (or without this option) pods keep the host's resolvers.
   */
  clusterDNS?: string[];
  /** kubelet's and the runtime's versions, for the Node's nodeInfo. */
  versions?: NodeVersions;
  logger: Logger;
}

export interface RunningNode {
  readonly nodeName: string;
  readonly kubeletUrl: string;
  /** 'bridge <cidr>' or 'host', for the ready line. */
  readonly podNetwork: string;
  /** The node runtime API's unix socket. */
  readonly runtimeSocketPath: string;
  /**
   * Stops the node; with killPods its pods' processes too (else the next agent on dataDir adopts or kills them).
   * Resolves with the number of pods the node drove.
   */
  stop(options?: AgentStopOptions): Promise<AgentStopResult>;
}

/** Each node's pods live in a cgroup of their own, so that agents on one machine never touch each other's. */
function cgroupName(dataDir: string): string {
  return `bosun-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
}

/** Cluster DNS on the bridge gateway, where pods reach the node; none on the host network, or when it cannot listen. */
async function openClusterDns(options: NodeOptions, gateway: string | undefined): Promise<ClusterDns | undefined> {
  if (gateway === undefined || options.clusterDNS === undefined || options.clusterDNS.length === 0) return undefined;
  try {
    return await startClusterDns({ client: options.client, nodeName: options.nodeName, address: gateway, logger: options.logger });
  } catch (error) {
    options.logger.warn({ err: error }, `cluster DNS not served on ${gateway}:53: pods get the host's resolvers`);
    return undefined;
  }
}

async function openNetwork(options: NodeOptions): Promise<{ provider: PodNetworkProvider; hostIP: string; gateway?: string; description: string; bridge?: BridgeNetwork; release(): Promise<void> }> {
  const host = { provider: hostNetworkProvider('127.0.0.1'), hostIP: '127.0.0.1', description: 'host', release: () => Promise.resolve() };
  if (options.network === 'host') return host;
  try {
    const bridge = await BridgeNetwork.open({
      stateDir: join(options.dataDir, 'network'),
      ...(options.bridgeName !== undefined ? { bridgeName: options.bridgeName } : {}),
      ...(options.clusterCIDR !== undefined ? { clusterCIDR: options.clusterCIDR } : {}),
    });
    // Pods reach the node at the bridge's gateway: that is their status.hostIP.
    return { provider: bridge, hostIP: bridge.gateway, gateway: bridge.gateway, description: `bridge ${bridge.nodeCIDR}`, bridge, release: () => bridge.teardown() };
  } catch (error) {
    if (!(error instanceof PodNetworkUnavailableError)) throw error;
    options.logger.warn({ err: error }, 'pods get the host network');
    return host;
  }
}

export async function startNode(options: NodeOptions): Promise<RunningNode> {
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const dataDir = await realpath(options.dataDir);
  const network = await openNetwork({ ...options, dataDir });
  const dns = await openClusterDns(options, network.gateway);
  // Services need the bridge: with the host network there is no pod traffic to proxy.
  const proxy = network.bridge && (await startServiceProxy({ client: options.client, bridge: network.bridge.bridgeName, podCIDR: network.bridge.nodeCIDR, logger: options.logger }));
  // The kubelet API listens first, so the Node can name its port; it serves the agent's pods once they run.
  let agent: NodeAgent | undefined;
  const containers: RunningContainers = {
    running: (ref: ContainerRef) => agent?.containers.running(ref),
    logPath: (ref: ContainerRef, previous: boolean) => agent?.containers.logPath(ref, previous),
    forwardTarget: (ref: ContainerRef) => agent?.containers.forwardTarget(ref),
  };
  const kubelet = await startKubeletApi({ containers, summary: () => (agent ? agent.stats.summary() : Promise.reject(new Error('the node agent is not running yet'))), tls: { cert: options.kubeletPki.kubelet.cert, key: options.kubeletPki.kubelet.key, clientCA: options.kubeletPki.ca }, onError: (err) => options.logger.warn({ err }, 'kubelet API request failed') });
  try {
    agent = await startNodeAgent({
      client: options.client,
      nodeName: options.nodeName,
      dataDir,
      network: network.provider,
      hostIP: network.hostIP,
      kubeletPort: kubelet.port,
      cgroup: { placement: 'top', name: cgroupName(dataDir) },
      privateDirs: [dataDir, ...(options.hiddenDirs ?? [])],
      logger: options.logger,
      ...(options.trustedNamespaces !== undefined ? { trustedNamespaces: options.trustedNamespaces } : {}),
      ...(options.allowRootByDefault !== undefined ? { allowRootByDefault: options.allowRootByDefault } : {}),
      ...(options.imageMap !== undefined ? { imageMap: options.imageMap } : {}),
      ...(options.leaseDurationSeconds !== undefined ? { leaseDurationSeconds: options.leaseDurationSeconds } : {}),
      ...(options.nodeFailureRebootAfterMs !== undefined ? { nodeFailureRebootAfterMs: options.nodeFailureRebootAfterMs } : {}),
      ...(options.runtimeSocketPath !== undefined ? { runtimeSocketPath: options.runtimeSocketPath } : {}),
      ...(options.containerRuntime !== undefined ? { containerRuntime: options.containerRuntime } : {}),
      ...(options.registryConfig !== undefined ? { registryConfig: options.registryConfig } : {}),
      ...(options.maxParallelPodStarts !== undefined ? { maxParallelPodStarts: options.maxParallelPodStarts } : {}),
      ...(options.versions !== undefined ? { versions: options.versions } : {}),
      ...(dns !== undefined && options.clusterDNS !== undefined ? { clusterDns: { nameservers: options.clusterDNS, domain: DEFAULT_CLUSTER_DOMAIN } } : {}),
    });
  } catch (error) {
    await kubelet.close();
    await dns?.stop();
    await proxy?.stop();
    // No agent takes the spare namespaces the bridge made: leave none mounted in the data dir.
    await network.bridge?.dropSpares();
    throw error;
  }
  const running = agent;
  return {
    nodeName: options.nodeName,
    kubeletUrl: kubelet.url,
    podNetwork: network.description,
    runtimeSocketPath: running.runtimeSocketPath,
    async stop(stopOptions = {}) {
      // Whatever the agent's stop meets, the node's host state goes too: the proxy's nft table, DNS, the kubelet port.
      const [stopped] = await Promise.allSettled([running.stop(stopOptions)]);
      const closed = await Promise.allSettled([kubelet.close(), dns?.stop(), proxy?.stop()]);
      const failure = [stopped, ...closed].find((c): c is PromiseRejectedResult => c?.status === 'rejected');
      if (failure) throw failure.reason;
      const result = (stopped as PromiseFulfilledResult<Awaited<ReturnType<typeof running.stop>>>).value;
      // Pods that keep running keep their namespaces for the next agent on dataDir; with them gone, the node's
      // address block goes back to the bridge (else every data dir ever used would hold a /24).
      if (stopOptions.killPods === true && result.kept === 0) await network.release();
      else await network.bridge?.dropSpares();
      return result;
    },
  };
}
