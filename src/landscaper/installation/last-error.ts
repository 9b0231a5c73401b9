// status.lastError's update rule (upstream apis/errors UpdatedError) for an installation's error.
import type { LsError } from '../api/shared.ts';
import { updatedLsError } from '../status-helpers.ts';
import type { InstallationError } from './errors.ts';

export function updatedError(old: LsError | undefined, err: InstallationError | undefined, now: Date): LsError | undefined {
  if (err === undefined) return undefined;
  return updatedLsError(old, err.operation, err.reason, err.message, err.codes, now);
}
