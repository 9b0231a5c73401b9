// Landscaper's timeouts (the deployers' progressing timeout, the landscaper-side pickup timeout): Go durations, "none" (and a zero duration, which Go marshals as
// "none") disabling a timeout, and the progressing deadline every deployer enforces: transitionTimes.initTime +
// spec.timeout (default 10m). Upstream's checker does not special-case "none" and fails the item at once.
import { DEFAULT_DEPLOY_ITEM_TIMEOUT, DURATION_NONE } from './api/constants.ts';
import type { DeployItem } from './api/deploy-item.ts';
import { parseDuration } from '../apimachinery/duration.ts';
import { parseLsTime } from './status-helpers.ts';

/** A timeout in milliseconds, or disabled. */
export type Timeout = { readonly disabled: true } | { readonly disabled: false; readonly ms: number };

export const TIMEOUT_DISABLED: Timeout = { disabled: true };

export class InvalidTimeoutError extends Error {
  override readonly name = 'InvalidTimeoutError' as const;
}

/**
 * A Go duration string ("90s", "1h30m"), "none", or milliseconds. Missing → the fallback. A zero or
 * negative duration disables, as "none" does.
 */
export function parseTimeout(value: string | number | undefined, fallback: string | number = DEFAULT_DEPLOY_ITEM_TIMEOUT): Timeout {
  const v = value === undefined || value === '' ? fallback : value;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new InvalidTimeoutError(`invalid timeout ${v}`);
    return v > 0 ? { disabled: false, ms: v } : TIMEOUT_DISABLED;
  }
  if (v.trim().toLowerCase() === DURATION_NONE) return TIMEOUT_DISABLED;
  let ns: bigint;
  try {
    ns = parseDuration(v.trim());
  } catch {
    throw new InvalidTimeoutError(`invalid timeout "${v}": expected a duration such as "10m" or "none"`);
  }
  return ns > 0n ? { disabled: false, ms: Number(ns / 1_000_000n) } : TIMEOUT_DISABLED;
}

/** Epoch ms when the item's job would time out if it started at `start`; undefined when disabled or not started. */
export function progressingDeadline(di: DeployItem, start: number | undefined = parseLsTime(di.status?.transitionTimes?.initTime)): number | undefined {
  const timeout = parseTimeout(di.spec.timeout, DEFAULT_DEPLOY_ITEM_TIMEOUT);
  return timeout.disabled || start === undefined ? undefined : start + timeout.ms;
}
