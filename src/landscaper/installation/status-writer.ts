// Status writes of the installation outside the phase machine (the reconcile gates, the automatic reconcile),
// through the runtime's status writer: conflict retry, nothing written when nothing changed.
import type { InstallationStatus, Installation } from '../api/installation.ts';
import { lsTime } from '../status-helpers.ts';
import type { Deps } from './types.ts';

export type StatusMutation = (status: InstallationStatus, now: string) => void;

/** Writes the mutated status; nothing when it is unchanged. Returns the object as stored. */
export function writeStatus(deps: Deps, inst: Installation, mutate: StatusMutation): Promise<Installation> {
  return deps.writer.write(inst, (draft) => mutate((draft.status ??= { observedGeneration: 0 }), lsTime(deps.now())));
}
