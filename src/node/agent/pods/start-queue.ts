// The node's pod set-ups (network, volumes, a container's start) take turns: at most `concurrency` at once, the
// oldest pod first. All of them share two resources, libuv's four file-system threads and the cores, and each
// is a chain of small awaited steps; started all at once, a burst of pods advances in lockstep and every pod is
// Running only when the last one is (measured in docs/performance.md, bench:node). In turns the first pods of a
// burst run while the rest wait, and the last ones finish no later.
import PQueue from 'p-queue';
import { availableParallelism } from 'node:os';

/**
 * Set-ups in flight per core: enough to keep the cores busy while set-ups wait on the kernel, a child or the API.
 * bench:node on 2 cores (docs/performance.md): 8 per core beat 4 and 16, and all at once.
 */
export const STARTS_PER_CORE = 8;

export function defaultMaxParallelPodStarts(): number {
  return STARTS_PER_CORE * availableParallelism();
}

export class PodStartQueue {
  private readonly queue: PQueue;
  private nextTicket = 0;

  constructor(concurrency = defaultMaxParallelPodStarts()) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`at most ${concurrency} pod starts at once: a positive integer is needed`);
    this.queue = new PQueue({ concurrency });
  }

  /** A pod's place in line: its worker takes one when it is made, so older pods go first. */
  ticket(): number {
    return this.nextTicket++;
  }

  /**
   * Runs `setup` in the pod's turn. Rejects with the signal's AbortError, without running it, when `signal`
   * aborts while the pod waits (it was deleted); a set-up that began runs to its end, so that what it made
   * (a started container) is never lost.
   */
  run<T>(ticket: number, signal: AbortSignal, setup: () => Promise<T>): Promise<T> {
    // p-queue also rejects a running task when its signal aborts, and frees its slot: the queue gets a signal
    // of its own that follows `signal` only until the turn comes.
    const waiting = new AbortController();
    const stopWaiting = () => waiting.abort(signal.reason);
    if (signal.aborted) stopWaiting();
    else signal.addEventListener('abort', stopWaiting, { once: true });
    return this.queue.add(
      () => {
        signal.removeEventListener('abort', stopWaiting);
        return setup();
      },
      { priority: -ticket, signal: waiting.signal },
    ).finally(() => signal.removeEventListener('abort', stopWaiting));
  }
}
