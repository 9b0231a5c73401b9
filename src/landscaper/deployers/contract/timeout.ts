// The progressing timeout (upstream pkg/deployer/lib/timeout): deadline = transitionTimes.initTime +
// spec.timeout (default 10m). Upstream documents `timeout: none` as "disabled" but computes a deadline equal
// to initTime (every item times out at once, research §3.7); here `none` (or 0) really disables it.
// (Another helper may add src/landscaper/deployitem/timeouts.ts; this module is self-contained until then.)
import { DEFAULT_DEPLOY_ITEM_TIMEOUT, DURATION_NONE, ERR_CONFIGURATION_PROBLEM, ERR_TIMEOUT, isFinalPhase } from '../../api/constants.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import { parseDuration } from '../../../template/functions/sprig/dates.ts';
import { parseLsTime } from '../../status-helpers.ts';
import { DeployerError } from './errors.ts';
import { waitingOf } from './waiting.ts';

export const PROGRESSING_TIMEOUT_REASON = 'ProgressingTimeout';

/** Milliseconds of a Go duration; undefined for `none` or 0 (disabled). Throws a configuration error when invalid. */
export function parseTimeoutMs(value: string | undefined, fallback: string = DEFAULT_DEPLOY_ITEM_TIMEOUT): number | undefined {
  const text = value === undefined || value === '' ? fallback : value;
  if (text === DURATION_NONE) return undefined;
  let ns: bigint;
  try {
    ns = parseDuration(text);
  } catch (err) {
    throw new DeployerError('ProgressingTimeout', 'InvalidTimeout', `invalid timeout ${JSON.stringify(text)}: ${err instanceof Error ? err.message : String(err)}`, [ERR_CONFIGURATION_PROBLEM], { cause: err });
  }
  if (ns <= 0n) return undefined;
  return Number(ns / 1_000_000n);
}

/** The job's deadline in epoch milliseconds, or undefined when the timeout is disabled or the job has no initTime. */
export function progressingDeadline(item: DeployItem): number | undefined {
  return deadlineOf(item, parseLsTime(item.status?.transitionTimes?.initTime));
}

/** The deadline of the item's job if it started at `start` (epoch milliseconds). */
function deadlineOf(item: DeployItem, start: number | undefined): number | undefined {
  const ms = parseTimeoutMs(item.spec.timeout);
  return ms === undefined || start === undefined ? undefined : start + ms;
}

/**
 * Throws the unrecoverable ProgressingTimeout error once the deadline has passed (a checkpoint); it also says
 * what the deployer still waited for (the Waiting condition).
 */
export function checkProgressingTimeout(item: DeployItem, checkpoint: string, now = Date.now()): void {
  const deadline = progressingDeadline(item);
  if (deadline === undefined || now < deadline) return;
  const waiting = waitingOf(item.status);
  throw new DeployerError(
    checkpoint,
    PROGRESSING_TIMEOUT_REASON,
    `deploy item timed out after ${item.spec.timeout ?? DEFAULT_DEPLOY_ITEM_TIMEOUT} (progressing timeout, started ${item.status?.transitionTimes?.initTime ?? '?'}) at checkpoint "${checkpoint}"${waiting !== undefined ? `; still ${waiting}` : ''}`,
    [ERR_TIMEOUT],
  );
}

/**
 * How long the item's job may wait before a run must check its deadline: the time left plus 10 ms (so the check
 * then finds it passed); undefined without a deadline. A job not picked up yet (phase empty or final) would
 * start now. Never throws: an invalid timeout fails the job at its first checkpoint instead.
 */
export function untilDeadlineMs(item: DeployItem, now = Date.now()): number | undefined {
  const phase = item.status?.phase;
  let deadline: number | undefined;
  try {
    deadline = !phase || isFinalPhase(phase) ? deadlineOf(item, now) : progressingDeadline(item);
  } catch {
    return undefined;
  }
  return deadline === undefined ? undefined : Math.max(0, deadline - now) + 10;
}
