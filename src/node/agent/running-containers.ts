// What the agent's kubelet API (logs, exec) needs of the pods the agent runs, and nothing more: the live
// container of a pod, and where the logs of its current and previous run are.
import type { RunningContainer } from './container-runtime.ts';

export interface ContainerRef {
  namespace: string;
  pod: string;
  container: string;
}

export interface RunningContainers {
  /** The container's live handle, or undefined when it does not run now (not started, exited, other node). */
  running(ref: ContainerRef): RunningContainer | undefined;
  /**
   * The CRI log file of the container's current (or last) run, or with previous of the run before it; undefined
   * when there is none (kubelet: "previous terminated container … not found").
   */
  logPath(ref: ContainerRef, previous: boolean): string | undefined;
}
