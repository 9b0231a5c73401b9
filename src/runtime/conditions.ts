// metav1.Condition helpers (apimachinery's meta.SetStatusCondition): lastTransitionTime moves only when
// the status changes, so it tells how long a condition has held.
import type { KubeObject } from '../apimachinery/object.ts';
import { nowTime } from '../apimachinery/time.ts';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface Condition {
  /** CamelCase: 'Ready', 'Progressing'. */
  type: string;
  status: ConditionStatus;
  /** The .metadata.generation the condition was computed from. */
  observedGeneration?: number;
  /** RFC 3339, seconds precision, as the API server stores it. */
  lastTransitionTime: string;
  /** CamelCase, machine-readable. */
  reason: string;
  message: string;
}

export type ConditionInput = Omit<Condition, 'lastTransitionTime'> & { lastTransitionTime?: string };

/** Sets or updates the condition in place; returns true when anything changed. */
export function setCondition(conditions: Condition[], input: ConditionInput, now: Date = new Date()): boolean {
  const existing = conditions.find((c) => c.type === input.type);
  if (!existing) {
    conditions.push({ ...input, lastTransitionTime: input.lastTransitionTime ?? nowTime(now) });
    return true;
  }
  let changed = false;
  if (existing.status !== input.status) {
    existing.status = input.status;
    existing.lastTransitionTime = input.lastTransitionTime ?? nowTime(now);
    changed = true;
  }
  if (existing.reason !== input.reason) {
    existing.reason = input.reason;
    changed = true;
  }
  if (existing.message !== input.message) {
    existing.message = input.message;
    changed = true;
  }
  if (input.observedGeneration !== undefined && existing.observedGeneration !== input.observedGeneration) {
    existing.observedGeneration = input.observedGeneration;
    changed = true;
  }
  return changed;
}

export function removeCondition(conditions: Condition[], type: string): boolean {
  const index = conditions.findIndex((c) => c.type === type);
  if (index < 0) return false;
  conditions.splice(index, 1);
  return true;
}

export function getCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return getCondition(conditions, type)?.status === 'True';
}

export function isFalse(conditions: readonly Condition[] | undefined, type: string): boolean {
  return getCondition(conditions, type)?.status === 'False';
}

/** The object's .status.conditions array, created when missing, for setCondition to edit in place. */
export function conditionsOf(obj: KubeObject): Condition[] {
  const status = (obj.status ??= {}) as { conditions?: Condition[] };
  return (status.conditions ??= []);
}

/** Sets a condition on obj.status.conditions, stamping observedGeneration from obj.metadata.generation. */
export function setObjectCondition(obj: KubeObject, input: Omit<ConditionInput, 'observedGeneration'>, now?: Date): boolean {
  const generation = obj.metadata.generation;
  return setCondition(conditionsOf(obj), { ...input, ...(generation !== undefined ? { observedGeneration: generation } : {}) }, now);
}
