// What installations, executions and deploy items share as jobs on the runtime's phase machine: the phase in
// status.phase, final phases (Succeeded, Failed, DeleteFailed), where a fatal error ends a job, what makes a
// fresh read the same job, upstream's rule that a final phase and jobIDFinished go into one write, and the
// Normal Events that tell `kubectl get events` how a job progresses (upstream records only Warnings; the reasons
// here are Bosun's: JobStarted, Progressing, Succeeded, DeletionStarted, Deleted).
import type { KubeObject } from '../apimachinery/object.ts';
import type { KubeClient, ResourceTarget } from '../client/client.ts';
import type { EventRecorder, PhaseMachine, ProgressEvent } from '../runtime/index.ts';
import { hasFinalizer, removeFinalizer } from '../runtime/index.ts';
import { LANDSCAPER_FINALIZER, PHASE_DELETE_FAILED, PHASE_FAILED, PHASE_PROGRESSING, PHASE_SUCCEEDED, isDeletionPhase, isFinalPhase } from './api/constants.ts';
import type { TransitionTimes } from './api/shared.ts';
import { lsTime } from './status-helpers.ts';

interface JobStatus<P extends string> {
  phase?: P;
  jobID?: string;
  jobIDFinished?: string;
  transitionTimes?: TransitionTimes;
}

type JobObject<P extends string> = KubeObject & { status?: JobStatus<P> };

export function jobPhases<T extends JobObject<P>, P extends string>(): Pick<PhaseMachine<T, P, NonNullable<T['status']>, unknown>, 'phaseOf' | 'isFinal' | 'failedPhase' | 'sameJob' | 'progress'> {
  return {
    phaseOf: (obj) => obj.status?.phase,
    isFinal: isFinalPhase,
    // Both are phases of every Landscaper kind.
    failedPhase: (phase) => (isDeletionPhase(phase) ? PHASE_DELETE_FAILED : PHASE_FAILED) as P,
    sameJob: (fresh, read) => fresh.status?.jobID === read.status?.jobID,
    progress: jobProgress,
  };
}

/** Milestones only: the inner phases (ObjectsCreated, Completing, TriggerDelete…) would be noise; failures are Warnings. */
function jobProgress(obj: JobObject<string>, phase: string, how: 'started' | 'moved'): ProgressEvent | undefined {
  const job = `job ${obj.status?.jobID ?? ''}`;
  if (how === 'started') return isDeletionPhase(phase) ? { reason: 'DeletionStarted', message: `deletion started (${job})` } : { reason: 'JobStarted', message: `${job} started` };
  if (phase === PHASE_PROGRESSING) return { reason: 'Progressing', message: `${job} is progressing` };
  if (phase === PHASE_SUCCEEDED) return { reason: 'Succeeded', message: `${job} succeeded` };
  return undefined;
}

/** Deletion is over: the Landscaper finalizer goes, and with it the object; a Normal Event says so. */
export async function finishDeletion(client: KubeClient, resource: ResourceTarget, obj: KubeObject, recorder: EventRecorder, how = 'deletion finished'): Promise<void> {
  if (!hasFinalizer(obj, LANDSCAPER_FINALIZER)) return;
  await removeFinalizer(client, resource, obj, LANDSCAPER_FINALIZER);
  void recorder.normal(obj, 'Deleted', how);
}

/** A final phase finishes the job in the same write: jobIDFinished and finishedTime. */
export function finishJob(status: JobStatus<string>, now: Date): void {
  status.jobIDFinished = status.jobID ?? '';
  status.transitionTimes = { ...status.transitionTimes, finishedTime: lsTime(now) };
}
