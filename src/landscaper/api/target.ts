// Target (types_target.go): where a deploy item deploys to.
import type { ObjectMeta } from '../../apimachinery/object.ts';
import type { AnyJSON, LocalSecretReference } from './shared.ts';

/** Exactly one of config and secretRef. */
export interface TargetSpec {
  type: string;
  config?: AnyJSON;
  secretRef?: LocalSecretReference;
}

// A type literal (not an interface) so that it is assignable to KubeObject's index signature.
export type Target = {
  apiVersion: 'landscaper.gardener.cloud/v1alpha1';
  kind: 'Target';
  metadata: ObjectMeta;
  spec: TargetSpec;
};

/** What export executions return for a target export: a spec plus metadata to copy. */
export interface TargetTemplate extends TargetSpec {
  labels?: { [key: string]: string };
  annotations?: { [key: string]: string };
}

/** Configuration of a landscaper.gardener.cloud/kubernetes-cluster target. */
export interface KubernetesClusterTargetConfig {
  kubeconfig: string | { secretRef: LocalSecretReference };
}
