// Deploy item timeouts (§3.7). Pickup: landscaper-side, a triggered item no deployer picked up within
// the pickup timeout fails. Progressing: enforced by deployers, deadline = transitionTimes.initTime +
// spec.timeout (default 10m). "none" (and a zero duration, which Go marshals as "none") disables a
// timeout; upstream's checker does not special-case it and would fail the item at once.
import { DEFAULT_DEPLOY_ITEM_TIMEOUT, DURATION_NONE, ERR_TIMEOUT, type ErrorCode } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import { parseDuration } from '../../template/functions/sprig/dates.ts';

export const DEFAULT_PICKUP_TIMEOUT = '5m';
export const PICKUP_TIMEOUT_OPERATION = 'WaitingForPickup';
export const PICKUP_TIMEOUT_REASON = 'PickupTimeout';
export const PROGRESSING_TIMEOUT_OPERATION = 'ProgressingTimeout';
export const PROGRESSING_TIMEOUT_REASON = 'ProgressingTimeout';

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

/** Go's Duration.String for whole milliseconds: "5m0s", "1.5s", "300ms", "1h0m0s". */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  const sec = `${Number.isInteger(s) ? s : s.toFixed(3).replace(/0+$/, '')}s`;
  if (h > 0) return `${h}h${m}m${sec}`;
  if (m > 0) return `${m}m${sec}`;
  return sec;
}

/** Milliseconds of a metav1.Time string; second precision ones are taken at the end of their second. */
function latestInstant(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return undefined;
  return /\.\d+/.test(value) ? ms : ms + 999;
}

function earliestInstant(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

// --- progressing timeout (for deployers) ---------------------------------------------------------

/** The item's progressing timeout: spec.timeout, default 10m, "none" disables. Throws InvalidTimeoutError. */
export function progressingTimeout(di: DeployItem): Timeout {
  return parseTimeout(di.spec.timeout, DEFAULT_DEPLOY_ITEM_TIMEOUT);
}

/** Epoch ms when the item's current job times out, or undefined (disabled, or not yet started: no initTime). */
export function progressingDeadline(di: DeployItem): number | undefined {
  const timeout = progressingTimeout(di);
  const init = earliestInstant(di.status?.transitionTimes?.initTime);
  if (timeout.disabled || init === undefined) return undefined;
  return init + timeout.ms;
}

export interface TimeoutFailure {
  operation: string;
  reason: string;
  message: string;
  codes: ErrorCode[];
}

export type ProgressingCheck =
  | { readonly expired: false; /** ms until the deadline; undefined when there is none. */ readonly remainingMs: number | undefined }
  | { readonly expired: true; readonly error: TimeoutFailure };

/**
 * The deployer's checkpoint: expired → fail the item with the returned error (ERR_TIMEOUT is
 * unrecoverable, so the deployer lib forces Failed); otherwise requeue no later than remainingMs.
 */
export function checkProgressingTimeout(di: DeployItem, now: Date = new Date()): ProgressingCheck {
  const deadline = progressingDeadline(di);
  if (deadline === undefined) return { expired: false, remainingMs: undefined };
  const remaining = deadline - now.getTime();
  if (remaining > 0) return { expired: false, remainingMs: remaining };
  const timeout = progressingTimeout(di);
  const ms = timeout.disabled ? 0 : timeout.ms;
  return {
    expired: true,
    error: {
      operation: PROGRESSING_TIMEOUT_OPERATION,
      reason: PROGRESSING_TIMEOUT_REASON,
      message: `deploy item ${di.metadata.name ?? ''} did not finish within its timeout of ${formatDuration(ms)} (spec.timeout; "none" disables it)`,
      codes: [ERR_TIMEOUT],
    },
  };
}

// --- pickup timeout (landscaper side) ------------------------------------------------------------

/** True when a deployer picked up the current job: lastReconcileTime is not before jobIDGenerationTime (at second precision). */
export function isPickedUp(di: DeployItem): boolean {
  const generated = earliestInstant(di.status?.jobIDGenerationTime);
  const picked = earliestInstant(di.status?.lastReconcileTime);
  if (picked === undefined) return false;
  if (generated === undefined) return true;
  // Go writes both with second precision: compare whole seconds.
  return Math.floor(picked / 1000) >= Math.floor(generated / 1000);
}

/** True when the item has an unfinished job. */
export function hasUnfinishedJob(di: DeployItem): boolean {
  const jobID = di.status?.jobID ?? '';
  return jobID !== '' && jobID !== (di.status?.jobIDFinished ?? '');
}

/**
 * ms until the pickup timeout fires for an unfinished, not picked-up item (≤ 0: it has fired), or
 * undefined when no pickup timeout applies. Measured from the latest instant jobIDGenerationTime can
 * stand for, so a second-precision timestamp never fires early.
 */
export function pickupRemainingMs(di: DeployItem, pickup: Timeout, now: Date = new Date()): number | undefined {
  if (pickup.disabled || !hasUnfinishedJob(di) || isPickedUp(di)) return undefined;
  const generated = latestInstant(di.status?.jobIDGenerationTime) ?? latestInstant(di.status?.transitionTimes?.triggerTime);
  if (generated === undefined) return undefined;
  return generated + pickup.ms - now.getTime();
}
