// A disruption's clock (upstream's TimeToCreatePods, TimeToInject, RemainingDuration): when its chaos pods may
// be created, when they may inject, and how long it has left.
import type { Disruption, DisruptionTrigger } from '../api/types.ts';
import { durationNs, rfc3339 } from '../validation/values.ts';

function durationMs(value: Parameters<typeof durationNs>[0]): number {
  const parsed = durationNs(value);
  return parsed.ok ? Number(parsed.value / 1_000_000n) : 0;
}

function creationMs(d: Disruption): number {
  const created = d.metadata.creationTimestamp ? Date.parse(d.metadata.creationTimestamp) : NaN;
  return Number.isNaN(created) ? 0 : created;
}

/** A trigger's time: offset after `from` when set (it wins over notBefore, as upstream), else notBefore; never before creation. */
function triggerMs(trigger: DisruptionTrigger | undefined, created: number, from: () => number): number | undefined {
  if (!trigger) return undefined;
  const offset = durationMs(trigger.offset);
  const notBefore = rfc3339(trigger.notBefore);
  const at = offset > 0 ? from() + offset : notBefore.ok && notBefore.value ? notBefore.value.getTime() : undefined;
  return at === undefined ? undefined : Math.max(created, at);
}

export function timeToCreatePodsMs(d: Disruption): number {
  const created = creationMs(d);
  return triggerMs(d.spec.triggers?.createPods, created, () => created) ?? created;
}

/** Injection waits for its own trigger, else for the chaos pods' creation; an inject offset counts from the latter. */
export function timeToInjectMs(d: Disruption): number {
  const created = creationMs(d);
  return triggerMs(d.spec.triggers?.inject, created, () => timeToCreatePodsMs(d)) ?? timeToCreatePodsMs(d);
}

export function specDurationMs(d: Disruption): number {
  return durationMs(d.spec.duration);
}

/** Negative once expired. */
export function remainingMs(d: Disruption, nowMs: number): number {
  return timeToInjectMs(d) + specDurationMs(d) - nowMs;
}
