// IPAM for one node: the pod addresses of the node's block, one per pod uid (or spare namespace's name). Allocation is next-fit after the
// last address handed out (as CNI's host-local plugin does), so an address just released is not reused at once
// while a peer may still hold its ARP entry or a connection to it.
import { PodNetworkError } from './errors.ts';
import { blockSize, gatewayOf, type Ipv4Cidr } from './ipv4.ts';

export class AddressPool {
  private readonly byUid = new Map<string, number>();
  private readonly inUse = new Set<number>();
  private readonly first: number;
  private readonly last: number;

  constructor(
    readonly block: Ipv4Cidr,
    /** The address handed out last, where the next search starts. */
    private lastAllocated: number | undefined = undefined,
  ) {
    // Not the network address, not the gateway, not the broadcast address.
    this.first = gatewayOf(block) + 1;
    this.last = block.network + blockSize(block.prefix) - 2;
  }

  get capacity(): number {
    return Math.max(0, this.last - this.first + 1);
  }

  get lastHandedOut(): number | undefined {
    return this.lastAllocated;
  }

  addressOf(uid: string): number | undefined {
    return this.byUid.get(uid);
  }

  entries(): [uid: string, address: number][] {
    return [...this.byUid];
  }

  /** Takes a remembered allocation back (agent restart); false when the address is not this pool's or is taken. */
  restore(uid: string, address: number): boolean {
    if (address < this.first || address > this.last || this.inUse.has(address) || this.byUid.has(uid)) return false;
    this.byUid.set(uid, address);
    this.inUse.add(address);
    return true;
  }

  allocate(uid: string): number {
    const existing = this.byUid.get(uid);
    if (existing !== undefined) return existing;
    const start = this.lastAllocated !== undefined && this.lastAllocated >= this.first && this.lastAllocated < this.last ? this.lastAllocated + 1 : this.first;
    for (let i = 0; i < this.capacity; i++) {
      const candidate = this.first + ((start - this.first + i) % this.capacity);
      if (this.inUse.has(candidate)) continue;
      this.byUid.set(uid, candidate);
      this.inUse.add(candidate);
      this.lastAllocated = candidate;
      return candidate;
    }
    throw new PodNetworkError(`no pod address left in this node's block (${this.capacity} addresses, all in use); delete pods or give the node a larger block`);
  }

  /** Hands an allocation to another holder (a spare namespace's address to the pod that takes it). */
  reassign(from: string, to: string): number {
    const address = this.byUid.get(from);
    if (address === undefined || this.byUid.has(to)) throw new PodNetworkError(`cannot hand the address of ${from} to ${to}`);
    this.byUid.delete(from);
    this.byUid.set(to, address);
    return address;
  }

  release(uid: string): void {
    const address = this.byUid.get(uid);
    if (address === undefined) return;
    this.byUid.delete(uid);
    this.inUse.delete(address);
  }
}
