// Context (types_context.go): shared configuration of installations and deployers; fields at top level.
import type { ObjectMeta } from '../../apimachinery/object.ts';
import type { AnyJSON, ObjectReference } from './shared.ts';

// A type literal (not an interface) so that it is assignable to KubeObject's index signature.
export type Context = {
  apiVersion: 'landscaper.gardener.cloud/v1alpha1';
  kind: 'Context';
  metadata: ObjectMeta;
  repositoryContext?: { [key: string]: AnyJSON };
  ocmConfig?: ObjectReference;
  registryPullSecrets?: ObjectReference[];
  configurations?: { [key: string]: AnyJSON };
  componentVersionOverwrites?: string;
  verificationSignatures?: { [name: string]: AnyJSON };
};
