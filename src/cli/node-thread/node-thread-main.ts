// The node thread's side: starts the node agent with `bosun up`'s flags, says when it is ready (or why it could
// not start), and stops it when told, then ends the thread.
import { parentPort } from 'node:worker_threads';
import { messageOf } from '../../apimachinery/error-message.ts';
import { createKubeClient } from '../../client/create-client.ts';
import type { RunningNode } from '../../node/start-node.ts';
import { createLogger, setProcessLogDestination } from '../../runtime/logger.ts';
import { startNodeFromFlags } from '../commands/node.ts';
import { logDestination } from '../log-format.ts';
import type { FromNodeThread, NodeThreadData, ToNodeThread } from './contract.ts';

export async function runNodeThread(data: NodeThreadData): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error('a node thread runs on a worker thread');
  const post = (message: FromNodeThread): void => port.postMessage(message);
  setProcessLogDestination(logDestination(data.logFormat, process.stdout, data.stdoutIsTTY));
  let node: RunningNode;
  try {
    node = await startNodeFromFlags(data.flags, {
      client: createKubeClient({ kubeconfig: data.kubeconfig, userAgent: 'bosun-node' }),
      nodeName: data.nodeName,
      dataDir: data.dataDir,
      hiddenDirs: data.hiddenDirs,
      kubeletPki: data.kubeletPki,
      logger: createLogger({ level: data.logLevel, name: 'bosun-node' }),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    post({ type: 'failed', message: messageOf(error), ...(typeof code === 'string' ? { code } : {}) });
    process.exit(0);
  }
  const { nodeName, kubeletUrl, podNetwork, runtimeSocketPath } = node;
  post({ type: 'ready', node: { nodeName, kubeletUrl, podNetwork, runtimeSocketPath } });
  // The port keeps the thread alive until the main thread says stop; the thread's own exit hooks then run.
  port.on('message', (message: ToNodeThread) => {
    if (message.type !== 'stop') return;
    void node.stop(message.options).then(
      (result) => post({ type: 'stopped', result }),
      (error: unknown) => post({ type: 'stop-failed', message: messageOf(error) }),
    ).finally(() => process.exit(0));
  });
}
