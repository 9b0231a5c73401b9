// The delay before a Job replaces failed pods (the job controller's backoffStore): base × 2^(failures since the
// last success − 1), capped, counted from the last failure. Kept in memory, as upstream keeps it.
import type { Pod } from '../../apimachinery/api/index.ts';

export interface BackoffRecord {
  failuresAfterLastSuccess: number;
  /** ms since the epoch. */
  lastFailureTime: number | undefined;
}

/** When the pod finished: its last container's finishedAt, else its deletion, else its creation time. */
export function finishedTime(pod: Pod): number {
  let latest: number | undefined;
  for (const s of pod.status?.containerStatuses ?? []) {
    const at = Date.parse(s.state?.terminated?.finishedAt ?? '');
    if (!Number.isNaN(at) && (latest === undefined || at > latest)) latest = at;
  }
  if (latest !== undefined) return latest;
  const fallback = Date.parse(pod.metadata.deletionTimestamp ?? pod.metadata.creationTimestamp ?? '');
  return Number.isNaN(fallback) ? 0 : fallback;
}

export class PodFailureBackoff {
  private readonly records = new Map<string, BackoffRecord>();
  private readonly baseMs: number;
  private readonly maxMs: number;

  constructor(baseMs: number, maxMs: number) {
    this.baseMs = baseMs;
    this.maxMs = maxMs;
  }

  /** The record after counting newly finished pods (not stored until commit). */
  next(key: string, newSucceeded: readonly Pod[], newFailed: readonly Pod[]): BackoffRecord {
    const old = this.records.get(key) ?? { failuresAfterLastSuccess: 0, lastFailureTime: undefined };
    const failedTimes = newFailed.map(finishedTime).sort((a, b) => a - b);
    if (newSucceeded.length === 0) {
      if (failedTimes.length === 0) return old;
      return { failuresAfterLastSuccess: old.failuresAfterLastSuccess + failedTimes.length, lastFailureTime: failedTimes[failedTimes.length - 1] };
    }
    const lastSuccess = Math.max(...newSucceeded.map(finishedTime));
    const after = failedTimes.filter((t) => t > lastSuccess);
    return { failuresAfterLastSuccess: after.length, lastFailureTime: after.length > 0 ? after[after.length - 1] : undefined };
  }

  commit(key: string, record: BackoffRecord): void {
    this.records.set(key, record);
  }

  remove(key: string): void {
    this.records.delete(key);
  }

  /** How long new pods must still wait, in ms. */
  remainingMs(record: BackoffRecord, now: number): number {
    if (record.failuresAfterLastSuccess === 0 || record.lastFailureTime === undefined) return 0;
    const delay = Math.min(this.baseMs * 2 ** (record.failuresAfterLastSuccess - 1), this.maxMs);
    return Math.max(0, delay - (now - record.lastFailureTime));
  }
}
