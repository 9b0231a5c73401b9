// Controller references: which object controls which (metav1.GetControllerOf, NewControllerRef).
import type { KubeObject, OwnerReference } from '../../apimachinery/object.ts';

export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

export function isControlledBy(obj: KubeObject, owner: KubeObject): boolean {
  const ref = controllerOf(obj);
  return ref !== undefined && ref.uid === owner.metadata.uid;
}

/** The reference a controller puts on what it creates: controller, and blocking the owner's foreground deletion. */
export function controllerRefTo(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}
