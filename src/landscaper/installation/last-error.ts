// status.lastError's update rule (upstream apis/errors UpdatedError): lastTransitionTime moves only when the
// operation changes, lastUpdateTime whenever the content changes; unchanged errors keep their timestamps so a
// repeated failure writes nothing.
import { isDeepStrictEqual } from 'node:util';
import type { LsError } from '../api/shared.ts';
import type { InstallationError } from './errors.ts';

export function rfc3339(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function updatedError(old: LsError | undefined, err: InstallationError | undefined, now: Date): LsError | undefined {
  if (err === undefined) return undefined;
  const ts = rfc3339(now);
  const next: LsError = {
    operation: err.operation,
    reason: err.reason,
    message: err.message,
    lastTransitionTime: ts,
    lastUpdateTime: ts,
    ...(err.codes.length > 0 ? { codes: [...err.codes] } : {}),
  };
  if (old === undefined) return next;
  const sameContent = old.operation === next.operation && old.reason === next.reason && old.message === next.message && isDeepStrictEqual(old.codes ?? [], next.codes ?? []);
  if (sameContent) return old;
  return { ...next, lastTransitionTime: old.operation === next.operation ? old.lastTransitionTime : ts };
}
