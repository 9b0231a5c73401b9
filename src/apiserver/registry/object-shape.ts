// Views of an object the write rules compare: the part a generation bump is about, the object without what every
// write changes, spec.finalizers (Namespaces), and the field order real servers answer with.
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import type { ResourceType } from './resource-type.ts';

/** The object without metadata and status: what a generation bump is about. */
export function specPart(object: KubeObject): string {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = object;
  return JSON.stringify(rest);
}

/** The object without resourceVersion and managedFields times: equal for a no-op write. */
export function withoutVolatileMeta(object: KubeObject): string {
  const { resourceVersion: _rv, managedFields, ...meta } = object.metadata;
  const managers = (managedFields ?? []).map(({ time: _t, ...entry }) => entry);
  return JSON.stringify({ ...object, metadata: { ...meta, managedFields: managers } });
}

/** apiVersion and kind first, then metadata: the field order real servers answer with. */
export function typeFirst(object: KubeObject): KubeObject {
  const { apiVersion, kind, metadata, ...rest } = object;
  return { apiVersion, kind, metadata, ...rest } as KubeObject;
}

export function specFinalizersOf(type: ResourceType, object: KubeObject): string[] {
  if (!type.specFinalizers) return [];
  const spec = object['spec'];
  return isPlainObject(spec) && Array.isArray(spec['finalizers']) ? (spec['finalizers'] as string[]) : [];
}

/** Set by the server only: a write's body cannot change them. */
export const serverOwnedMeta = ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation'] as const;
