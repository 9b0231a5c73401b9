// Registers this host as a core/v1 Node the way kubelet does: capacity from the host, the addresses the
// agent serves on, and a Ready condition with kubelet's own reason and message.
import { cpus, hostname, totalmem } from 'node:os';
import { nodesResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import { AlreadyExistsError } from '../../client/errors.ts';
import type { Node, NodeStatus } from '../../apimachinery/api/index.ts';

export interface NodeRegistrationOptions {
  nodeName: string;
  /** Kubelet's default --max-pods. */
  maxPods?: number;
  /** The port of the agent's kubelet API, written to status.daemonEndpoints for the API server to proxy to. */
  kubeletPort?: number;
  now?: () => Date;
}

export function desiredNodeStatus(options: NodeRegistrationOptions): NodeStatus {
  const now = (options.now ?? (() => new Date()))().toISOString().replace(/\.\d+Z$/, 'Z');
  const resources = { cpu: String(cpus().length), memory: `${Math.floor(totalmem() / 1024)}Ki`, pods: String(options.maxPods ?? 110) };
  return {
    capacity: resources,
    allocatable: resources,
    addresses: [
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: hostname() },
    ],
    ...(options.kubeletPort === undefined ? {} : { daemonEndpoints: { kubeletEndpoint: { Port: options.kubeletPort } } }),
    nodeInfo: {
      architecture: process.arch === 'x64' ? 'amd64' : process.arch,
      operatingSystem: process.platform,
      kubeletVersion: 'bosun',
      containerRuntimeVersion: 'bosun://sandbox',
      kernelVersion: '',
      osImage: '',
      kubeProxyVersion: '',
      machineID: '',
      systemUUID: '',
      bootID: '',
    },
    conditions: [
      { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now },
    ],
  };
}

/** Creates the Node, or takes over an existing one of that name, and writes its status. */
export async function registerNode(client: KubeClient, options: NodeRegistrationOptions): Promise<Node> {
  const node: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: options.nodeName, labels: { 'kubernetes.io/hostname': options.nodeName, 'kubernetes.io/os': process.platform } } };
  let current: Node;
  try {
    current = await client.create<Node>(nodesResource, node);
  } catch (error) {
    if (!(error instanceof AlreadyExistsError)) throw error;
    current = await client.get<Node>(nodesResource, options.nodeName);
  }
  return client.updateStatus<Node>(nodesResource, { ...current, status: desiredNodeStatus(options) });
}
