// What the agent knows about a pod when it prepares its containers: the core/v1 Pod fields that volumes and
// environment read, the addresses the agent gave it (known before status is written), the node's allocatable
// (kubelet's default for unset limits) and the pod's ConfigMaps, Secrets and claims.
import type { ResourceRequirements } from '../../apimachinery/api/index.ts';
import type { PodApiObjects } from './pod-api-objects.ts';

/** The subset of core/v1 Container read here. */
export interface ContainerView {
  name: string;
  resources?: ResourceRequirements;
}

/** The subset of core/v1 Pod read here; the lifecycle's own Pod type fits it structurally. */
export interface PodView {
  metadata: { name: string; namespace: string; uid: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    containers: ContainerView[];
    initContainers?: ContainerView[];
    serviceAccountName?: string;
    enableServiceLinks?: boolean;
    securityContext?: { fsGroup?: number };
  };
}

export interface PodContext {
  pod: PodView;
  nodeName: string;
  podIPs: readonly string[];
  hostIPs: readonly string[];
  /** The node's allocatable cpu and memory (and optionally ephemeral-storage): what an unset limit reads as. */
  nodeAllocatable: Readonly<Record<string, string>>;
  objects: PodApiObjects;
}
