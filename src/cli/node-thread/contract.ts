// What `bosun up`'s main thread and its node thread say to each other. The node agent runs on a worker thread of
// its own so that it uses the second core: on one event loop with the API server and the controllers, a burst of
// pods made every request wait behind the agent's work and the other way round (docs/node.md).
import type { LevelWithSilent } from 'pino';
import type { KubeletPki } from '../../node/kubelet-api/kubelet-pki.ts';
import type { AgentStopOptions, AgentStopResult } from '../../node/agent/pods/pod-controller.ts';
import type { LogFormat } from '../log-format.ts';
import type { NodeFlags } from '../commands/node-flags.ts';

/** Marks the workerData of a node thread, which bin/bosun.js's main module runs instead of a command. */
export const NODE_THREAD = 'bosun-node-thread';

export interface NodeThreadData {
  role: typeof NODE_THREAD;
  flags: NodeFlags;
  /** The API server's in-process kubeconfig (loopback), as the main thread's own clients use. */
  kubeconfig: string;
  nodeName: string;
  dataDir: string;
  hiddenDirs: string[];
  kubeletPki: KubeletPki;
  logLevel: LevelWithSilent;
  logFormat: LogFormat;
  /** Whether the process's stdout is a terminal: the thread's own stdout, relayed by the main thread, is not. */
  stdoutIsTTY: boolean;
}

/** What the main thread needs of a running node: its ready line. */
export interface NodeSummary {
  nodeName: string;
  kubeletUrl: string;
  podNetwork: string;
  runtimeSocketPath: string;
}

export type FromNodeThread =
  | { type: 'ready'; node: NodeSummary }
  | { type: 'failed'; message: string; code?: string }
  | { type: 'stopped'; result: AgentStopResult }
  | { type: 'stop-failed'; message: string };

export type ToNodeThread = { type: 'stop'; options: AgentStopOptions };

export function isNodeThreadData(data: unknown): data is NodeThreadData {
  return typeof data === 'object' && data !== null && (data as { role?: unknown }).role === NODE_THREAD;
}
