// `bosun up`'s node agent on a worker thread: the thread runs bin/bosun.js, whose main module sees the workerData
// and runs node-thread-main.ts instead of a command, compiled or through tsx as the process itself is.
import { Worker } from 'node:worker_threads';
import type { AgentStopOptions, AgentStopResult } from '../../node/agent/pods/pod-controller.ts';
import type { RunningNode } from '../../node/start-node.ts';
import { NODE_THREAD, type FromNodeThread, type NodeSummary, type NodeThreadData, type ToNodeThread } from './contract.ts';

const BOSUN_BIN = new URL('../../../bin/bosun.js', import.meta.url);

/** An error from the thread's start, with the errno code it had there (EACCES: not root). */
export class NodeThreadStartError extends Error {
  override readonly name = 'NodeThreadStartError' as const;

  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * Starts the node on a thread; resolves once it is ready. onCrash: the thread ended without being told to (an
 * uncaught error in the agent); the control plane stays up and the Node goes NotReady, as when a kubelet dies.
 */
export function startNodeThread(data: Omit<NodeThreadData, 'role'>, onCrash: (error: Error) => void): Promise<RunningNode> {
  return superviseNodeThread(new Worker(BOSUN_BIN, { workerData: { ...data, role: NODE_THREAD } satisfies NodeThreadData, argv: [] }), onCrash);
}

/** The main thread's side of the contract, for any thread that speaks it (node-thread-main.ts; a test's script). */
export function superviseNodeThread(worker: Worker, onCrash: (error: Error) => void): Promise<RunningNode> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: FromNodeThread): void => {
      if (message.type === 'ready') {
        settle();
        resolve(new NodeThread(worker, message.node, onCrash));
      } else if (message.type === 'failed') {
        settle();
        reject(new NodeThreadStartError(message.message, message.code));
      }
    };
    const onError = (error: Error): void => {
      settle();
      reject(error);
    };
    const onExit = (code: number): void => {
      settle();
      reject(new Error(`the node thread ended with code ${code} before its node was ready`));
    };
    const settle = (): void => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    };
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

class NodeThread implements RunningNode {
  readonly nodeName: string;
  readonly kubeletUrl: string;
  readonly podNetwork: string;
  readonly runtimeSocketPath: string;
  private readonly ended: Promise<void>;
  private stopping = false;

  constructor(
    private readonly worker: Worker,
    node: NodeSummary,
    onCrash: (error: Error) => void,
  ) {
    ({ nodeName: this.nodeName, kubeletUrl: this.kubeletUrl, podNetwork: this.podNetwork, runtimeSocketPath: this.runtimeSocketPath } = node);
    worker.on('error', (error) => {
      if (!this.stopping) onCrash(error);
    });
    this.ended = new Promise((resolve) => worker.once('exit', () => resolve()));
  }

  async stop(options: AgentStopOptions = {}): Promise<AgentStopResult> {
    this.stopping = true;
    const answer = new Promise<AgentStopResult>((resolve, reject) => {
      this.worker.on('message', (message: FromNodeThread) => {
        if (message.type === 'stopped') resolve(message.result);
        if (message.type === 'stop-failed') reject(new Error(message.message));
      });
      // A thread that already ended (it crashed) drove no pods any more.
      void this.ended.then(() => resolve({ pods: 0, kept: 0 }));
    });
    this.worker.postMessage({ type: 'stop', options } satisfies ToNodeThread);
    try {
      return await answer;
    } finally {
      await this.ended;
    }
  }
}
