// Map functions: which primary objects' keys a change of some watched object should enqueue
// (controller-runtime's EnqueueRequestForOwner and EnqueueRequestsFromMapFunc).
import { groupOf } from '../../apimachinery/group-version.ts';
import { objectKey, type KubeObject } from '../../apimachinery/object.ts';

export { keyOf } from '../informer/store.ts';

/** Returns the keys ("namespace/name" or "name") of the primary objects to reconcile. */
export type MapFunc<U extends KubeObject = KubeObject> = (obj: U) => string[];

/** The primary kind, as owner references name it. */
export interface OwnerKind {
  /** '' for the core group. */
  group: string;
  kind: string;
  namespaced: boolean;
}

/**
 * Enqueues the owner named by the object's ownerReferences of the owner's group and kind
 * (version ignored, as controller-runtime does); only the controller reference unless onlyController is false.
 */
export function byOwner(owner: OwnerKind, options: { onlyController?: boolean } = {}): MapFunc {
  const onlyController = options.onlyController ?? true;
  return (obj) => {
    const keys: string[] = [];
    for (const ref of obj.metadata.ownerReferences ?? []) {
      if (onlyController && ref.controller !== true) continue;
      if (ref.kind !== owner.kind || groupOf(ref.apiVersion) !== owner.group) continue;
      // A namespaced owner lives in its dependent's namespace; a cluster-scoped one has none.
      keys.push(owner.namespaced ? objectKey(obj.metadata.namespace, ref.name) : ref.name);
    }
    return keys;
  };
}

/** The value of the object's label names the primary object in the same namespace. */
export function byLabel(label: string): MapFunc {
  return (obj) => {
    const name = obj.metadata.labels?.[label];
    return name ? [objectKey(obj.metadata.namespace, name)] : [];
  };
}

/**
 * The value at a dotted path (e.g. "spec.installationRef.name") names the primary object in the same
 * namespace; an array of strings names several. A value holding "ns/name" is taken as a full key.
 */
export function byField(path: string): MapFunc {
  const parts = path.split('.');
  return (obj) => {
    let value: unknown = obj;
    for (const part of parts) {
      if (typeof value !== 'object' || value === null) return [];
      value = (value as Record<string, unknown>)[part];
    }
    const names = Array.isArray(value) ? value : [value];
    return names
      .filter((n): n is string => typeof n === 'string' && n !== '')
      .map((n) => (n.includes('/') ? n : objectKey(obj.metadata.namespace, n)));
  };
}
