// What the pod worker knows of its pod's containers: each container's API status and run bookkeeping, and the
// pod-level facts its status is computed from (pod-status.ts).
import type { RunningContainer } from '../container-runtime.ts';
import type { ProbeWorker } from '../probes/probe-worker.ts';
import type { ContainerProgress } from './pod-status.ts';
import type { Container } from '../../../apimachinery/api/index.ts';
import type { ContainerStateOneOf as ContainerState } from './pod-status.ts';

export interface ContainerRecord extends ContainerProgress {
  spec: Container;
  init: boolean;
  handle?: RunningContainer | undefined;
  probes: ProbeWorker[];
  /** The next run's restartCount: the number of runs before it, including a previous agent's. */
  nextRun: number;
  /** The containerID of a run an earlier agent started that still runs (or ran to its end meanwhile), to adopt. */
  adopt?: string;
}

export interface PodContainers {
  readonly init: ContainerRecord[];
  readonly containers: ContainerRecord[];
  /** Every init container has succeeded. */
  initialized: boolean;
  /** Set when the pod failed as a whole (deadline, an init container that will not be retried). */
  failure: { reason?: string; message?: string } | undefined;
  /** status.startTime: the deadline counts from it. */
  readonly startTime: string;
}

export function exitCodeOf(state: ContainerState): number | undefined {
  return 'terminated' in state ? state.terminated.exitCode : undefined;
}
