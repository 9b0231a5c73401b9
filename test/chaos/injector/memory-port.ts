// An in-memory NodeRuntimePort for in-process lifecycle tests: containers by ID, and pod reports pushed by
// the test to whoever watches.
import type { NodeFailureRequest, PodReplacementRequest, RuntimeContainer, RuntimeNode, RuntimePodContainers } from '../../../src/client/node-runtime/protocol.ts';
import type { NodeRuntimePort } from '../../../src/chaos/injector/node-runtime-port.ts';

export class MemoryPort implements NodeRuntimePort {
  readonly containers = new Map<string, RuntimeContainer>();
  readonly finalizerRemovals: string[] = [];
  finalizerFailures = 0;
  private readonly watchers = new Set<(pod: string, state: RuntimePodContainers) => void>();

  /** The test process stands in for the node agent. */
  node(): Promise<RuntimeNode> {
    return Promise.resolve({ name: 'test-node', pid: process.pid });
  }

  container(id: string): Promise<RuntimeContainer> {
    const container = this.containers.get(id);
    return container ? Promise.resolve(container) : Promise.reject(new Error(`container ${id} not found`));
  }

  /** Sends a report to the watchers of namespace/name. */
  report(namespace: string, name: string, state: RuntimePodContainers): void {
    for (const watcher of this.watchers) watcher(`${namespace}/${name}`, state);
  }

  watching(): number {
    return this.watchers.size;
  }

  async *watchPod(namespace: string, name: string, signal: AbortSignal): AsyncIterable<RuntimePodContainers> {
    const queue: RuntimePodContainers[] = [];
    let wake: (() => void) | undefined;
    const watcher = (pod: string, state: RuntimePodContainers): void => {
      if (pod !== `${namespace}/${name}`) return;
      queue.push(state);
      wake?.();
    };
    const onAbort = (): void => wake?.();
    this.watchers.add(watcher);
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        const next = queue.shift();
        if (next) yield next;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      this.watchers.delete(watcher);
      signal.removeEventListener('abort', onAbort);
    }
  }

  removeFinalizer(namespace: string, name: string, finalizer: string): Promise<void> {
    this.finalizerRemovals.push(`${namespace}/${name}/${finalizer}`);
    if (this.finalizerFailures > 0) {
      this.finalizerFailures--;
      return Promise.reject(new Error('refused (test)'));
    }
    return Promise.resolve();
  }

  replacePod(_namespace: string, _name: string, _request: PodReplacementRequest): Promise<void> {
    return Promise.resolve();
  }

  nodeFailure(_request: NodeFailureRequest): Promise<void> {
    return Promise.resolve();
  }
}
