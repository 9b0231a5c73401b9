// Managed resource references (upstream managedresource.ManagedResourceStatus with a corev1.ObjectReference).
import { groupOf } from '../../../apimachinery/group-version.ts';
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { KubeClient, ResourceRef } from '../../../client/client.ts';
import type { ManifestPolicy } from '../../api/manifest-deployer.ts';
import type { AnyJSON } from '../../api/shared.ts';

export interface ResourceReference {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

export interface ManagedResource {
  policy?: ManifestPolicy;
  annotateBeforeDelete?: { [key: string]: string };
  patchBeforeDelete?: AnyJSON;
  resource: ResourceReference;
}

export function refOf(obj: KubeObject): ResourceReference {
  return {
    apiVersion: obj.apiVersion ?? '',
    kind: obj.kind ?? '',
    name: obj.metadata.name ?? '',
    ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
    ...(obj.metadata.uid ? { uid: obj.metadata.uid } : {}),
    ...(obj.metadata.resourceVersion ? { resourceVersion: obj.metadata.resourceVersion } : {}),
  };
}

/** Same object: equal UIDs when both are known, else same group, kind, namespace and name. */
export function sameResource(a: ResourceReference, b: ResourceReference): boolean {
  if (a.uid && b.uid && a.uid === b.uid) return true;
  return groupOf(a.apiVersion) === groupOf(b.apiVersion) && a.kind === b.kind && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');
}

export function describeRef(r: ResourceReference): string {
  return `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;
}

export async function resolveRef(client: KubeClient, r: { apiVersion: string; kind: string }): Promise<ResourceRef> {
  return client.resolve({ apiVersion: r.apiVersion, kind: r.kind });
}

/** Options for a namespaced or cluster-scoped call. */
export function nsOpt(ref: ResourceRef, namespace: string | undefined): { namespace?: string } {
  return ref.namespaced ? { namespace: namespace ?? 'default' } : {};
}
