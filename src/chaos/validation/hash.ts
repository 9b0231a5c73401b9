// The spec hash the update webhook compares (upstream's DisruptionSpec.Hash and HashNoCount: md5 of the spec as
// Go serialises it). Go drops empty optional fields and rewrites durations ("60s" → "1m0s"), so a rewrite that
// Go would not see (dryRun: false added, 60s for 1m) is no change here either.
import { createHash } from 'node:crypto';
import type { DisruptionSpec } from '../api/types.ts';
import { formatDuration } from '../../apimachinery/duration.ts';
import { durationNs } from './values.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const DURATION_PATHS = ['duration', 'pulse.activeDuration', 'pulse.dormantDuration', 'pulse.initialDelay', 'triggers.inject.offset', 'triggers.createPods.offset', 'memoryPressure.rampDuration'];

/** Empty values dropped (omitempty) and keys sorted, recursively; undefined when nothing is left. */
function canonical(value: unknown): Json | undefined {
  if (value === undefined || value === null || value === false || value === '' || value === 0) return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map((v) => canonical(v) ?? null);
  if (typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value).sort()) {
      const v = canonical((value as Record<string, unknown>)[key]);
      if (v !== undefined) out[key] = v;
    }
    return out;
  }
  return value as Json;
}

function normaliseDurations(spec: Record<string, unknown>): void {
  for (const path of DURATION_PATHS) {
    const keys = path.split('.');
    const last = keys.pop() ?? '';
    let holder: unknown = spec;
    for (const k of keys) holder = holder && typeof holder === 'object' ? (holder as Record<string, unknown>)[k] : undefined;
    if (!holder || typeof holder !== 'object') continue;
    const rec = holder as Record<string, unknown>;
    const d = durationNs(rec[last] as string | number | undefined);
    if (d.ok && rec[last] !== undefined) rec[last] = d.value === 0n ? undefined : formatDuration(d.value);
  }
}

/** md5 of the canonical spec; `withoutCount` for dynamic targeting, where count alone may change. */
export function specHash(spec: DisruptionSpec, options: { withoutCount?: boolean } = {}): string {
  const copy = structuredClone(spec) as unknown as Record<string, unknown>;
  if (options.withoutCount) delete copy['count'];
  // An integer count and the same number as a string are different IntOrStrings to Go too: only the type is kept.
  if (typeof copy['count'] === 'number') copy['count'] = { int: copy['count'] };
  normaliseDurations(copy);
  return createHash('md5').update(JSON.stringify(canonical(copy) ?? {})).digest('hex');
}
