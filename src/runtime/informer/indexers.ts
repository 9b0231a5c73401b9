// The built-in indexes every informer keeps: by namespace, by owner UID and by label.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { IndexFunc } from './store.ts';

export const NAMESPACE_INDEX = 'namespace';
export const OWNER_INDEX = 'owner';
export const LABEL_INDEX = 'label';

/** Cluster-scoped objects file under ''. */
export const byNamespace: IndexFunc = (obj) => obj.metadata.namespace ?? '';

/** Every ownerReference UID (controller or not). */
export const byOwnerUid: IndexFunc = (obj) => {
  const refs = obj.metadata.ownerReferences;
  if (!refs || refs.length === 0) return undefined;
  return refs.length === 1 ? refs[0]!.uid : refs.map((r) => r.uid);
};

/** 'key=value' for every label: byIndex('label', 'app=web'). */
export const byLabel: IndexFunc = (obj) => {
  const labels = obj.metadata.labels;
  if (!labels) return undefined;
  const out: string[] = [];
  for (const k in labels) out.push(labelIndexValue(k, labels[k]!));
  return out;
};

export function labelIndexValue(key: string, value: string): string {
  return `${key}=${value}`;
}

export function builtinIndexers<T extends KubeObject>(): Record<string, IndexFunc<T>> {
  return { [NAMESPACE_INDEX]: byNamespace, [OWNER_INDEX]: byOwnerUid, [LABEL_INDEX]: byLabel };
}
