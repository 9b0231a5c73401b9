// The core/v1 Pod fields the node agent reads and writes. src/node may not import the workloads family's
// types (layering), so it keeps its own view of the same API shape.
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { EnvFromSource, EnvVarSource } from '../container-env.ts';
import type { PodVolume, VolumeMount } from '../pod-volumes.ts';

export interface SecurityContextFields {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
}

export interface ContainerSecurityContext extends SecurityContextFields {
  allowPrivilegeEscalation?: boolean;
  privileged?: boolean;
  readOnlyRootFilesystem?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
}

export interface PodSecurityContext extends SecurityContextFields {
  supplementalGroups?: number[];
  fsGroup?: number;
}

export interface ExecAction {
  command?: string[];
}

export interface HttpGetAction {
  path?: string;
  port: number | string;
  host?: string;
  scheme?: 'HTTP' | 'HTTPS';
  httpHeaders?: { name: string; value: string }[];
}

export interface TcpSocketAction {
  port: number | string;
  host?: string;
}

export interface Probe {
  exec?: ExecAction;
  httpGet?: HttpGetAction;
  tcpSocket?: TcpSocketAction;
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: string;
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: EnvVarSource[];
  envFrom?: EnvFromSource[];
  ports?: ContainerPort[];
  volumeMounts?: VolumeMount[];
  resources?: { limits?: Record<string, string>; requests?: Record<string, string> };
  securityContext?: ContainerSecurityContext;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
}

export interface PodSpec {
  nodeName?: string;
  hostname?: string;
  subdomain?: string;
  serviceAccountName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  activeDeadlineSeconds?: number;
  terminationGracePeriodSeconds?: number;
  securityContext?: PodSecurityContext;
  initContainers?: Container[];
  containers: Container[];
  volumes?: PodVolume[];
  hostAliases?: { ip: string; hostnames?: string[] }[];
  dnsPolicy?: string;
  dnsConfig?: { nameservers?: string[]; searches?: string[]; options?: { name: string; value?: string }[] };
}

export type ContainerState =
  | { waiting: { reason: string; message?: string } }
  | { running: { startedAt: string } }
  | { terminated: { exitCode: number; signal?: number; reason: string; message?: string; startedAt?: string; finishedAt: string; containerID?: string } };

export interface ContainerStatus {
  name: string;
  image: string;
  imageID: string;
  containerID?: string;
  state: ContainerState;
  lastState: ContainerState | Record<string, never>;
  ready: boolean;
  started?: boolean;
  restartCount: number;
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

export interface PodStatus {
  phase?: PodPhase;
  reason?: string;
  message?: string;
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  conditions?: PodCondition[];
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: PodStatus;
}

/** kubelet's format.Pod, as its messages and Events name a pod: name_namespace(uid). */
export function formatPod(pod: Pod): string {
  return `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
}
