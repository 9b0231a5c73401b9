// The core/v1 Volume sources the agent materialises, and what materialising one yields.
import type { ObjectFieldSelector, ResourceFieldSelector } from '../downward-api.ts';
import type { PodContext } from '../pod-context.ts';

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface ConfigMapVolumeSource {
  name: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}

export interface SecretVolumeSource {
  secretName: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}

export interface DownwardApiFile {
  path: string;
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  mode?: number;
}

export interface DownwardApiVolumeSource {
  items?: DownwardApiFile[];
  defaultMode?: number;
}

export interface VolumeProjection {
  configMap?: Omit<ConfigMapVolumeSource, 'defaultMode'>;
  secret?: Omit<SecretVolumeSource, 'defaultMode' | 'secretName'> & { name: string };
  downwardAPI?: { items?: DownwardApiFile[] };
  serviceAccountToken?: { path: string; audience?: string; expirationSeconds?: number };
}

export interface ProjectedVolumeSource {
  sources?: VolumeProjection[];
  defaultMode?: number;
}

export interface HostPathVolumeSource {
  path: string;
  type?: string;
}

export interface EmptyDirVolumeSource {
  medium?: string;
  sizeLimit?: string;
}

export interface PodVolume {
  name: string;
  emptyDir?: EmptyDirVolumeSource;
  configMap?: ConfigMapVolumeSource;
  secret?: SecretVolumeSource;
  downwardAPI?: DownwardApiVolumeSource;
  projected?: ProjectedVolumeSource;
  hostPath?: HostPathVolumeSource;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
}

export interface VolumeContext extends PodContext {
  /** The pod's directory on the node: its volumes live in <podDir>/volumes/<plugin>/<name>. */
  podDir: string;
  /** The agent's data directory: claims live in <dataDir>/volumes/pvc/<namespace>/<claim>, beyond any pod. */
  dataDir: string;
}

/** A volume ready on the host: bound from hostPath, read-only for every container when readOnly. */
export interface MaterialisedVolume {
  hostPath: string;
  readOnly: boolean;
}

/** The default mode of configMap, secret, downwardAPI and projected files (the API's defaulting: 0644). */
export const DEFAULT_FILE_MODE = 0o644;

