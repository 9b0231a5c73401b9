// The phase machine (upstream reconcile.go / reconcile_delete.go): a job starts in Init (InitDelete when
// deleting); each phase falls through to the next within one reconcile, every change written at once.
// Fatal errors end the job in Failed/DeleteFailed; normal errors keep the phase and back off; waits keep
// the phase and return until a watched object changes.
import { action, type Action } from '../../runtime/controller/action.ts';
import {
  ERR_WEBHOOK,
  PHASE_CLEANUP_ORPHANED,
  PHASE_COMPLETING,
  PHASE_DELETE_FAILED,
  PHASE_DELETING,
  PHASE_FAILED,
  PHASE_INIT,
  PHASE_INIT_DELETE,
  PHASE_OBJECTS_CREATED,
  PHASE_PROGRESSING,
  PHASE_TRIGGER_DELETE,
  isDeletionPhase,
  isFinalPhase,
  type InstallationPhase,
} from '../api/constants.ts';
import type { Installation } from '../api/installation.ts';
import { classify } from './errors.ts';
import { isDeleting, statusOf } from './helpers.ts';
import { cleanupOrphaned } from './phases/cleanup-orphaned.ts';
import { completing } from './phases/completing.ts';
import { deleting } from './phases/deleting.ts';
import { init } from './phases/init.ts';
import { initDelete } from './phases/init-delete.ts';
import { objectsCreated } from './phases/objects-created.ts';
import { progressing } from './phases/progressing.ts';
import { triggerDelete } from './phases/trigger-delete.ts';
import type { PhaseHandler } from './phases/types.ts';
import { setPhase, writeStatus } from './status-writer.ts';
import type { Deps } from './types.ts';

const handlers: Partial<Record<InstallationPhase, PhaseHandler>> = {
  [PHASE_INIT]: init,
  [PHASE_CLEANUP_ORPHANED]: cleanupOrphaned,
  [PHASE_OBJECTS_CREATED]: objectsCreated,
  [PHASE_PROGRESSING]: progressing,
  [PHASE_COMPLETING]: completing,
  [PHASE_INIT_DELETE]: initDelete,
  [PHASE_TRIGGER_DELETE]: triggerDelete,
  [PHASE_DELETING]: deleting,
};

/** Enters Init/InitDelete for a new job (written without touching jobIDFinished). */
async function startJob(deps: Deps, inst: Installation): Promise<Installation> {
  const wasEmpty = statusOf(inst).phase === undefined;
  return writeStatus(deps, inst, (s, now) => {
    s.phase = isDeleting(inst) ? PHASE_INIT_DELETE : PHASE_INIT;
    s.phaseTransitionTime = now;
    s.transitionTimes = { ...s.transitionTimes, initTime: now };
    s.observedGeneration = inst.metadata.generation ?? 0;
    delete s.lastError;
    // A new object has no children; otherwise the cache is rebuilt from a list.
    if (wasEmpty) s.subInstCache = {};
    else delete s.subInstCache;
  });
}

export async function runPhases(deps: Deps, input: Installation): Promise<Action> {
  let inst = input;
  const phase = statusOf(inst).phase;
  if (phase === undefined || isFinalPhase(phase)) inst = await startJob(deps, inst);
  for (;;) {
    const current = statusOf(inst).phase ?? PHASE_INIT;
    const handler = handlers[current];
    if (handler === undefined) return action.awaitChange();
    let result;
    try {
      result = await handler(deps, inst);
    } catch (thrown) {
      const err = classify(thrown, current);
      if (err.severity === 'fatal' && !err.codes.includes(ERR_WEBHOOK)) {
        await setPhase(deps, inst, isDeletionPhase(current) ? PHASE_DELETE_FAILED : PHASE_FAILED, err);
        return action.awaitChange();
      }
      await setPhase(deps, inst, current, err);
      return err.severity === 'wait' ? action.awaitChange() : action.requeue();
    }
    if ('gone' in result) return action.awaitChange();
    inst = await setPhase(deps, inst, result.next, undefined, result.mutate);
    if (isFinalPhase(result.next)) return action.awaitChange();
  }
}
