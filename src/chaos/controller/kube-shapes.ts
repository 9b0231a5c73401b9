// The parts of core/v1 Pods and Nodes the disruption controller reads and writes: target pods and nodes, and
// the chaos pods it creates.
import type { KubeObject } from '../../apimachinery/object.ts';

export interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
}

export interface ContainerState {
  running?: { startedAt?: string };
  waiting?: { reason?: string };
  terminated?: { exitCode?: number; reason?: string; startedAt?: string };
}

export interface ContainerStatus {
  name: string;
  containerID?: string;
  started?: boolean;
  ready?: boolean;
  state?: ContainerState;
}

export interface ContainerSpec {
  name: string;
  [key: string]: unknown;
}

export interface Pod extends KubeObject {
  spec?: { nodeName?: string; containers?: ContainerSpec[]; initContainers?: ContainerSpec[]; [key: string]: unknown };
  status?: {
    phase?: string;
    reason?: string;
    podIP?: string;
    hostIP?: string;
    conditions?: PodCondition[];
    containerStatuses?: ContainerStatus[];
    initContainerStatuses?: ContainerStatus[];
  };
}

export interface Node extends KubeObject {
  status?: { conditions?: PodCondition[] };
}

export function isReadyCondition(conditions: readonly PodCondition[] | undefined): PodCondition | undefined {
  return conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
}
