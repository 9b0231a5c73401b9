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
import type { PhaseMachine } from '../../../runtime/index.ts';
import {
  isDeletionPhase,
  isFinalPhase,
  PHASE_COMPLETING,
  PHASE_DELETING,
  PHASE_INIT,
  PHASE_INIT_DELETE,
  PHASE_PROGRESSING,
  type DeployItemPhase,
} from '../../api/constants.ts';
import type { DeployItem, DeployItemStatus } from '../../api/deploy-item.ts';
import { finishJob, jobPhases } from '../../job-phases.ts';
import { classify as classifyError, type LandscaperFailure } from '../../ls-error.ts';
import { isInterrupted } from './errors.ts';
import { DEPLOYER_WAITS } from './job.ts';
import type { Library, Run } from './library.ts';
import { recordError } from './lserror.ts';
import { deleting } from './phases/deleting.ts';
import { initDelete } from './phases/init-delete.ts';
import { pickUp } from './phases/init.ts';
import { progressing } from './phases/progressing.ts';
import { setWaiting } from './waiting.ts';

export type DeployerMachine = PhaseMachine<DeployItem, DeployItemPhase, DeployItemStatus, Run, LandscaperFailure>;

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
    coalesce: lib.deployer.quick === true,
  };
}

/** The family's classification, with the deployer's own: a job taken away stops without writing. */
function classify(err: unknown, phase: DeployItemPhase): LandscaperFailure {
  const failure = classifyError(err, isDeletionPhase(phase) ? 'Delete' : 'Reconcile');
  return isInterrupted(err) ? { ...failure, class: 'superseded' } : failure;
}
