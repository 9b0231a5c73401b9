// The node-level API writes some kinds make (pod replacement, node failure). On Bosun's node agent they go
// through its runtime socket (src/client/node-runtime/protocol.ts); the kinds only see this port, so the
// runtime client can be wired in by the CLI and tests can record the calls.
import type { NodeFailureRequest, PodReplacementRequest } from '../../../client/node-runtime/protocol.ts';

export interface NodeActions {
  /** POST /v1/pods/{namespace}/{name}/replace. */
  replacePod?(namespace: string, name: string, request: PodReplacementRequest): Promise<void>;
  /** POST /v1/node/failure: the agent answers 202 and then goes dark. */
  nodeFailure?(request: NodeFailureRequest): Promise<void>;
}
