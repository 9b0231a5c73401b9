// Installation (types_installation.go): an instance of a blueprint with its imports and exports.
import type { ObjectMeta } from '../../apimachinery/object.ts';
import type { InstallationPhase } from './constants.ts';
import type { AnyJSON, ConfigMapReference, Condition, LsError, NamedObjectReference, ObjectReference, SecretReference, TransitionTimes } from './shared.ts';

export interface ComponentDescriptorReference {
  repositoryContext?: { [key: string]: AnyJSON };
  componentName: string;
  version: string;
}

export interface ComponentDescriptorDefinition {
  ref?: ComponentDescriptorReference;
  /** Legacy inline component descriptor v2. */
  inline?: { [key: string]: AnyJSON };
}

/**
 * A YAML filesystem: path → file content; nested maps are directories. Must contain blueprint.yaml.
 */
export type InlineFilesystem = { [path: string]: AnyJSON };

export interface BlueprintDefinition {
  ref?: { resourceName: string };
  inline?: { filesystem: InlineFilesystem };
}

export interface DataImport {
  name: string;
  /** DataObject name in the parent scope; "#name" is not contextified. */
  dataRef?: string;
  /** Defaults to "v1"; unused. */
  version?: string;
  /** Not allowed in installation templates. */
  secretRef?: SecretReference;
  /** Not allowed in installation templates. */
  configMapRef?: ConfigMapReference;
}

/** Exactly one of target, targets, targetListRef, targetMap, targetMapRef. */
export interface TargetImport {
  name: string;
  target?: string;
  /** `targets: []` and an absent field differ upstream (custom marshalling): keep undefined when absent. */
  targets?: string[];
  targetListRef?: string;
  targetMap?: { [key: string]: string };
  targetMapRef?: string;
}

export interface InstallationImports {
  data?: DataImport[];
  targets?: TargetImport[];
}

export interface DataExport {
  name: string;
  dataRef: string;
}

export interface TargetExport {
  name: string;
  target: string;
}

export interface InstallationExports {
  data?: DataExport[];
  targets?: TargetExport[];
}

export interface SucceededReconcile {
  /** Default 24h. */
  interval?: string;
  cronSpec?: string;
}

export interface FailedReconcile {
  numberOfReconciles?: number;
  /** Default 5m. */
  interval?: string;
  cronSpec?: string;
}

export interface AutomaticReconcile {
  succeededReconcile?: SucceededReconcile;
  failedReconcile?: FailedReconcile;
}

export interface Optimization {
  hasNoSiblingImports?: boolean;
  hasNoSiblingExports?: boolean;
}

export interface InstallationSpec {
  /** Name of a Context in the same namespace; defaults to "default". */
  context?: string;
  verification?: { signatureName: string };
  componentDescriptor?: ComponentDescriptorDefinition;
  blueprint: BlueprintDefinition;
  imports?: InstallationImports;
  /** Spiff templates per import name. */
  importDataMappings?: { [name: string]: AnyJSON };
  exports?: InstallationExports;
  /** Spiff templates per export name. */
  exportDataMappings?: { [name: string]: AnyJSON };
  automaticReconcile?: AutomaticReconcile;
  optimization?: Optimization;
}

export interface SubNamePair {
  specName?: string;
  objectName?: string;
}

export interface SubInstCache {
  activeSubs?: SubNamePair[];
  orphanedSubs?: string[];
}

export interface AutomaticReconcileStatus {
  generation?: number;
  numberOfReconciles?: number;
  lastReconcileTime?: string;
  onFailed?: boolean;
}

export interface DependentToTrigger {
  name: string;
}

export interface InstallationStatus {
  observedGeneration: number;
  phase?: InstallationPhase;
  phaseTransitionTime?: string;
  jobID?: string;
  jobIDFinished?: string;
  importsHash?: string;
  conditions?: Condition[];
  lastError?: LsError;
  executionRef?: ObjectReference;
  subInstCache?: SubInstCache;
  /** Superseded by subInstCache (PR #936); still accepted on read. */
  installationRefs?: NamedObjectReference[];
  automaticReconcileStatus?: AutomaticReconcileStatus;
  dependentsToTrigger?: DependentToTrigger[];
  transitionTimes?: TransitionTimes;
}

// A type literal (not an interface) so that it is assignable to KubeObject's index signature.
export type Installation = {
  apiVersion: 'landscaper.gardener.cloud/v1alpha1';
  kind: 'Installation';
  metadata: ObjectMeta;
  spec: InstallationSpec;
  status?: InstallationStatus;
};
