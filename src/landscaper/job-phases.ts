// What installations, executions and deploy items share as jobs on the runtime's phase machine: the phase in
// status.phase, final phases (Succeeded, Failed, DeleteFailed), where a fatal error ends a job, what makes a
// fresh read the same job, and upstream's rule that a final phase and jobIDFinished go into one write.
import type { KubeObject } from '../apimachinery/object.ts';
import type { PhaseMachine } from '../runtime/phases/phase-machine.ts';
import { PHASE_DELETE_FAILED, PHASE_FAILED, isDeletionPhase, isFinalPhase } from './api/constants.ts';
import type { TransitionTimes } from './api/shared.ts';
import { lsTime } from './status-helpers.ts';

interface JobStatus<P extends string> {
  phase?: P;
  jobID?: string;
  jobIDFinished?: string;
  transitionTimes?: TransitionTimes;
}

type JobObject<P extends string> = KubeObject & { status?: JobStatus<P> };

export function jobPhases<T extends JobObject<P>, P extends string>(): Pick<PhaseMachine<T, P, NonNullable<T['status']>, unknown>, 'phaseOf' | 'isFinal' | 'failedPhase' | 'sameJob'> {
  return {
    phaseOf: (obj) => obj.status?.phase,
    isFinal: isFinalPhase,
    // Both are phases of every Landscaper kind.
    failedPhase: (phase) => (isDeletionPhase(phase) ? PHASE_DELETE_FAILED : PHASE_FAILED) as P,
    sameJob: (fresh, read) => fresh.status?.jobID === read.status?.jobID,
  };
}

/** A final phase finishes the job in the same write: jobIDFinished and finishedTime. */
export function finishJob(status: JobStatus<string>, now: Date): void {
  status.jobIDFinished = status.jobID ?? '';
  status.transitionTimes = { ...status.transitionTimes, finishedTime: lsTime(now) };
}
