// What the injector needs from the node agent's runtime API (src/client/node-runtime/protocol.ts): container
// lookups, a watch of its target pod's containers (re-injection after a restart), a watch of the Services a
// network disruption filters on, and the few API writes made for it by the agent. The CLI implements it with
// the node runtime client; tests with an in-memory one.
import type { NodeFailureRequest, PodReplacementRequest, RuntimeContainer, RuntimeNode, RuntimePodContainers, RuntimeService } from '../../client/node-runtime/protocol.ts';

export interface NodeRuntimePort {
  /** The node: a process in its namespaces, for node-level kinds. */
  node(): Promise<RuntimeNode>;
  /** The container with this ID (no scheme); throws when unknown. */
  container(id: string): Promise<RuntimeContainer>;
  /** The pod's containers now and on every start or stop, until the signal aborts (then the iterable ends). */
  watchPod(namespace: string, name: string, signal: AbortSignal): AsyncIterable<RuntimePodContainers>;
  /** The Service and its ready endpoints now and on every change, until the signal aborts; a port without it cannot resolve services filters. */
  watchService?(namespace: string, name: string, signal: AbortSignal): AsyncIterable<RuntimeService>;
  removeFinalizer(namespace: string, name: string, finalizer: string): Promise<void>;
  replacePod(namespace: string, name: string, request: PodReplacementRequest): Promise<void>;
  nodeFailure(request: NodeFailureRequest): Promise<void>;
}
