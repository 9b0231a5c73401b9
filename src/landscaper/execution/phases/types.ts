// A phase handler of the execution: the runtime's handler over Execution, its phases and status, and one
// reconcile's ExecutionRun.
import type { PhaseHandler as RuntimePhaseHandler, PhaseResult as RuntimePhaseResult } from '../../../runtime/index.ts';
import type { ExecutionPhase } from '../../api/constants.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import type { Execution, ExecutionStatus } from '../../api/execution.ts';
import type { ExecutionEnv } from '../env.ts';

/**
 * One reconcile of an execution: the environment, and what an earlier phase of the same reconcile wrote.
 * Those objects are fresher than the cache, which has not seen our writes yet.
 */
export interface ExecutionRun {
  readonly env: ExecutionEnv;
  /** Init's deploy items by template name, as written. */
  written: ReadonlyMap<string, DeployItem>;
  /** The deploy items InitDelete left behind (their finalizers keep them), as deleted. */
  left?: readonly DeployItem[];
}

export type PhaseHandler = RuntimePhaseHandler<Execution, ExecutionPhase, ExecutionStatus, ExecutionRun>;
export type PhaseResult = RuntimePhaseResult<ExecutionPhase, ExecutionStatus>;
