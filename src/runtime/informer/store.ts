// The informer's cache: each object stored once by key ('ns/name' or 'name'); indexes map an index
// value to keys only, so they cost a few strings per object, never a copy.
import { objectKey, type KubeObject } from '../../apimachinery/object.ts';

/** Values an object is filed under in one index (none → not indexed). */
export type IndexFunc<T extends KubeObject = KubeObject> = (obj: T) => readonly string[] | string | undefined;

/** A single key is stored as the bare string: most owner/label values have exactly one member. */
type Members = string | Set<string>;

interface Index<T extends KubeObject> {
  fn: IndexFunc<T>;
  values: Map<string, Members>;
}

export function keyOf(obj: KubeObject): string {
  return objectKey(obj.metadata.namespace, obj.metadata.name ?? '');
}

/** Read-only view handed to controllers. */
export interface ReadonlyStore<T extends KubeObject = KubeObject> {
  readonly size: number;
  get(key: string): T | undefined;
  getByName(name: string, namespace?: string): T | undefined;
  has(key: string): boolean;
  keys(): IterableIterator<string>;
  values(): IterableIterator<T>;
  /** All objects, or those of one namespace (through the namespace index when there is one). */
  list(namespace?: string): T[];
  byIndex(indexName: string, value: string): T[];
  indexKeys(indexName: string, value: string): string[];
  /** The distinct values an index currently holds. */
  indexValues(indexName: string): string[];
  indexNames(): string[];
}

export class Store<T extends KubeObject = KubeObject> implements ReadonlyStore<T> {
  private readonly items = new Map<string, T>();
  private readonly indexes = new Map<string, Index<T>>();

  constructor(indexers: Record<string, IndexFunc<T>> = {}) {
    for (const [name, fn] of Object.entries(indexers)) this.addIndexer(name, fn);
  }

  get size(): number {
    return this.items.size;
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  getByName(name: string, namespace?: string): T | undefined {
    return this.items.get(objectKey(namespace, name));
  }

  has(key: string): boolean {
    return this.items.has(key);
  }

  keys(): IterableIterator<string> {
    return this.items.keys();
  }

  values(): IterableIterator<T> {
    return this.items.values();
  }

  entries(): IterableIterator<[string, T]> {
    return this.items.entries();
  }

  list(namespace?: string): T[] {
    if (namespace === undefined) return [...this.items.values()];
    if (this.indexes.has('namespace')) return this.byIndex('namespace', namespace);
    return [...this.items.values()].filter((o) => (o.metadata.namespace ?? '') === namespace);
  }

  byIndex(indexName: string, value: string): T[] {
    const out: T[] = [];
    for (const key of this.indexKeys(indexName, value)) {
      const obj = this.items.get(key);
      if (obj) out.push(obj);
    }
    return out;
  }

  indexKeys(indexName: string, value: string): string[] {
    const index = this.indexes.get(indexName);
    if (!index) throw new RangeError(`no index named "${indexName}"`);
    const members = index.values.get(value);
    if (members === undefined) return [];
    return typeof members === 'string' ? [members] : [...members];
  }

  indexValues(indexName: string): string[] {
    const index = this.indexes.get(indexName);
    if (!index) throw new RangeError(`no index named "${indexName}"`);
    return [...index.values.keys()];
  }

  indexNames(): string[] {
    return [...this.indexes.keys()];
  }

  /** Adds an index, filing every object already stored. Replacing an index of the same name is refused. */
  addIndexer(name: string, fn: IndexFunc<T>): void {
    if (this.indexes.has(name)) throw new RangeError(`index "${name}" already exists`);
    const index: Index<T> = { fn, values: new Map() };
    this.indexes.set(name, index);
    for (const [key, obj] of this.items) file(index, key, obj);
  }

  /** Stores obj under key and returns the object it replaced. */
  set(key: string, obj: T): T | undefined {
    const old = this.items.get(key);
    for (const index of this.indexes.values()) {
      if (old) unfile(index, key, old);
      file(index, key, obj);
    }
    this.items.set(key, obj);
    return old;
  }

  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (old === undefined) return undefined;
    for (const index of this.indexes.values()) unfile(index, key, old);
    this.items.delete(key);
    return old;
  }

  clear(): void {
    this.items.clear();
    for (const index of this.indexes.values()) index.values.clear();
  }
}

function valuesOf<T extends KubeObject>(index: Index<T>, obj: T): readonly string[] {
  const v = index.fn(obj);
  if (v === undefined) return [];
  return typeof v === 'string' ? [v] : v;
}

function file<T extends KubeObject>(index: Index<T>, key: string, obj: T): void {
  for (const value of valuesOf(index, obj)) {
    const members = index.values.get(value);
    if (members === undefined) index.values.set(value, key);
    else if (typeof members === 'string') {
      if (members !== key) index.values.set(value, new Set([members, key]));
    } else members.add(key);
  }
}

function unfile<T extends KubeObject>(index: Index<T>, key: string, obj: T): void {
  for (const value of valuesOf(index, obj)) {
    const members = index.values.get(value);
    if (members === undefined) continue;
    if (typeof members === 'string') {
      if (members === key) index.values.delete(value);
    } else {
      members.delete(key);
      if (members.size === 1) index.values.set(value, members.values().next().value as string);
      else if (members.size === 0) index.values.delete(value);
    }
  }
}
