// Registers this host as a core/v1 Node the way kubelet does: capacity from the host, the addresses the
// agent serves on, nodeInfo from the host, the pressure conditions from its readings, and a Ready condition
// with kubelet's own reason and message; afterwards the pressure conditions are posted when they change.
import { cpus, hostname, totalmem } from 'node:os';
import { nodesResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import { AlreadyExistsError } from '../../client/errors.ts';
import type { Node, NodeCondition, NodeStatus } from '../../apimachinery/api/index.ts';
import { readNodeUsage } from '../stats/node-usage.ts';
import { hostNodeInfo, type NodeVersions } from './node-info.ts';
import { pressureConditions } from './node-pressure.ts';

export interface NodeRegistrationOptions {
  nodeName: string;
  /** Kubelet's default --max-pods. */
  maxPods?: number;
  /** The port of the agent's kubelet API, written to status.daemonEndpoints for the API server to proxy to. */
  kubeletPort?: number;
  now?: () => Date;
  /** kubelet's and the runtime's versions for nodeInfo; default the API version Bosun serves and `bosun://`. */
  versions?: NodeVersions;
  /** The node's filesystem (its data directory) for DiskPressure; default the current directory. */
  fsPath?: string;
}

const DEFAULT_VERSIONS: NodeVersions = { kubelet: 'v1.32.4-bosun', runtime: 'bosun://' };

function timestamp(options: Pick<NodeRegistrationOptions, 'now'>): string {
  return (options.now ?? (() => new Date()))().toISOString().replace(/\.\d+Z$/, 'Z');
}

export function desiredNodeStatus(options: NodeRegistrationOptions): NodeStatus {
  const now = timestamp(options);
  const resources = { cpu: String(cpus().length), memory: `${Math.floor(totalmem() / 1024)}Ki`, pods: String(options.maxPods ?? 110) };
  return {
    capacity: resources,
    allocatable: resources,
    addresses: [
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: hostname() },
    ],
    ...(options.kubeletPort === undefined ? {} : { daemonEndpoints: { kubeletEndpoint: { Port: options.kubeletPort } } }),
    conditions: [
      { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now },
    ],
  };
}

/** The pressure conditions from a fresh reading, before Ready as kubelet orders them. */
async function conditionsNow(options: NodeRegistrationOptions, previous: NodeCondition[]): Promise<NodeCondition[]> {
  const now = timestamp(options);
  return pressureConditions(await readNodeUsage(options.fsPath ?? '.'), previous, now);
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
  const status = desiredNodeStatus(options);
  const nodeInfo = await hostNodeInfo(options.versions ?? DEFAULT_VERSIONS);
  const conditions = [...(await conditionsNow(options, current.status?.conditions ?? [])), ...(status.conditions ?? [])];
  return client.updateStatus<Node>(nodesResource, { ...current, status: { ...status, nodeInfo, conditions } });
}

/** Posts the pressure conditions when a fresh reading changes one of them (kubelet's status update on change). */
export async function refreshPressureConditions(client: KubeClient, options: NodeRegistrationOptions): Promise<void> {
  const current = await client.get<Node>(nodesResource, options.nodeName);
  const before = current.status?.conditions ?? [];
  const pressure = await conditionsNow(options, before);
  const changed = pressure.some((c) => before.find((b) => b.type === c.type)?.status !== c.status);
  if (!changed) return;
  const conditions = [...pressure, ...before.filter((b) => !pressure.some((c) => c.type === b.type))];
  await client.updateStatus<Node>(nodesResource, { ...current, status: { ...current.status, conditions } });
}
