// The interrupt operation: the annotation is removed, then every managed deploy item that has not
// finished the execution's job is marked finished and Failed (DeleteFailed while being deleted). A
// deployer still at work sees the failed phase and gives up; the execution then fails through the
// ordinary classification.
import { forEachLimited } from '../../runtime/index.ts';
import { OPERATION_ANNOTATION, OPERATION_INTERRUPT, PHASE_DELETE_FAILED, PHASE_FAILED } from '../api/constants.ts';
import type { Execution } from '../api/execution.ts';
import { writeDeployItemStatus } from './deploy-item-writes.ts';
import { listManagedDeployItems, type ExecutionEnv } from './env.ts';
import { executionsResource } from '../api/resources.ts';
import { lsTime, updatedLsError } from '../status-helpers.ts';

export const INTERRUPT_OPERATION = 'InterruptOperation';

export function hasInterrupt(exec: Execution): boolean {
  return exec.metadata.annotations?.[OPERATION_ANNOTATION] === OPERATION_INTERRUPT;
}

export async function handleInterrupt(env: ExecutionEnv, exec: Execution): Promise<Execution> {
  // Guarded by the value: an operation set meanwhile (e.g. a new reconcile) is not swallowed.
  const path = `/metadata/annotations/${OPERATION_ANNOTATION.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const updated = await env.client.patch<Execution>(
    executionsResource,
    exec.metadata.name ?? '',
    [
      { op: 'test', path, value: OPERATION_INTERRUPT },
      { op: 'remove', path },
    ],
    { type: 'json', ...(exec.metadata.namespace !== undefined ? { namespace: exec.metadata.namespace } : {}) },
  );
  env.executionWrites.record(exec.metadata.resourceVersion, updated);
  const jobID = exec.status?.jobID ?? '';
  const items = await listManagedDeployItems(env, exec);
  await forEachLimited(items, env.writeConcurrency, async (di) => {
    await writeDeployItemStatus(env, di, (status, fresh) => {
      if (status.jobIDFinished === jobID) return false;
      const now = env.now();
      status.jobID = jobID;
      status.jobIDFinished = jobID;
      status.phase = fresh.metadata.deletionTimestamp !== undefined ? PHASE_DELETE_FAILED : PHASE_FAILED;
      status.transitionTimes = { ...status.transitionTimes, finishedTime: lsTime(now) };
      status.lastError = updatedLsError(status.lastError, INTERRUPT_OPERATION, INTERRUPT_OPERATION, 'operation was interrupted', [], now);
      return true;
    });
  });
  return updated;
}
