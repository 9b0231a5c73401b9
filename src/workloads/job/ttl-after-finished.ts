// The TTL-after-finished controller: a finished Job with ttlSecondsAfterFinished is deleted (foreground, so its
// pods go first) that many seconds after its Complete or Failed condition was set. A timer per Job, no polling;
// before deleting, the Job is read afresh, as upstream does, in case its TTL changed meanwhile.
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { Action, Controller, Manager, ReconcileContext } from '../../runtime/index.ts';
import { action, getCondition } from '../../runtime/index.ts';
import { jobsResource } from '../../apimachinery/builtin-resources.ts';
import type { Job } from '../../apimachinery/api/index.ts';
import { CONDITION_COMPLETE, CONDITION_FAILED } from './constants.ts';

export interface TtlAfterFinishedOptions {
  name?: string;
  now?: () => Date;
}

interface TtlData {
  client: KubeClient;
  now(): Date;
}

/** When the Job may be deleted (ms since the epoch); undefined when it has no TTL or has not finished. */
export function expiresAt(job: Job): number | undefined {
  const ttl = job.spec.ttlSecondsAfterFinished;
  if (ttl === undefined) return undefined;
  const finished = [CONDITION_COMPLETE, CONDITION_FAILED].map((t) => getCondition(job.status?.conditions, t)).find((c) => c?.status === 'True');
  if (!finished) return undefined;
  return Date.parse(finished.lastTransitionTime ?? '') + ttl * 1000;
}

export function registerTtlAfterFinished(mgr: Manager, options: TtlAfterFinishedOptions = {}): Controller<Job, TtlData> {
  return mgr.controller<Job, TtlData>({
    name: options.name ?? 'ttl-after-finished',
    for: jobsResource,
    data: { client: mgr.client, now: options.now ?? (() => new Date()) },
    predicates: [(e) => e.type !== 'deleted' && e.object.metadata.deletionTimestamp === undefined && expiresAt(e.object) !== undefined],
    reconcile: deleteExpired,
  });
}

async function deleteExpired(job: Job, ctx: ReconcileContext<TtlData>): Promise<Action> {
  const d = ctx.data;
  if (job.metadata.deletionTimestamp !== undefined) return action.awaitChange();
  const expiry = expiresAt(job);
  if (expiry === undefined) return action.awaitChange();
  if (expiry > d.now().getTime()) return action.requeueAfter(expiry - d.now().getTime());
  const namespace = job.metadata.namespace ?? '';
  const name = job.metadata.name ?? '';
  try {
    const fresh = await d.client.get<Job>(jobsResource, name, { namespace, signal: ctx.signal });
    const freshExpiry = expiresAt(fresh);
    if (fresh.metadata.uid !== job.metadata.uid || fresh.metadata.deletionTimestamp !== undefined || freshExpiry === undefined) return action.awaitChange();
    if (freshExpiry > d.now().getTime()) return action.requeueAfter(freshExpiry - d.now().getTime());
    await d.client.delete(jobsResource, name, { namespace, propagationPolicy: 'Foreground', preconditions: { uid: fresh.metadata.uid ?? '' }, signal: ctx.signal });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
  return action.awaitChange();
}
