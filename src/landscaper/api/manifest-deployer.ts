// Manifest deployer provider configuration and status (manifest.deployer.landscaper.gardener.cloud/v1alpha2).
import type { ContinuousReconcileSpec } from './mock-deployer.ts';
import type { AnyJSON, Duration, ObjectReference, TypedObjectReference } from './shared.ts';

export type ManifestPolicy = 'manage' | 'fallback' | 'keep' | 'ignore' | 'immutable';
export type UpdateStrategy = 'update' | 'patch' | 'merge' | 'mergeOverwrite';

export interface Manifest {
  /** Default "manage". */
  policy?: ManifestPolicy;
  manifest: AnyJSON;
  annotateBeforeCreate?: { [key: string]: string };
  annotateBeforeDelete?: { [key: string]: string };
  patchAfterDeployment?: AnyJSON;
  patchBeforeDelete?: AnyJSON;
}

export interface TypedObjectReferenceWithNamespace {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface RequirementSpec {
  jsonPath: string;
  /** selection.Operator: =, ==, !=, in, notin, exists, !, gt, lt. */
  operator: string;
  values?: AnyJSON[];
}

export interface LabelSelectorSpec {
  apiVersion: string;
  kind: string;
  labels: { [key: string]: string };
}

export interface CustomReadinessCheckConfiguration {
  name: string;
  timeout?: Duration;
  disabled?: boolean;
  targetName?: string;
  resourceSelector?: TypedObjectReferenceWithNamespace[];
  labelSelector?: LabelSelectorSpec;
  requirements?: RequirementSpec[];
}

export interface ReadinessCheckConfiguration {
  disableDefault?: boolean;
  custom?: CustomReadinessCheckConfiguration[];
}

export interface FromObjectRef {
  apiVersion: string;
  kind: string;
  jsonPath: string;
}

export interface ExportSpec {
  key: string;
  jsonPath: string;
  timeout?: Duration;
  fromResource?: TypedObjectReference;
  fromObjectRef?: FromObjectRef;
  targetName?: string;
}

export interface ExportsSpec {
  defaultTimeout?: Duration;
  exports?: ExportSpec[];
}

export interface DeletionGroupDefinition {
  predefinedResourceGroup?: { type: 'namespaced-resources' | 'cluster-scoped-resources' | 'crds' | 'empty' };
  customResourceGroup?: {
    resources?: { apiVersion: string; kind: string; names?: string[]; namespaces?: string[] }[];
    deleteAllResources?: boolean;
  };
}

export interface ManifestProviderConfiguration {
  apiVersion?: 'manifest.deployer.landscaper.gardener.cloud/v1alpha2';
  kind?: 'ProviderConfiguration';
  /** Deprecated; use readinessChecks timeouts. */
  timeout?: Duration;
  updateStrategy?: UpdateStrategy;
  readinessChecks?: ReadinessCheckConfiguration;
  manifests?: Manifest[];
  exports?: ExportsSpec;
  deletionGroups?: DeletionGroupDefinition[];
  deletionGroupsDuringUpdate?: DeletionGroupDefinition[];
  continuousReconcile?: ContinuousReconcileSpec;
}

export interface ManagedResourceStatus {
  annotateBeforeDelete?: { [key: string]: string };
  patchBeforeDelete?: AnyJSON;
  policy?: ManifestPolicy;
  resource: TypedObjectReference | (ObjectReference & { apiVersion: string; kind: string; uid?: string });
}

export interface ManifestProviderStatus {
  apiVersion: 'manifest.deployer.landscaper.gardener.cloud/v1alpha2';
  kind: 'ProviderStatus';
  managedResources?: ManagedResourceStatus[];
}
