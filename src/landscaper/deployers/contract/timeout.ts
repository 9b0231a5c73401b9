// The progressing timeout (upstream pkg/deployer/lib/timeout): deadline = transitionTimes.initTime +
// spec.timeout (default 10m). Upstream documents `timeout: none` as "disabled" but computes a deadline equal
// to initTime (every item times out at once, research §3.7); here `none` (or 0) really disables it.
// (Another helper may add src/landscaper/deployitem/timeouts.ts; this module is self-contained until then.)
import { DEFAULT_DEPLOY_ITEM_TIMEOUT, DURATION_NONE, ERR_CONFIGURATION_PROBLEM, ERR_TIMEOUT } from '../../api/constants.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import { parseDuration } from '../../../template/functions/sprig/dates.ts';
import { DeployerError } from './errors.ts';

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
  const ms = parseTimeoutMs(item.spec.timeout);
  const init = item.status?.transitionTimes?.initTime;
  if (ms === undefined || !init) return undefined;
  const start = Date.parse(init);
  return Number.isNaN(start) ? undefined : start + ms;
}

/** Throws the unrecoverable ProgressingTimeout error once the deadline has passed (a checkpoint). */
export function checkProgressingTimeout(item: DeployItem, checkpoint: string, now = Date.now()): void {
  const deadline = progressingDeadline(item);
  if (deadline === undefined || now < deadline) return;
  throw new DeployerError(
    checkpoint,
    PROGRESSING_TIMEOUT_REASON,
    `deploy item timed out after ${item.spec.timeout ?? DEFAULT_DEPLOY_ITEM_TIMEOUT} (progressing timeout, started ${item.status?.transitionTimes?.initTime ?? '?'}) at checkpoint "${checkpoint}"`,
    [ERR_TIMEOUT],
  );
}
