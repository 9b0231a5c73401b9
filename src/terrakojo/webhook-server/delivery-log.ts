// The X-GitHub-Delivery ids already handled, so that a redelivery (GitHub's "Redeliver" button, or a retrying
// proxy) is answered without a second write. Bounded: the oldest ids are forgotten first, and a redelivery of
// one that old only pokes a sync once more, which the Repository controller handles as any other poke.

/** GitHub's ids are UUIDs; anything much longer is not GitHub's and is not worth remembering. */
const MAX_ID_LENGTH = 128;

export class DeliveryLog {
  private readonly capacity: number;
  // A Set iterates in insertion order: its first entry is the oldest.
  private readonly ids = new Set<string>();

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`delivery log capacity must be a positive integer, not ${capacity}`);
    this.capacity = capacity;
  }

  /** Records id; false when it was already recorded (a duplicate). An id too long to remember is never one. */
  claim(id: string): boolean {
    if (id.length > MAX_ID_LENGTH) return true;
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next();
      if (!oldest.done) this.ids.delete(oldest.value);
    }
    return true;
  }

  /** Forgets id: its handling failed, so a redelivery must be handled afresh. */
  release(id: string): void {
    this.ids.delete(id);
  }

  get size(): number {
    return this.ids.size;
  }
}
