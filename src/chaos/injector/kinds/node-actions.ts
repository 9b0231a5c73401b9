// The node-level API writes some kinds make (pod replacement, node failure), and the API reads the network kind
// makes (a services filter's Service and endpoints). On Bosun's node agent they go through its runtime socket
// (src/client/node-runtime/protocol.ts); the kinds only see this port, so the runtime client can be wired in by
// the CLI and tests can record the calls or feed the answers.
import type { NodeFailureRequest, PodReplacementRequest, RuntimeService } from '../../../client/node-runtime/protocol.ts';

export interface NodeActions {
  /** POST /v1/pods/{namespace}/{name}/replace. */
  replacePod?(namespace: string, name: string, request: PodReplacementRequest): Promise<void>;
  /** POST /v1/node/failure: the agent answers 202 and then goes dark. */
  nodeFailure?(request: NodeFailureRequest): Promise<void>;
  /** GET /v1/services/{namespace}/{name}?watch=true: the Service now and on every change, until the signal aborts. */
  watchService?(namespace: string, name: string, signal: AbortSignal): AsyncIterable<RuntimeService>;
}
