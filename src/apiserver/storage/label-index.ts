// The mirror's objects by label (resource, key and value → storage keys), so a list selected by
// `key=value` reads the few objects that carry it instead of every object of the resource: a controller
// that lists its children by label would otherwise cost a scan that grows with the namespace.
import type { KubeObject } from '../../apimachinery/object.ts';

export class LabelIndex {
  private readonly keys = new Map<string, Set<string>>();

  /** Moves the object at `key` from the labels of `previous` to those of `current` (undefined: none). */
  update(resource: string, key: string, previous: KubeObject | undefined, current: KubeObject | undefined): void {
    const before = previous?.metadata.labels;
    const after = current?.metadata.labels;
    if (before === after) return;
    for (const [label, value] of Object.entries(before ?? {})) {
      if (after?.[label] === value) continue;
      const entry = indexKey(resource, label, value);
      const set = this.keys.get(entry);
      set?.delete(key);
      if (set?.size === 0) this.keys.delete(entry);
    }
    for (const [label, value] of Object.entries(after ?? {})) {
      if (before?.[label] === value) continue;
      const entry = indexKey(resource, label, value);
      let set = this.keys.get(entry);
      if (!set) this.keys.set(entry, (set = new Set()));
      set.add(key);
    }
  }

  /** The storage keys of the objects of `resource` labelled `label=value`, in no particular order. */
  lookup(resource: string, label: string, value: string): ReadonlySet<string> {
    return this.keys.get(indexKey(resource, label, value)) ?? new Set();
  }
}

function indexKey(resource: string, label: string, value: string): string {
  return `${resource}\u0000${label}\u0000${value}`;
}
