// Network namespaces made ahead of the pods that will use them: a namespace, its veth pair on the bridge and its
// address take two host commands (33-70 ms of a warm pod start), so a few are kept ready and a pod takes one
// instead of waiting for its own. Nothing in a spare is pod-specific (lo, eth0 with an address, a default route),
// so a pod takes it as it is; the pool is refilled in the background after each attach. A spare's namespace file
// and host end carry names no pod uid can have, so an agent that restarts after a crash knows them for spares.
import { randomBytes } from 'node:crypto';

/** How many spares a bridge network keeps by default: pods started one after another always find one. */
export const DEFAULT_SPARE_NAMESPACES = 2;

export interface SpareNamespace {
  /** The namespace file's name in the provider's namespace directory. */
  name: string;
  address: number;
}

// Uids start with a letter or digit (isSafeUid), so a name starting with '_' is never a pod's.
const SPARE_NAME = /^_spare-([0-9a-f]{12})$/;

export function newSpareName(): string {
  return `_spare-${randomBytes(6).toString('hex')}`;
}

export function isSpareName(name: string): boolean {
  return SPARE_NAME.test(name);
}

/** A spare's host end: bsp and the name's 12 hex digits (IFNAMSIZ allows 15), apart from pods' bsn names. */
export function spareVethName(name: string): string | undefined {
  const id = SPARE_NAME.exec(name)?.[1];
  return id === undefined ? undefined : `bsp${id}`;
}

export class SpareNamespaces {
  private readonly ready: SpareNamespace[] = [];
  private readonly making = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly size: number,
    /** Makes one spare: its address allocated, its namespace and veth in place. Cleans up after itself on failure. */
    private readonly make: () => Promise<SpareNamespace>,
    /** Removes a spare's namespace and veth and frees its address. */
    private readonly discard: (spare: SpareNamespace) => Promise<void>,
  ) {}

  /** A ready spare, or undefined when there is none. */
  take(): SpareNamespace | undefined {
    return this.ready.shift();
  }

  /**
   * Starts making spares until the pool is full: called once a pod's attach is done, so that the refill's
   * processes start after the pod's own (a pod without a spare would otherwise wait for the refill's batch). A
   * failure leaves the pool short until the next call: pods then make their own namespaces, which fail with the
   * cause where it lasts.
   */
  fill(): void {
    while (!this.closed && this.ready.length + this.making.size < this.size) {
      const making: Promise<void> = this.make().then(
        async (spare) => {
          if (this.closed) await this.discard(spare).catch(() => undefined);
          else this.ready.push(spare);
        },
        () => undefined,
      );
      this.making.add(making);
      void making.finally(() => this.making.delete(making));
    }
  }

  /** Resolves once no spare is being made: the pool is then as full as it will get until the next fill. */
  async settled(): Promise<void> {
    while (this.making.size > 0) await Promise.allSettled([...this.making]);
  }

  /** Makes no more spares and removes the ready ones, after the ones being made are done. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.making);
    const results = await Promise.allSettled(this.ready.splice(0).map((spare) => this.discard(spare)));
    const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failure) throw failure.reason;
  }
}
