// A small cache of decoded values shared between reconciles: the most recently used `size` entries by key,
// each frozen (deeply, unless told what to freeze), so that sharing one value between callers is safe.

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export class FrozenCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly size: number,
    private readonly freeze: (value: V) => V = deepFreeze,
  ) {}

  /** The value for `key`, from `load` (frozen) the first time; a throwing load caches nothing. */
  get(key: string, load: () => V): V {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Refresh the entry's recency.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = this.freeze(load());
    this.entries.set(key, value);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }
}
