// The deployer library's phases on the runtime's phase machine (src/runtime/phases). A job passes
//
//   pickup → Init → Progressing → Succeeded | Failed     the deployer's reconcile (./phases/init.ts, progressing.ts)
//   pickup → InitDelete → Deleting → gone | DeleteFailed   the deployer's delete (./phases/init-delete.ts, deleting.ts)
//
// The deployer sets the install flow's phases itself; the library owns pickup (./phases/init.ts), the finish
// (phase and jobIDFinished in one write), the error history and the Waiting condition. Errors are classified
// once: an unrecoverable code (configuration, timeout…) ends the job Failed/DeleteFailed; any other error keeps
// the phase, lands in lastError and is retried with the controller's backoff; a job taken away (interrupt, a
// newer job) stops without writing; conflicts are retried.
import type { PhaseMachine } from '../../../runtime/phases/phase-machine.ts';
import { isConflict, type ClassifiedError, type ErrorClass } from '../../../runtime/phases/phase-error.ts';
import {
  isDeletionPhase,
  isFinalPhase,
  PHASE_COMPLETING,
  PHASE_DELETING,
  PHASE_INIT,
  PHASE_INIT_DELETE,
  PHASE_PROGRESSING,
  type DeployItemPhase,
  type ErrorCode,
} from '../../api/constants.ts';
import type { DeployItem, DeployItemStatus } from '../../api/deploy-item.ts';
import { finishJob, jobPhases } from '../../job-phases.ts';
import { isInterrupted, isUnrecoverable } from './errors.ts';
import { DEPLOYER_WAITS } from './job.ts';
import type { Library, Run } from './library.ts';
import { recordError, toErrorInput } from './lserror.ts';
import { deleting } from './phases/deleting.ts';
import { initDelete } from './phases/init-delete.ts';
import { pickUp } from './phases/init.ts';
import { progressing } from './phases/progressing.ts';
import { setWaiting } from './waiting.ts';

/** A classified error with the codes lastError records. */
export interface DeployerFailure extends ClassifiedError {
  readonly codes: ErrorCode[];
}

export type DeployerMachine = PhaseMachine<DeployItem, DeployItemPhase, DeployItemStatus, Run, DeployerFailure>;

export function deployerMachine(lib: Library): DeployerMachine {
  return {
    handlers: {
      [PHASE_INIT]: progressing,
      [PHASE_PROGRESSING]: progressing,
      // The mock may be told to leave an item in Completing; its reconcile still runs there.
      [PHASE_COMPLETING]: progressing,
      [PHASE_INIT_DELETE]: initDelete,
      [PHASE_DELETING]: deleting,
    },
    ...jobPhases<DeployItem, DeployItemPhase>(),
    classify,
    status: {
      start(status, item) {
        pickUp(status, item, lib.info, new Date());
        // updateOnChangeOnly: nothing to deploy, the job is done at pickup.
        if (isFinalPhase(status.phase)) finishJob(status, new Date());
      },
      enter(status, phase, _item, failure) {
        status.phase = phase;
        if (failure) recordError(status, failure, new Date());
        if (!isFinalPhase(phase)) return;
        setWaiting(status, undefined);
        finishJob(status, new Date());
      },
      recordError(status, err) {
        setWaiting(status, undefined);
        recordError(status, err, new Date());
      },
      waiting(status, waiting) {
        setWaiting(status, waiting.reason === DEPLOYER_WAITS ? waiting.message : undefined);
      },
    },
    writer: lib.writer,
    recorder: lib.recorder,
  };
}

function classify(err: unknown, phase: DeployItemPhase): DeployerFailure {
  const input = toErrorInput(err, isDeletionPhase(phase) ? 'Delete' : 'Reconcile');
  return { class: classOf(err), operation: input.operation, reason: input.reason, message: input.message, codes: input.codes ?? [], cause: err };
}

function classOf(err: unknown): ErrorClass {
  if (isInterrupted(err)) return 'superseded';
  if (isConflict(err)) return 'conflict';
  return isUnrecoverable(err) ? 'fatal' : 'normal';
}
