// kube-controller-manager's ControllerExpectations: after a controller asks for creations or deletions it waits
// until its informer has seen them, so a reconcile on a cache that lags its own writes does not create twice.
// Counts, not names, so an event that arrives before the create call returns still counts. An expectation older
// than the TTL (5 minutes, as upstream) is considered met: a lost event must not block the owner forever.

interface Expectation {
  adds: number;
  deletes: number;
  setAt: number;
}

export class Expectations {
  private readonly entries = new Map<string, Expectation>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  satisfied(key: string): boolean {
    const e = this.entries.get(key);
    if (!e) return true;
    if ((e.adds <= 0 && e.deletes <= 0) || this.now() - e.setAt > this.ttlMs) {
      this.entries.delete(key);
      return true;
    }
    return false;
  }

  expectCreations(key: string, count: number): void {
    this.set(key, count, 0);
  }

  expectDeletions(key: string, count: number): void {
    this.set(key, 0, count);
  }

  creationObserved(key: string): void {
    const e = this.entries.get(key);
    if (e) e.adds--;
  }

  deletionObserved(key: string): void {
    const e = this.entries.get(key);
    if (e) e.deletes--;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  private set(key: string, adds: number, deletes: number): void {
    const e = this.entries.get(key);
    if (e && !this.satisfied(key)) {
      e.adds += adds;
      e.deletes += deletes;
      e.setAt = this.now();
      return;
    }
    this.entries.set(key, { adds, deletes, setAt: this.now() });
  }
}

/** Anything with informer event handlers (the runtime's Informer). */
export interface EventSource<T> {
  addEventHandler(handlers: { onAdd?(obj: T): void; onUpdate?(old: T, obj: T): void; onDelete?(obj: T): void }): () => void;
}

/**
 * Counts the informer's adds and deletions of objects against the expectations of their owner (ownerKey names
 * it, or undefined when the object is not one of ours). A deletion is seen once deletionTimestamp is set.
 */
export function observeExpectations<T extends { metadata: { deletionTimestamp?: string } }>(
  source: EventSource<T>,
  expectations: Expectations,
  ownerKey: (obj: T) => string | undefined,
): () => void {
  const seen = (obj: T, what: 'add' | 'delete'): void => {
    const key = ownerKey(obj);
    if (key === undefined) return;
    if (what === 'add') expectations.creationObserved(key);
    else expectations.deletionObserved(key);
  };
  return source.addEventHandler({
    onAdd: (obj) => seen(obj, obj.metadata.deletionTimestamp === undefined ? 'add' : 'delete'),
    onUpdate: (old, obj) => {
      if (old.metadata.deletionTimestamp === undefined && obj.metadata.deletionTimestamp !== undefined) seen(obj, 'delete');
    },
    onDelete: (obj) => {
      if (obj.metadata.deletionTimestamp === undefined) seen(obj, 'delete');
    },
  });
}
