// metav1.Condition helpers (apimachinery's meta.SetStatusCondition): lastTransitionTime moves only when
// the status changes, so it tells how long a condition has held.
import { isDeepStrictEqual } from 'node:util';
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

/**
 * What setCondition edits: metav1.Condition, or a family's or built-in type's variant of it (other status values,
 * more fields, reason and message optional as in core/v1's PodCondition).
 */
export interface ConditionLike {
  type: string;
  status: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** The input for a condition of shape C: everything but the times, which setCondition stamps. */
export type ConditionInputOf<C extends ConditionLike> = Omit<C, 'lastTransitionTime' | 'lastUpdateTime'> & { lastTransitionTime?: string };

export interface SetConditionOptions {
  /** Also stamp lastUpdateTime on every change (Landscaper's conditions carry it beside lastTransitionTime). */
  lastUpdateTime?: boolean;
}

const standardKeys = new Set(['type', 'status', 'observedGeneration', 'lastTransitionTime', 'lastUpdateTime', 'reason', 'message']);

/**
 * Sets or updates the condition in place; returns true when anything changed. Fields beyond metav1.Condition's
 * (a family's own, such as Landscaper's codes) are taken from the input as they are: set when given, dropped
 * when not.
 */
export function setCondition<C extends ConditionLike = Condition>(conditions: C[], input: ConditionInputOf<C>, now: Date = new Date(), options: SetConditionOptions = {}): boolean {
  const time = nowTime(now);
  const existing = conditions.find((c) => c.type === input.type);
  if (!existing) {
    conditions.push({ ...input, lastTransitionTime: input.lastTransitionTime ?? time, ...(options.lastUpdateTime ? { lastUpdateTime: time } : {}) } as unknown as C);
    return true;
  }
  let changed = false;
  if (existing.status !== input.status) {
    existing.status = input.status;
    existing.lastTransitionTime = input.lastTransitionTime ?? time;
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
  const fields = existing as unknown as Record<string, unknown>;
  const given = input as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(fields), ...Object.keys(given)])) {
    if (standardKeys.has(key) || isDeepStrictEqual(fields[key], given[key])) continue;
    if (given[key] === undefined) delete fields[key];
    else fields[key] = given[key];
    changed = true;
  }
  if (changed && options.lastUpdateTime) fields['lastUpdateTime'] = time;
  return changed;
}

export function removeCondition(conditions: ConditionLike[], type: string): boolean {
  const index = conditions.findIndex((c) => c.type === type);
  if (index < 0) return false;
  conditions.splice(index, 1);
  return true;
}

export function getCondition<C extends ConditionLike = Condition>(conditions: readonly C[] | undefined, type: string): C | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isTrue(conditions: readonly ConditionLike[] | undefined, type: string): boolean {
  return getCondition(conditions, type)?.status === 'True';
}

export function isFalse(conditions: readonly ConditionLike[] | undefined, type: string): boolean {
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
