// Execution (types_execution.go): the templated deploy items of one installation.
import type { ObjectMeta } from '../../apimachinery/object.ts';
import type { ExecutionPhase } from './constants.ts';
import type { AnyJSON, Condition, Duration, LsError, ObjectReference, TransitionTimes } from './shared.ts';

export interface OnDeleteConfig {
  skipUninstallIfClusterRemoved?: boolean;
}

export interface DeployItemTemplate {
  /** Unique within the execution. */
  name: string;
  type: string;
  target?: ObjectReference;
  labels?: { [key: string]: string };
  /** Provider configuration (an embedded resource with apiVersion/kind). */
  config: AnyJSON;
  dependsOn?: string[];
  /** Default 10m; "none" disables. */
  timeout?: Duration;
  updateOnChangeOnly?: boolean;
  onDelete?: OnDeleteConfig;
}

export interface ExecutionSpec {
  context?: string;
  /**
   * Upstream always writes the list gzipped into deployItemsCompressed and inflates it on read;
   * readers must accept both forms.
   */
  deployItems?: DeployItemTemplate[];
  /** base64 of gzip(JSON of deployItems). */
  deployItemsCompressed?: string;
}

export interface DiNamePair {
  specName?: string;
  objectName?: string;
}

export interface DeployItemCache {
  activeDIs?: DiNamePair[];
  orphanedDIs?: string[];
}

export interface DeployItemReference {
  name: string;
  ref: ObjectReference;
}

export interface ExecutionStatus {
  /** Declared upstream; not maintained by the controller. */
  observedGeneration?: number;
  conditions?: Condition[];
  lastError?: LsError;
  exportRef?: ObjectReference;
  deployItemCache?: DeployItemCache;
  /** Superseded by deployItemCache (PR #935); still accepted on read. */
  deployItemRefs?: DeployItemReference[];
  jobID?: string;
  jobIDFinished?: string;
  phase?: ExecutionPhase;
  phaseTransitionTime?: string;
  transitionTimes?: TransitionTimes;
}

// A type literal (not an interface) so that it is assignable to KubeObject's index signature.
export type Execution = {
  apiVersion: 'landscaper.gardener.cloud/v1alpha1';
  kind: 'Execution';
  metadata: ObjectMeta;
  spec: ExecutionSpec;
  status?: ExecutionStatus;
};
