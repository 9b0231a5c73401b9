// The provider's memory across agent restarts: a small JSON file replaced atomically (write a temporary file,
// flush it, rename it over the old one), so a crash leaves either the old or the new state, never half of one.
// Saves requested while one is being written share the next write: a hundred pods attaching at once cost a
// handful of writes, not a hundred.
import { open, readFile, rename, rm } from 'node:fs/promises';
import { PodNetworkConfigError } from './errors.ts';

export interface NetworkState {
  version: 1;
  bridge: string;
  clusterCIDR: string;
  nodeCIDR: string;
  /** The pod address handed out last (next-fit IPAM). */
  lastAllocated?: string;
  /**
   * Pod uid → its address, for people reading the file namespace/name, and the name of its namespace file when
   * that is not the uid (a spare namespace the pod took). Spares themselves are not kept: a restart removes them.
   */
  pods: Record<string, { address: string; pod: string; namespace?: string }>;
}

/** The state a provider saved, or undefined when there is none. */
export async function readNetworkState(path: string): Promise<NetworkState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const state = JSON.parse(text) as NetworkState;
    if (state.version !== 1 || typeof state.pods !== 'object' || typeof state.nodeCIDR !== 'string') throw new Error('unknown layout');
    return state;
  } catch (error) {
    throw new PodNetworkConfigError(
      `the pod network state file ${path} is unreadable (${(error as Error).message}); remove the pods' namespaces under its directory and the file, or point the agent at a fresh state directory`,
    );
  }
}

export class StateFile {
  private chain: Promise<void> = Promise.resolve();
  private pending: Promise<void> | undefined;

  constructor(
    readonly path: string,
    /** The state to write, taken when the write starts so that it includes every change made before it. */
    private readonly snapshot: () => NetworkState,
  ) {}

  /** Resolves once a write that started after this call has reached the disk. */
  save(): Promise<void> {
    if (!this.pending) {
      const write = this.chain.then(() => {
        this.pending = undefined;
        return this.write();
      });
      this.pending = write;
      this.chain = write.catch(() => undefined);
    }
    return this.pending;
  }

  async remove(): Promise<void> {
    await this.chain;
    await rm(this.path, { force: true });
  }

  private async write(): Promise<void> {
    const temporary = `${this.path}.tmp`;
    const file = await open(temporary, 'w', 0o600);
    try {
      await file.writeFile(`${JSON.stringify(this.snapshot(), null, 2)}\n`);
      await file.datasync();
    } finally {
      await file.close();
    }
    await rename(temporary, this.path);
  }
}
