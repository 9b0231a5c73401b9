// The parts of batch/v1 Job and core/v1 PodSpec this controller reads and writes. Everything else in a
// template's spec.job is carried through untouched (the index signatures), for the API server to validate.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { JobCounts } from './phase.ts';

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: Record<string, unknown>;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  [field: string]: unknown;
}

export interface ContainerSecurityContext {
  allowPrivilegeEscalation?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  [field: string]: unknown;
}

export interface Container {
  name?: string;
  env?: EnvVar[];
  volumeMounts?: VolumeMount[];
  securityContext?: ContainerSecurityContext;
  [field: string]: unknown;
}

export interface PodSecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  seccompProfile?: { type?: string; localhostProfile?: string };
  [field: string]: unknown;
}

export interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  restartPolicy?: string;
  securityContext?: PodSecurityContext;
  volumes?: Array<{ name: string; [field: string]: unknown }>;
  [field: string]: unknown;
}

export interface JobSpec {
  backoffLimit?: number;
  template?: { metadata?: Record<string, unknown>; spec?: PodSpec };
  [field: string]: unknown;
}

export interface Job extends KubeObject {
  spec: JobSpec;
  status?: JobCounts & { [field: string]: unknown };
}

/** Every container and init container of the pod spec, in order. */
export function allContainers(pod: PodSpec): Container[] {
  return [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
}
