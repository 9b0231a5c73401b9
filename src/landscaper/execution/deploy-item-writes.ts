// Writes the execution controller makes on its deploy items: trigger (hand over the job ID), delete,
// and removing the finalizer when no uninstall is wanted. Each keeps read-your-writes up to date.
import { NotFoundError } from '../../client/errors.ts';
import { DELETE_WITHOUT_UNINSTALL_ANNOTATION } from '../api/constants.ts';
import type { DeployItem, DeployItemStatus } from '../api/deploy-item.ts';
import type { ExecutionEnv } from './env.ts';
import { deployItemsResource } from '../api/resources.ts';
import { finishDeletion } from '../job-phases.ts';
import { lsTime } from '../status-helpers.ts';

function nsOpt(di: DeployItem): { namespace?: string } {
  return di.metadata.namespace !== undefined ? { namespace: di.metadata.namespace } : {};
}

/**
 * Writes a deploy item status change through the runtime's conflict-retrying writer; mutate is asked again
 * on a fresh read after a conflict and returns false when that object needs nothing. Returns the stored
 * object, or undefined when the deploy item is gone.
 */
export async function writeDeployItemStatus(env: ExecutionEnv, di: DeployItem, mutate: (status: DeployItemStatus, di: DeployItem) => boolean): Promise<DeployItem | undefined> {
  try {
    return await env.deployItemStatus.write(di, (draft) => {
      const status: DeployItemStatus = draft.status ?? { observedGeneration: 0 };
      if (!mutate(status, draft)) return;
      // The CRD requires observedGeneration (Go always writes it).
      status.observedGeneration ??= 0;
      draft.status = status;
    });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** Hands the job to the deployer: status.jobID, a fresh triggerTime and jobIDGenerationTime. */
export function triggerDeployItem(env: ExecutionEnv, di: DeployItem, jobID: string): Promise<DeployItem | undefined> {
  return writeDeployItemStatus(env, di, (status) => {
    if (status.jobID === jobID) return false;
    const now = lsTime(env.now());
    status.jobID = jobID;
    status.jobIDGenerationTime = now;
    status.transitionTimes = { ...status.transitionTimes, triggerTime: now };
    return true;
  });
}

/**
 * Deletes a deploy item (its finalizer keeps it until the deployer uninstalled it). Returns the object
 * as it stays behind, or undefined when it is gone.
 */
export async function deleteDeployItem(env: ExecutionEnv, di: DeployItem): Promise<DeployItem | undefined> {
  if (di.metadata.deletionTimestamp !== undefined) return di;
  try {
    const result = await env.client.delete<DeployItem>(deployItemsResource, di.metadata.name ?? '', nsOpt(di));
    if (result.kind !== 'DeployItem') return undefined;
    const left = result as DeployItem;
    // Without a finalizer the answer is the last view of an object already gone.
    if (left.metadata.deletionTimestamp === undefined) return undefined;
    env.deployItemWrites.record(di.metadata.resourceVersion, left);
    return left;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** Marks a deploy item for deletion without uninstall (propagated from the execution). */
export async function markDeleteWithoutUninstall(env: ExecutionEnv, di: DeployItem): Promise<DeployItem> {
  if (di.metadata.annotations?.[DELETE_WITHOUT_UNINSTALL_ANNOTATION] === 'true') return di;
  try {
    const written = await env.client.patch<DeployItem>(deployItemsResource, di.metadata.name ?? '', { metadata: { annotations: { [DELETE_WITHOUT_UNINSTALL_ANNOTATION]: 'true' } } }, { type: 'merge', ...nsOpt(di) });
    env.deployItemWrites.record(di.metadata.resourceVersion, written);
    return written;
  } catch (err) {
    if (err instanceof NotFoundError) return di;
    throw err;
  }
}

/**
 * Removes the Landscaper finalizer so the deploy item vanishes without a deployer: used for
 * delete-without-uninstall, where the target may be gone and no deployer may feel responsible.
 */
export function removeDeployItemFinalizer(env: ExecutionEnv, di: DeployItem): Promise<void> {
  return finishDeletion(env.client, deployItemsResource, di, env.recorder, 'deleted without uninstall');
}
