// A NodeRuntimePort for tests that run the injector as a child process: its state is a JSON file the test
// writes (containers by ID, pods' containers), and the calls it receives are appended to a log file the test
// reads. The containers are real: cgroups and processes the test created (cgroup-fixture.ts).
import { appendFileSync, readFileSync } from 'node:fs';
import type { NodeFailureRequest, PodReplacementRequest, RuntimeContainer, RuntimeNode, RuntimePodContainers } from '../../../src/client/node-runtime/protocol.ts';
import type { NodeRuntimePort } from '../../../src/chaos/injector/node-runtime-port.ts';

export interface PortState {
  containers: Record<string, RuntimeContainer>;
  pods: Record<string, RuntimePodContainers>;
  /** How many removeFinalizer calls fail before one succeeds. */
  finalizerFailures?: number;
}

export class FilePort implements NodeRuntimePort {
  private finalizerCalls = 0;

  constructor(
    private readonly statePath: string,
    private readonly callLog: string,
  ) {}

  private state(): PortState {
    return JSON.parse(readFileSync(this.statePath, 'utf8')) as PortState;
  }

  private record(call: string, args: unknown): void {
    appendFileSync(this.callLog, `${JSON.stringify({ call, args })}\n`);
  }

  /** The test process stands in for the node agent. */
  node(): Promise<RuntimeNode> {
    return Promise.resolve({ name: 'test-node', pid: process.pid });
  }

  container(id: string): Promise<RuntimeContainer> {
    const container = this.state().containers[id];
    return container ? Promise.resolve(container) : Promise.reject(new Error(`container ${id} not found`));
  }

  async *watchPod(namespace: string, name: string, signal: AbortSignal): AsyncIterable<RuntimePodContainers> {
    let last = '';
    while (!signal.aborted) {
      const pod = this.state().pods[`${namespace}/${name}`];
      const text = JSON.stringify(pod ?? null);
      if (pod && text !== last) {
        last = text;
        yield pod;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  removeFinalizer(namespace: string, name: string, finalizer: string): Promise<void> {
    this.finalizerCalls++;
    this.record('removeFinalizer', { namespace, name, finalizer });
    return this.finalizerCalls <= (this.state().finalizerFailures ?? 0) ? Promise.reject(new Error('finalizer removal refused (test)')) : Promise.resolve();
  }

  replacePod(namespace: string, name: string, request: PodReplacementRequest): Promise<void> {
    this.record('replacePod', { namespace, name, request });
    return Promise.resolve();
  }

  nodeFailure(request: NodeFailureRequest): Promise<void> {
    this.record('nodeFailure', request);
    return Promise.resolve();
  }
}
