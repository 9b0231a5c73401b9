// Where the CLI gets its NodeRuntimePort: from the node agent's socket (BOSUN_NODE_RUNTIME_SOCKET), through the
// node runtime client (src/client/node-runtime/client.ts).
// TODO(lead): implement with the node runtime client once it is merged; until then pod-level injections from
// the CLI fail to resolve their containers (node level, and tests that pass a port, do not need it).
import type { NodeRuntimePort } from './node-runtime-port.ts';
import { TargetResolutionError } from './errors.ts';

export function connectNodeRuntime(socketPath: string): Promise<NodeRuntimePort> {
  return Promise.reject(new TargetResolutionError(`node runtime at ${socketPath}: the node runtime client is not wired into the injector yet`));
}
