// The progressing timeout (upstream pkg/deployer/lib/timeout): deadline = transitionTimes.initTime +
// spec.timeout (default 10m). Upstream documents `timeout: none` as "disabled" but computes a deadline equal
// to initTime (upstream's standard_timeoutchecker.go: every item times out at once); here `none` (or 0) really disables it.
import { DEFAULT_DEPLOY_ITEM_TIMEOUT, ERR_TIMEOUT, isFinalPhase } from '../../api/constants.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import { InvalidTimeoutError, parseTimeout, progressingDeadline } from '../../timeouts.ts';
import { waitingOf } from './waiting.ts';
import { ConfigurationError, LandscaperError } from '../../ls-error.ts';

export const PROGRESSING_TIMEOUT_REASON = 'ProgressingTimeout';

/** Milliseconds of a Go duration; undefined for `none` or 0 (disabled). Throws a configuration error when invalid. */
export function parseTimeoutMs(value: string | undefined, fallback: string = DEFAULT_DEPLOY_ITEM_TIMEOUT): number | undefined {
  const timeout = configured(() => parseTimeout(value, fallback));
  return timeout.disabled ? undefined : timeout.ms;
}

/** An invalid timeout is the user's configuration to fix: unrecoverable. */
function configured<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof InvalidTimeoutError)) throw err;
    throw new ConfigurationError('ProgressingTimeout', 'InvalidTimeout', err.message, undefined, { cause: err });
  }
}

/**
 * Throws the unrecoverable ProgressingTimeout error once the deadline has passed (a checkpoint); it also says
 * what the deployer still waited for (the Waiting condition) and the last error the job retried.
 */
export function checkProgressingTimeout(item: DeployItem, checkpoint: string, now = Date.now()): void {
  const deadline = configured(() => progressingDeadline(item));
  if (deadline === undefined || now < deadline) return;
  const waiting = waitingOf(item.status);
  // The error the job kept retrying is why it timed out: the timeout must not hide it.
  const last = item.status?.lastError;
  const cause = last !== undefined && last.reason !== PROGRESSING_TIMEOUT_REASON ? `; last error (${last.operation}): ${last.message}` : '';
  throw new LandscaperError(
    checkpoint,
    PROGRESSING_TIMEOUT_REASON,
    `deploy item timed out after ${item.spec.timeout ?? DEFAULT_DEPLOY_ITEM_TIMEOUT} (progressing timeout, started ${item.status?.transitionTimes?.initTime ?? '?'}) at checkpoint "${checkpoint}"${waiting !== undefined ? `; still ${waiting}` : ''}${cause}`,
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
    deadline = !phase || isFinalPhase(phase) ? progressingDeadline(item, now) : progressingDeadline(item);
  } catch {
    return undefined;
  }
  return deadline === undefined ? undefined : Math.max(0, deadline - now) + 10;
}
