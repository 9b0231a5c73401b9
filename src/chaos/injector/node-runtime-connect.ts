// Where the CLI gets its NodeRuntimePort: the node agent's socket (BOSUN_NODE_RUNTIME_SOCKET), through the node
// runtime client, which speaks the port's methods as they are.
import { NodeRuntimeClient } from '../../client/node-runtime/client.ts';
import type { NodeRuntimePort } from './node-runtime-port.ts';

export function connectNodeRuntime(socketPath: string): NodeRuntimePort {
  return new NodeRuntimeClient(socketPath);
}
