// The pickup timeout, landscaper-side (upstream's controllers/deployitem): a triggered item no deployer picked up
// within the pickup timeout (default 5m) fails with PickupTimeout and ERR_TIMEOUT. (The progressing timeout is the deployers': ../timeouts.ts and deployers/contract/timeout.ts.)
import type { DeployItem } from '../api/deploy-item.ts';
import { parseLsTime } from '../status-helpers.ts';
import type { Timeout } from '../timeouts.ts';

export const DEFAULT_PICKUP_TIMEOUT = '5m';
export const PICKUP_TIMEOUT_OPERATION = 'WaitingForPickup';
export const PICKUP_TIMEOUT_REASON = 'PickupTimeout';
/** The DeployerKnown condition's reason while no deployer of this process handles the item's type. */
export const NO_DEPLOYER_REASON = 'NoDeployerForType';

/** Milliseconds of a metav1.Time string; second precision ones are taken at the end of their second. */
function latestInstant(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return undefined;
  return /\.\d+/.test(value) ? ms : ms + 999;
}


// --- pickup timeout (landscaper side) ------------------------------------------------------------

/** True when a deployer picked up the current job: lastReconcileTime is not before jobIDGenerationTime (at second precision). */
export function isPickedUp(di: DeployItem): boolean {
  const generated = parseLsTime(di.status?.jobIDGenerationTime);
  const picked = parseLsTime(di.status?.lastReconcileTime);
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
