// Automatic reconcile (upstream retry_helper.go): a finished root installation with
// spec.automaticReconcile gets the reconcile annotation (reason "retry") again when its interval or cron
// spec is due, at most numberOfReconciles times after a failure. The next due time is a timed requeue.
import type { Action } from '../../runtime/index.ts';
import { action } from '../../runtime/index.ts';
import { OPERATION_ANNOTATION, OPERATION_RECONCILE, PHASE_FAILED, PHASE_SUCCEEDED, RECONCILE_REASON_ANNOTATION, RECONCILE_REASON_RETRY } from '../api/constants.ts';
import type { AutomaticReconcileStatus, Installation } from '../api/installation.ts';
import { isDeleting, isRoot, jobRunning, nameOf, namespaceOf, operationOf, statusOf } from './helpers.ts';
import { lsTime } from '../status-helpers.ts';
import { installationsResource } from '../api/resources.ts';
import { dueTime } from '../schedule.ts';
import { writeStatus } from './status-writer.ts';
import type { Deps } from './types.ts';

function combine(result: Action, afterMs: number): Action {
  const ms = Math.max(0, Math.ceil(afterMs));
  if (result.type === 'requeue') return result;
  if (result.type === 'requeueAfter') return action.requeueAfter(Math.min(result.afterMs, ms));
  return action.requeueAfter(ms);
}

async function annotate(deps: Deps, inst: Installation): Promise<void> {
  await deps.client.patch(
    installationsResource,
    nameOf(inst),
    { metadata: { annotations: { [OPERATION_ANNOTATION]: OPERATION_RECONCILE, [RECONCILE_REASON_ANNOTATION]: RECONCILE_REASON_RETRY } } },
    { type: 'merge', namespace: namespaceOf(inst) },
  );
}

export async function automaticReconcile(deps: Deps, inst: Installation, result: Action): Promise<Action> {
  const spec = inst.spec.automaticReconcile;
  const s = statusOf(inst);
  if (spec === undefined || !isRoot(inst) || isDeleting(inst) || jobRunning(inst) || operationOf(inst) !== undefined) return result;
  if ((inst.metadata.generation ?? 0) !== s.observedGeneration) return result;
  if (s.phase !== PHASE_FAILED && s.phase !== PHASE_SUCCEEDED) return result;
  const onFailed = s.phase === PHASE_FAILED;
  const conf = onFailed ? spec.failedReconcile : spec.succeededReconcile;
  if (conf === undefined) return result;
  const now = deps.now();
  const old = s.automaticReconcileStatus;
  const fresh = old === undefined || old.generation !== (inst.metadata.generation ?? 0) || (old.onFailed ?? false) !== onFailed;
  const record = async (st: AutomaticReconcileStatus): Promise<void> => {
    await writeStatus(deps, inst, (x) => void (x.automaticReconcileStatus = st));
  };
  if (fresh) {
    const st: AutomaticReconcileStatus = { generation: inst.metadata.generation ?? 0, numberOfReconciles: onFailed ? 1 : 0, lastReconcileTime: lsTime(now), onFailed };
    await record(st);
    // A failure is retried at once the first time; a success only starts the clock.
    if (onFailed) {
      await annotate(deps, inst);
      return result;
    }
    return combine(result, dueTime(now, conf.interval, conf.cronSpec, '24h').getTime() - now.getTime());
  }
  const count = old.numberOfReconciles ?? 0;
  const limit = onFailed ? spec.failedReconcile?.numberOfReconciles : undefined;
  if (limit !== undefined && count >= limit) return result;
  const last = old.lastReconcileTime !== undefined ? new Date(old.lastReconcileTime) : now;
  const due = dueTime(last, conf.interval, conf.cronSpec, onFailed ? '5m' : '24h');
  if (due.getTime() > now.getTime()) return combine(result, due.getTime() - now.getTime());
  await record({ ...old, numberOfReconciles: count + 1, lastReconcileTime: lsTime(now) });
  await annotate(deps, inst);
  return result;
}
