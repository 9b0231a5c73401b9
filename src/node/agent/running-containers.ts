// What the agent's kubelet API (logs, exec, port-forward) needs of the pods the agent runs, and nothing more:
// the live container of a pod, where the logs of its current and previous run are, and where its ports are.
import type { RunningContainer } from './container-runtime.ts';

export interface ContainerRef {
  namespace: string;
  pod: string;
  container: string;
}

export interface ForwardTarget {
  /** Where the host reaches the pod's ports. */
  address: string;
  /** For kubelet's error messages. */
  pod: string;
  uid: string;
}

export interface RunningContainers {
  /** The container's live handle, or undefined when it does not run now (not started, exited, other node). */
  running(ref: ContainerRef): RunningContainer | undefined;
  /**
   * The CRI log file of the container's current (or last) run, or with previous of the run before it; undefined
   * when there is none (kubelet: "previous terminated container … not found").
   */
  logPath(ref: ContainerRef, previous: boolean): string | undefined;
  /**
   * Where the host reaches the pod's ports (its IP on the bridge, 127.0.0.1 on the host network); undefined
   * when the pod has no network now (not on this node, not set up yet, finished). The container is ignored.
   */
  forwardTarget(ref: ContainerRef): ForwardTarget | undefined;
}
