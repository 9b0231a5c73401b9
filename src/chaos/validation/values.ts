// How upstream reads the loosely typed spec values (IntOrString counts, Go durations, RFC 3339 times), with the
// Go errors its decoding gives, so that messages read as upstream's.
import { parseDuration } from '../../apimachinery/duration.ts';
import type { DisruptionDuration, IntOrString } from '../api/types.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** A list field as Go reads it: null or absent is empty. */
export function items<T>(value: T[] | null | undefined): T[] {
  return Array.isArray(value) ? value : [];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** strconv.Atoi. */
function atoi(text: string): Parsed<number> {
  if (!/^[+-]?\d+$/.test(text)) return { ok: false, error: `strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax` };
  const value = Number(text);
  if (!Number.isSafeInteger(value)) return { ok: false, error: `strconv.Atoi: parsing ${JSON.stringify(text)}: value out of range` };
  return { ok: true, value };
}

/** upstream's GetIntOrPercentValueSafely: "25%" is 25 percent, "3" and 3 are three. */
export function intOrPercent(count: IntOrString | null | undefined): Parsed<{ value: number; percent: boolean }> {
  if (count === undefined || count === null) return { ok: false, error: 'invalid type: pointer is nil' };
  if (typeof count === 'number') {
    return Number.isInteger(count) ? { ok: true, value: { value: count, percent: false } } : { ok: false, error: `invalid value ${count}: not an integer` };
  }
  if (typeof count !== 'string') return { ok: false, error: 'invalid type: neither int nor percentage' };
  const percent = count.endsWith('%');
  const n = atoi(percent ? count.slice(0, -1) : count);
  return n.ok ? { ok: true, value: { value: n.value, percent } } : { ok: false, error: `invalid value ${JSON.stringify(count)}: ${n.error}` };
}

/** ParseTargetPercent of memoryPressure: spaces and a trailing % dropped, then Atoi. */
export function targetPercent(text: string): Parsed<number> {
  return atoi(text.trim().replace(/%$/, ''));
}

/**
 * A DisruptionDuration in nanoseconds: a Go duration string or a JSON number of nanoseconds; absent or "" is 0.
 * A string Go cannot parse is the error its JSON decoding gives.
 */
export function durationNs(value: DisruptionDuration | null | undefined): Parsed<bigint> {
  if (value === undefined || value === null || value === '') return { ok: true, value: 0n };
  if (typeof value === 'number') return Number.isFinite(value) ? { ok: true, value: BigInt(Math.trunc(value)) } : { ok: false, error: 'invalid duration' };
  if (typeof value !== 'string') return { ok: false, error: 'invalid duration' };
  try {
    return { ok: true, value: parseDuration(value) };
  } catch (err) {
    return { ok: false, error: messageOf(err) };
  }
}

export function msToNs(ms: number): bigint {
  return BigInt(Math.round(ms)) * 1_000_000n;
}

/** An RFC 3339 time (metav1.Time); absent or "" is unset. */
export function rfc3339(value: string | null | undefined): Parsed<Date | undefined> {
  if (value === undefined || value === null || value === '') return { ok: true, value: undefined };
  const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) ? new Date(value) : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) return { ok: false, error: `parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse` };
  return { ok: true, value: date };
}

/** Go's time.Time.String() of a UTC time: 2006-01-02 15:04:05 +0000 UTC. */
export function goTime(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} +0000 UTC`;
}
