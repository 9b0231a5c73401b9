// What a Repository's status says: the cursor, `synced`, and one Ready condition whose reason tells why not.
import { setObjectCondition } from '../../runtime/index.ts';
import type { Repository } from '../api/types.ts';

export const READY_CONDITION = 'Ready';

export const RepositoryReason = {
  /** Every commit and ref GitHub shows has its Branch. */
  Synced: 'Synced',
  /** A page of default-branch commits was made into Branches; the next pass takes the next page. */
  CatchingUp: 'CatchingUp',
  /** GitHub (or the API server) failed during the pass; retried with backoff. */
  SyncFailed: 'SyncFailed',
} as const;

export interface ReadyState {
  ready: boolean;
  /** A RepositoryReason, or a credentials problem's own reason ("NoCredentials", "InvalidPrivateKey"…). */
  reason: string;
  message: string;
}

/** Sets Ready and `synced` on a status draft; observedGeneration comes from the object. */
export function applyReady(draft: Repository, state: ReadyState, now?: Date): void {
  setObjectCondition(draft, { type: READY_CONDITION, status: state.ready ? 'True' : 'False', reason: state.reason, message: state.message }, now);
  (draft.status ??= {}).synced = state.ready;
}
