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

/** A trigger's time: notBefore, else base + offset; never before base. Undefined when the trigger sets neither. */
function triggerMs(trigger: DisruptionTrigger | undefined, base: number): number | undefined {
  if (!trigger) return undefined;
  const notBefore = rfc3339(trigger.notBefore);
  if (notBefore.ok && notBefore.value) return Math.max(base, notBefore.value.getTime());
  const offset = durationMs(trigger.offset);
  return offset > 0 ? base + offset : undefined;
}

export function timeToCreatePodsMs(d: Disruption): number {
  const created = creationMs(d);
  return triggerMs(d.spec.triggers?.createPods, created) ?? created;
}

export function timeToInjectMs(d: Disruption): number {
  const created = creationMs(d);
  const inject = d.spec.triggers?.inject;
  const notBefore = rfc3339(inject?.notBefore);
  if (notBefore.ok && notBefore.value) return Math.max(created, notBefore.value.getTime());
  const offset = durationMs(inject?.offset);
  // An inject offset counts from when the pods are created.
  return offset > 0 ? timeToCreatePodsMs(d) + offset : Math.max(created, timeToCreatePodsMs(d));
}

export function specDurationMs(d: Disruption): number {
  return durationMs(d.spec.duration);
}

/** Negative once expired. */
export function remainingMs(d: Disruption, nowMs: number): number {
  return timeToInjectMs(d) + specDurationMs(d) - nowMs;
}
