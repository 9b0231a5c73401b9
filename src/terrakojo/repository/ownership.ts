// Controller owner references between the terrakojo kinds (Repository → Branch → Workflow), and the children a
// parent controls, read from the informer's owner-UID index (upstream's `metadata.ownerReferences.uid` field index).
import type { KubeObject, OwnerReference } from '../../apimachinery/object.ts';
import type { ReadonlyStore } from '../../runtime/index.ts';
import { OWNER_INDEX } from '../../runtime/index.ts';
import { TERRAKOJO_API_VERSION } from '../api/constants.ts';

export function controllerReference(owner: KubeObject, kind: string): OwnerReference {
  return { apiVersion: TERRAKOJO_API_VERSION, kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** The controller reference of the given kind, when obj has one. */
export function controllerOf(obj: KubeObject, kind: string): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((ref) => ref.controller === true && ref.kind === kind);
}

/** The cached objects owner controls (as kind `ownerKind`). */
export function controlledBy<T extends KubeObject>(store: Pick<ReadonlyStore<T>, 'byIndex'>, owner: KubeObject, ownerKind: string): T[] {
  const uid = owner.metadata.uid;
  if (!uid) return [];
  return store.byIndex(OWNER_INDEX, uid).filter((child) => controllerOf(child, ownerKind)?.uid === uid);
}
