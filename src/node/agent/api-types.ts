// The core/v1 Node and coordination/v1 Lease fields the agent writes. src/node may not import the
// workloads family's types (layering), so it keeps its own view of the same API shapes.
import type { KubeObject } from '../../apimachinery/object.ts';

export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

export interface NodeStatus {
  capacity?: Record<string, string>;
  allocatable?: Record<string, string>;
  addresses?: { type: string; address: string }[];
  nodeInfo?: Record<string, string>;
  conditions?: NodeCondition[];
  daemonEndpoints?: { kubeletEndpoint?: { Port: number } };
}

export interface Node extends KubeObject {
  status?: NodeStatus;
}

export interface Lease extends KubeObject {
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string };
}
