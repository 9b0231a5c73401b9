// Event filters, after controller-runtime's pkg/predicate: they decide whether a change is worth a reconcile.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ObjectEvent } from './source.ts';

export type Predicate<T extends KubeObject = KubeObject> = (event: ObjectEvent<T>) => boolean;

/** Passes updates whose metadata.generation changed: status-only writes don't wake the controller. */
export function generationChanged<T extends KubeObject>(): Predicate<T> {
  return (e) => e.type !== 'modified' || !e.old || e.old.metadata.generation !== e.object.metadata.generation;
}

/** Passes updates whose resourceVersion changed (drops resync echoes). */
export function resourceVersionChanged<T extends KubeObject>(): Predicate<T> {
  return (e) => e.type !== 'modified' || !e.old || e.old.metadata.resourceVersion !== e.object.metadata.resourceVersion;
}

/** Passes updates whose annotations changed; with keys, only those annotations count. */
export function annotationChanged<T extends KubeObject>(...keys: string[]): Predicate<T> {
  return (e) => e.type !== 'modified' || !e.old || !sameRecord(e.old.metadata.annotations, e.object.metadata.annotations, keys);
}

/** Passes updates whose labels changed; with keys, only those labels count. */
export function labelChanged<T extends KubeObject>(...keys: string[]): Predicate<T> {
  return (e) => e.type !== 'modified' || !e.old || !sameRecord(e.old.metadata.labels, e.object.metadata.labels, keys);
}

export function and<T extends KubeObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return (e) => predicates.every((p) => p(e));
}

export function or<T extends KubeObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return (e) => predicates.some((p) => p(e));
}

export function not<T extends KubeObject>(predicate: Predicate<T>): Predicate<T> {
  return (e) => !predicate(e);
}

function sameRecord(a: Record<string, string> | undefined, b: Record<string, string> | undefined, keys: string[]): boolean {
  const left = a ?? {};
  const right = b ?? {};
  const names = keys.length > 0 ? keys : [...new Set([...Object.keys(left), ...Object.keys(right)])];
  return names.every((k) => left[k] === right[k]);
}
