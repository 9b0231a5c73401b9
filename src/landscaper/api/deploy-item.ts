// DeployItem (types_deployitem.go): one unit of work for a deployer.
import type { ObjectMeta } from '../../apimachinery/object.ts';
import type { DeployItemPhase } from './constants.ts';
import type { OnDeleteConfig } from './execution.ts';
import type { AnyJSON, Condition, Duration, LsError, ObjectReference, TransitionTimes } from './shared.ts';

export interface DeployItemSpec {
  type: string;
  target?: ObjectReference;
  context?: string;
  config?: AnyJSON;
  timeout?: Duration;
  updateOnChangeOnly?: boolean;
  onDelete?: OnDeleteConfig;
}

export interface DeployerInformation {
  identity: string;
  name: string;
  version: string;
}

export interface DeployItemStatus {
  phase?: DeployItemPhase;
  observedGeneration?: number;
  conditions?: Condition[];
  lastError?: LsError;
  /** Ring of the last (at most 5) errors since the job started. */
  lastErrors?: LsError[];
  firstError?: LsError;
  /** Set by the deployer on pickup; compared with jobIDGenerationTime by the pickup timeout. */
  lastReconcileTime?: string;
  deployer?: DeployerInformation;
  providerStatus?: AnyJSON;
  /** Secret (key "config") with the item's exports. */
  exportRef?: ObjectReference;
  jobID?: string;
  jobIDFinished?: string;
  /** Set by the execution controller when it triggers the item. */
  jobIDGenerationTime?: string;
  /** Deprecated; always cleared by defaulting. */
  deployItemPhase?: string;
  transitionTimes?: TransitionTimes;
}

// A type literal (not an interface) so that it is assignable to KubeObject's index signature.
export type DeployItem = {
  apiVersion: 'landscaper.gardener.cloud/v1alpha1';
  kind: 'DeployItem';
  metadata: ObjectMeta;
  spec: DeployItemSpec;
  status?: DeployItemStatus;
};
