// The installation's phase machine (upstream reconcile.go / reconcile_delete.go) on the runtime's one machine:
// a job starts in Init (InitDelete when deleting); each phase falls through to the next within one reconcile.
// Fatal errors end the job in Failed/DeleteFailed; normal errors keep the phase and back off; waits keep the
// phase, say in lastError what they wait for (with upstream's wait codes), and end when a watched object changes.
import type { PhaseHandler, PhaseMachine } from '../../runtime/index.ts';
import {
  ERR_FOR_INFO_ONLY,
  ERR_NO_RETRY,
  ERR_UNFINISHED,
  PHASE_CLEANUP_ORPHANED,
  PHASE_COMPLETING,
  PHASE_DELETING,
  PHASE_INIT,
  PHASE_INIT_DELETE,
  PHASE_OBJECTS_CREATED,
  PHASE_PROGRESSING,
  PHASE_TRIGGER_DELETE,
  isDeletionPhase,
  isFinalPhase,
  type ErrorCode,
  type InstallationPhase,
} from '../api/constants.ts';
import type { Installation, InstallationStatus } from '../api/installation.ts';
import { finishJob, jobPhases } from '../job-phases.ts';
import { lsTime, updatedLsError } from '../status-helpers.ts';
import { classify, type LandscaperFailure } from '../ls-error.ts';
import { isDeleting, nameOf } from './helpers.ts';
import { cleanupOrphaned } from './phases/cleanup-orphaned.ts';
import { completing } from './phases/completing.ts';
import { deleting } from './phases/deleting.ts';
import { init } from './phases/init.ts';
import { initDelete } from './phases/init-delete.ts';
import { objectsCreated } from './phases/objects-created.ts';
import { progressing } from './phases/progressing.ts';
import { triggerDelete } from './phases/trigger-delete.ts';
import { successorsOutsideCycles } from './siblings.ts';
import type { Deps } from './types.ts';

/** The codes upstream records in lastError while an installation waits for another object (never retried by polling). */
const WAIT_CODES: ErrorCode[] = [ERR_UNFINISHED, ERR_FOR_INFO_ONLY, ERR_NO_RETRY];

const handlers: Partial<Record<InstallationPhase, PhaseHandler<Installation, InstallationPhase, InstallationStatus, Deps>>> = {
  [PHASE_INIT]: init,
  [PHASE_CLEANUP_ORPHANED]: cleanupOrphaned,
  [PHASE_OBJECTS_CREATED]: objectsCreated,
  [PHASE_PROGRESSING]: progressing,
  [PHASE_COMPLETING]: completing,
  [PHASE_INIT_DELETE]: initDelete,
  [PHASE_TRIGGER_DELETE]: triggerDelete,
  [PHASE_DELETING]: deleting,
};

export function installationMachine(deps: Deps): PhaseMachine<Installation, InstallationPhase, InstallationStatus, Deps, LandscaperFailure> {
  return {
    ...jobPhases<Installation, InstallationPhase>(),
    handlers,
    classify,
    writer: deps.writer,
    recorder: deps.recorder,
    // The phases one reconcile passes through go out in one status write: no one waits for them in between.
    coalesce: true,
    status: {
      /** A new job: Init or InitDelete, written without touching jobIDFinished. */
      start(s, inst) {
        const now = lsTime(deps.now());
        const wasEmpty = s.phase === undefined;
        s.phase = isDeleting(inst) ? PHASE_INIT_DELETE : PHASE_INIT;
        s.phaseTransitionTime = now;
        s.transitionTimes = { ...s.transitionTimes, initTime: now };
        s.observedGeneration = inst.metadata.generation ?? 0;
        delete s.lastError;
        // A new object has no children; otherwise the cache is rebuilt from a list.
        if (wasEmpty) s.subInstCache = {};
        else delete s.subInstCache;
      },
      /** upstream setInstallationPhaseAndUpdate: final phases finish the job and note the successors to trigger. */
      enter(s, phase, inst, failure) {
        const now = deps.now();
        if (failure) s.lastError = updatedLsError(s.lastError, failure.operation, failure.reason, failure.message, failure.codes, now);
        else delete s.lastError;
        if (s.phase !== phase) {
          s.phase = phase;
          s.phaseTransitionTime = lsTime(now);
        }
        if (!isFinalPhase(phase)) return;
        finishJob(s, now);
        // Successors (the spec's "Completing - triggering successors") are poked at the start of the next
        // reconcile: gate 4 of ./reconcile.ts.
        if (!isDeletionPhase(phase) && !isDeleting(inst) && inst.spec.optimization?.hasNoSiblingExports !== true) {
          const dependents = successorsOutsideCycles(deps, inst).map((x) => ({ name: nameOf(x) }));
          if (dependents.length > 0) s.dependentsToTrigger = dependents;
          else delete s.dependentsToTrigger;
        }
      },
      recordError(s, err) {
        s.lastError = updatedLsError(s.lastError, err.operation, err.reason, err.message, err.codes, deps.now());
      },
      waiting(s, waiting) {
        s.lastError = updatedLsError(s.lastError, s.phase ?? PHASE_INIT, waiting.reason, waiting.message, WAIT_CODES, deps.now());
      },
    },
  };
}
