// Landscaper status building blocks: timestamps as metav1.Time writes them, lastError with upstream's
// UpdatedError rule (apis/errors), and Landscaper conditions (which carry lastUpdateTime and codes).
import { nowTime } from '../apimachinery/time.ts';
import { setCondition } from '../runtime/index.ts';
import type { ErrorCode } from './api/constants.ts';
import type { Condition, ConditionStatus, LsError } from './api/shared.ts';

/** RFC 3339 with seconds precision, as Go's metav1.Time marshals. */
export const lsTime = nowTime;

/** Milliseconds of an RFC 3339 timestamp, or undefined when absent or unparsable. */
export function parseLsTime(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * UpdatedError: timestamps survive an unchanged error; lastUpdateTime moves when anything changes,
 * lastTransitionTime only when the operation changes.
 */
export function updatedLsError(prev: LsError | undefined, operation: string, reason: string, message: string, codes: ErrorCode[] = [], now = new Date()): LsError {
  const t = lsTime(now);
  const next: LsError = { operation, reason, message, lastTransitionTime: t, lastUpdateTime: t, ...(codes.length > 0 ? { codes } : {}) };
  if (!prev) return next;
  const same = prev.operation === operation && prev.reason === reason && prev.message === message && sameCodes(prev.codes, codes);
  if (same) return prev;
  return { ...next, lastTransitionTime: prev.operation === operation ? prev.lastTransitionTime : t };
}

function sameCodes(a: ErrorCode[] | undefined, b: ErrorCode[]): boolean {
  const left = a ?? [];
  return left.length === b.length && left.every((c, i) => c === b[i]);
}

/** Sets a Landscaper condition in place (lastTransitionTime moves with the status, lastUpdateTime with any change). */
export function setLsCondition(conditions: Condition[], type: string, status: ConditionStatus, reason: string, message: string, codes: ErrorCode[] = [], now = new Date()): void {
  setCondition<Condition>(conditions, { type, status, reason, message, ...(codes.length > 0 ? { codes } : {}) }, now, { lastUpdateTime: true });
}

/** "a, b, c" with at most `max` names, then "(+N more)": messages stay readable for large executions. */
export function nameList(names: readonly string[], max = 10): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} (+${names.length - max} more)`;
}
