// Continuous reconcile (upstream pkg/deployer/lib/continuousreconcile): a deployer whose provider configuration
// has `continuousReconcile: {every | cron}` reconciles a finished item again once the schedule falls due after its
// lastReconcileTime, unless the item is annotated continuousreconcile.extensions.landscaper.gardener.cloud/active:
// "false". The controller sleeps until that moment (requeueAfter); the due reconcile is a job of the deployer's own,
// as a test-reconcile starts one, so it runs through the usual phases and moves lastReconcileTime.
import type { Action } from '../../../runtime/index.ts';
import { action } from '../../../runtime/index.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import type { ContinuousReconcileSpec } from '../../api/mock-deployer.ts';
import type { AnyJSON } from '../../api/shared.ts';
import { ScheduleError, dueTime, intervalMs, nextCronTime } from '../../schedule.ts';
import { isObject } from '../../yaml.ts';
import type { Library } from './library.ts';
import { startOwnJob } from './own-job.ts';
import { LandscaperError } from '../../ls-error.ts';

export const CONTINUOUS_RECONCILE_ACTIVE_ANNOTATION = 'continuousreconcile.extensions.landscaper.gardener.cloud/active';

/**
 * The provider configuration's continuousReconcile, checked as upstream validates it (exactly one of cron and
 * every, a valid cron spec, a positive duration); undefined when absent or empty. `fail` gets a message.
 */
export function parseContinuousReconcile(raw: AnyJSON | undefined, fail: (message: string) => never): ContinuousReconcileSpec | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) return fail('continuousReconcile must be an object with cron or every');
  const cron = raw['cron'] ?? '';
  const every = raw['every'] ?? '';
  if (typeof cron !== 'string') return fail('continuousReconcile.cron must be a string');
  if (typeof every !== 'string') return fail('continuousReconcile.every must be a duration string such as "5m"');
  if (cron === '' && every === '') return undefined;
  if (cron !== '' && every !== '') return fail('continuousReconcile: exactly one of cron and every may be set');
  try {
    if (cron !== '') {
      nextCronTime(cron, new Date());
      return { cron };
    }
    if (intervalMs(every) <= 0) return fail(`continuousReconcile.every: Invalid value: ${JSON.stringify(every)}: specified duration has to be greater than zero`);
    return { every };
  } catch (err) {
    if (err instanceof ScheduleError) return fail(`continuousReconcile.${cron !== '' ? 'cron' : 'every'}: ${err.message}`);
    throw err;
  }
}

/**
 * The schedule a deployer's configuration decoder reads; undefined when the configuration is invalid, since the
 * item's next job fails on it with the decoder's message.
 */
export function configuredSchedule(decode: () => ContinuousReconcileSpec | undefined): ContinuousReconcileSpec | undefined {
  try {
    return decode();
  } catch (err) {
    if (err instanceof LandscaperError) return undefined;
    throw err;
  }
}

/** When the next continuous reconcile is due after `last`. */
export function nextContinuousReconcile(spec: ContinuousReconcileSpec, last: Date): Date {
  return dueTime(last, spec.every, spec.cron, '0s');
}

/**
 * For a finished item: sleeps until its continuous reconcile is due, or starts that reconcile as a job of the
 * deployer's own. The job's end (jobIDFinished) wakes the item again, which schedules the next one.
 */
export async function continuousReconcile(lib: Library, item: DeployItem, now: Date): Promise<Action> {
  const spec = lib.deployer.continuousReconcile?.(item);
  if (spec === undefined || item.metadata.deletionTimestamp !== undefined) return action.awaitChange();
  if (item.metadata.annotations?.[CONTINUOUS_RECONCILE_ACTIVE_ANNOTATION] === 'false') return action.awaitChange();
  const last = item.status?.lastReconcileTime;
  const due = nextContinuousReconcile(spec, last !== undefined ? new Date(last) : now);
  if (due.getTime() > now.getTime()) return action.requeueAfter(due.getTime() - now.getTime());
  await startOwnJob(lib.client, item, now);
  return action.awaitChange();
}
