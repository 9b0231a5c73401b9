// Status writes of the installation (upstream setInstallationPhaseAndUpdate): the phase, lastError by its
// update rule, phaseTransitionTime on a phase change, and on a final phase jobIDFinished, finishedTime and
// the dependents to trigger. Writes carry the read resourceVersion: a stale read conflicts and is retried
// instead of overwriting newer state.
import { isDeepStrictEqual } from 'node:util';
import { isDeletionPhase, isFinalPhase, type InstallationPhase } from '../api/constants.ts';
import type { Installation, InstallationStatus } from '../api/installation.ts';
import type { InstallationError } from './errors.ts';
import { isDeleting, nameOf, statusOf } from './helpers.ts';
import { lsTime } from '../status-helpers.ts';
import { updatedError } from './last-error.ts';
import { installationsResource } from './resources.ts';
import { siblings, successors } from './siblings.ts';
import type { Deps } from './types.ts';

export type StatusMutation = (status: InstallationStatus, now: string) => void;

/** Writes the mutated status; nothing when it is unchanged. Returns the object as stored. */
export async function writeStatus(deps: Deps, inst: Installation, mutate: StatusMutation): Promise<Installation> {
  const status = structuredClone(statusOf(inst));
  mutate(status, lsTime(deps.now()));
  if (inst.status !== undefined && isDeepStrictEqual(status, inst.status)) return inst;
  return deps.client.updateStatus<Installation>(installationsResource, { ...inst, status });
}

export async function setPhase(deps: Deps, inst: Installation, phase: InstallationPhase, err?: InstallationError, extra?: StatusMutation): Promise<Installation> {
  const before = statusOf(inst);
  const now = deps.now();
  const stored = await writeStatus(deps, inst, (s, ts) => {
    extra?.(s, ts);
    const lastError = updatedError(s.lastError, err, now);
    if (lastError === undefined) delete s.lastError;
    else s.lastError = lastError;
    if (s.phase !== phase) {
      s.phase = phase;
      s.phaseTransitionTime = ts;
    }
    if (isFinalPhase(phase)) {
      s.jobIDFinished = s.jobID ?? '';
      s.transitionTimes = { ...s.transitionTimes, finishedTime: ts };
      // Successors are poked at the start of the next reconcile (gate "dependentsToTrigger").
      if (!isDeletionPhase(phase) && !isDeleting(inst) && inst.spec.optimization?.hasNoSiblingExports !== true) {
        const deps_ = successors(inst, siblings(deps, inst)).map((x) => ({ name: nameOf(x) }));
        if (deps_.length > 0) s.dependentsToTrigger = deps_;
        else delete s.dependentsToTrigger;
      }
    }
  });
  const changed = err !== undefined && stored.status?.lastError !== undefined && !isDeepStrictEqual(stored.status.lastError, before.lastError);
  if (changed && err.severity !== 'wait') void deps.recorder.warning(stored, err.reason, err.message).catch(() => {});
  return stored;
}
