// A reconcile's status changes as mutations, written through the runtime's status writer. Each decision of a pass
// (a target selected, a chaos pod created, stuck on removal, cleaned) is a small function: applied at once to the
// pass's view, so later steps read it, and applied again to the freshly read object when the write conflicts, so
// that the write keeps what changed meanwhile instead of replacing the whole status.
import { NotFoundError } from '../../client/errors.ts';
import type { Disruption, DisruptionStatus } from '../api/types.ts';
import type { DisruptionControllerData } from './options.ts';

export type StatusMutation = (status: DisruptionStatus) => void;

export function emptyStatus(): DisruptionStatus {
  return { selectedTargetsCount: 0, ignoredTargetsCount: 0, injectedTargetsCount: 0, desiredTargetsCount: 0 };
}

export class StatusChanges {
  /** The status as this pass sees it: the stored one with this pass's mutations applied. */
  readonly view: DisruptionStatus;
  private readonly mutations: StatusMutation[] = [];

  constructor(current: DisruptionStatus | undefined) {
    this.view = structuredClone(current ?? emptyStatus());
  }

  /** Records a change; the mutation must capture values, not objects of the view that change later. */
  apply(mutate: StatusMutation): void {
    mutate(this.view);
    this.mutations.push(mutate);
  }

  /** Writes the recorded changes (none: no write); returns the object as stored, d itself when it is gone. */
  async write(x: DisruptionControllerData, d: Disruption): Promise<Disruption> {
    if (this.mutations.length === 0) return d;
    const mutations = this.mutations.splice(0);
    try {
      return await x.status.write(d, (draft) => {
        const status = (draft.status ??= emptyStatus());
        for (const mutate of mutations) mutate(status);
      });
    } catch (err) {
      if (err instanceof NotFoundError) return d;
      throw err;
    }
  }
}
