// The parts of core/v1, batch/v1 and apps/v1 objects the workload controllers read and write.
import type { LabelSelectorObject } from '../../apimachinery/label-selector.ts';
import type { KubeObject, ObjectMeta } from '../../apimachinery/object.ts';
import type { Condition } from '../../runtime/conditions.ts';

export type Quantities = Record<string, string>;

export interface Container {
  name: string;
  image?: string;
  resources?: { requests?: Quantities; limits?: Quantities };
  [key: string]: unknown;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: '' | 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  tolerationSeconds?: number;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface PodSpec {
  nodeName?: string;
  schedulerName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] } } };
  tolerations?: Toleration[];
  containers: Container[];
  initContainers?: Container[];
  overhead?: Quantities;
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  [key: string]: unknown;
}

/** A core/v1 PodCondition: a runtime Condition with the kubelet's probe time. */
export type PodCondition = Condition & { lastProbeTime?: string | null };

export interface ContainerStatus {
  name: string;
  ready?: boolean;
  restartCount?: number;
  state?: { terminated?: { exitCode?: number; reason?: string; finishedAt?: string } };
  [key: string]: unknown;
}

export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
  conditions?: PodCondition[];
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  [key: string]: unknown;
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: PodStatus;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec: PodSpec;
}

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  timeAdded?: string;
}

/** A core/v1 NodeCondition: a runtime Condition with the kubelet's heartbeat time. */
export type NodeCondition = Condition & { lastHeartbeatTime?: string };

export interface Node extends KubeObject {
  spec?: { unschedulable?: boolean; taints?: Taint[]; [key: string]: unknown };
  status?: { capacity?: Quantities; allocatable?: Quantities; conditions?: NodeCondition[]; [key: string]: unknown };
}

export interface Lease extends KubeObject {
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string; [key: string]: unknown };
}

export interface JobSpec {
  parallelism?: number;
  completions?: number;
  backoffLimit?: number;
  activeDeadlineSeconds?: number;
  ttlSecondsAfterFinished?: number;
  suspend?: boolean;
  completionMode?: 'NonIndexed' | 'Indexed';
  selector?: LabelSelectorObject;
  manualSelector?: boolean;
  template: PodTemplateSpec;
  [key: string]: unknown;
}

export interface JobStatus {
  conditions?: Condition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  ready?: number;
  terminating?: number;
  completedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
}

export interface Job extends KubeObject {
  spec: JobSpec;
  status?: JobStatus;
}

export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: LabelSelectorObject;
  template: PodTemplateSpec;
}

export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: Condition[];
}

export interface ReplicaSet extends KubeObject {
  spec: ReplicaSetSpec;
  status?: ReplicaSetStatus;
}

export type IntOrString = number | string;

export interface DeploymentStrategy {
  type?: 'RollingUpdate' | 'Recreate';
  rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString };
}

export interface DeploymentSpec {
  replicas?: number;
  selector?: LabelSelectorObject;
  template: PodTemplateSpec;
  strategy?: DeploymentStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

/** An apps/v1 DeploymentCondition: it also records when it was last updated. */
export interface DeploymentCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

export interface Deployment extends KubeObject {
  spec: DeploymentSpec;
  status?: DeploymentStatus;
}
