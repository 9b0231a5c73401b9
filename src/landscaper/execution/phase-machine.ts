// The execution's phase machine on the runtime's one machine (runtime/phases): a job starts in Init
// (InitDelete when the execution is being deleted) and runs Init → Progressing → Completing → Succeeded,
// or InitDelete → Deleting → gone. Fatal errors end the job in Failed / DeleteFailed; normal errors keep
// the phase, are recorded in lastError and back off through the work queue; waits keep the phase until a
// deploy item event wakes the execution.
import type { PhaseMachine, StatusWriter } from '../../runtime/index.ts';
import {
  PHASE_COMPLETING,
  PHASE_DELETING,
  PHASE_INIT,
  PHASE_INIT_DELETE,
  PHASE_PROGRESSING,
  PHASE_TRIGGER_DELETE,
  isFinalPhase,
  type ExecutionPhase,
} from '../api/constants.ts';
import type { Execution, ExecutionStatus } from '../api/execution.ts';
import { finishJob, jobPhases } from '../job-phases.ts';
import { lsTime, updatedLsError } from '../status-helpers.ts';
import { setDeployItemsCondition } from './condition.ts';
import type { ExecutionEnv } from './env.ts';
import { classify, type LandscaperFailure } from '../ls-error.ts';
import { completing } from './phases/completing.ts';
import { deleting } from './phases/deleting.ts';
import { init } from './phases/init.ts';
import { initDelete } from './phases/init-delete.ts';
import { progressing } from './phases/progressing.ts';
import type { ExecutionRun, PhaseHandler } from './phases/types.ts';

export type ExecutionMachine = PhaseMachine<Execution, ExecutionPhase, ExecutionStatus, ExecutionRun, LandscaperFailure>;

const handlers: Partial<Record<ExecutionPhase, PhaseHandler>> = {
  [PHASE_INIT]: init,
  [PHASE_PROGRESSING]: progressing,
  [PHASE_COMPLETING]: completing,
  [PHASE_INIT_DELETE]: initDelete,
  [PHASE_DELETING]: deleting,
  // Declared upstream but never set; an execution found in it is deleting.
  [PHASE_TRIGGER_DELETE]: deleting,
};

export function executionMachine(env: ExecutionEnv, writer: StatusWriter<Execution>): ExecutionMachine {
  return {
    ...jobPhases<Execution, ExecutionPhase>(),
    handlers,
    classify,
    writer,
    recorder: env.recorder,
    // The phases one reconcile passes through go out in one status write: no one waits for them in between.
    coalesce: true,
    status: {
      start(s, exec) {
        const now = env.now();
        // A new execution has no deploy items yet, whatever a copied status claims.
        if (s.phase === undefined) delete s.deployItemCache;
        enterPhase(s, exec.metadata.deletionTimestamp !== undefined ? PHASE_INIT_DELETE : PHASE_INIT, now);
        s.transitionTimes = { ...(s.transitionTimes?.triggerTime ? { triggerTime: s.transitionTimes.triggerTime } : {}), initTime: lsTime(now) };
        delete s.lastError;
      },
      enter(s, phase, _exec, failure) {
        const now = env.now();
        if (failure) {
          s.lastError = updatedLsError(s.lastError, failure.operation, failure.reason, failure.message, failure.codes, now);
          setDeployItemsCondition(s, 'False', failure.reason, failure.message, failure.codes, now);
        } else {
          delete s.lastError;
        }
        enterPhase(s, phase, now);
      },
      recordError(s, err) {
        s.lastError = updatedLsError(s.lastError, err.operation, err.reason, err.message, err.codes, env.now());
      },
    },
  };
}

/** phaseTransitionTime moves with the phase; a final phase finishes the job (jobIDFinished, finishedTime). */
function enterPhase(s: ExecutionStatus, phase: ExecutionPhase, now: Date): void {
  if (s.phase !== phase) s.phaseTransitionTime = lsTime(now);
  s.phase = phase;
  if (isFinalPhase(phase)) finishJob(s, now);
}
