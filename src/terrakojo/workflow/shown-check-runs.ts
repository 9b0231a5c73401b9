// What this controller last showed on each Workflow's check run, by Workflow UID. A reconcile can run on a
// cached Workflow that does not yet hold the phase the previous reconcile wrote (the watch event is on its way);
// without this it would PATCH the check run to the same state a second time. After a restart the memory is
// empty and status.phase decides alone, so a crash between a PATCH and its status write still PATCHes again.
import type { CheckRunState } from './phase.ts';

export class ShownCheckRuns {
  private readonly shown = new Map<string, string>();

  /** Whether the check run of the Workflow with this UID was last set to state by this controller. */
  shows(uid: string, state: CheckRunState): boolean {
    return this.shown.get(uid) === key(state);
  }

  record(uid: string, state: CheckRunState): void {
    if (uid) this.shown.set(uid, key(state));
  }

  /** The Workflow is going: nothing more to remember of it. */
  forget(uid: string): void {
    this.shown.delete(uid);
  }
}

function key(state: CheckRunState): string {
  return `${state.status}/${state.conclusion ?? ''}`;
}
