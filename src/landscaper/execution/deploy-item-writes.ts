// Writes the execution controller makes on its deploy items: trigger (hand over the job ID), delete,
// and removing the finalizer when no uninstall is wanted. Each keeps read-your-writes up to date.
import type { JsonPatchOperation } from '../../client/client.ts';
import { ConflictError, NotFoundError } from '../../client/errors.ts';
import { DELETE_WITHOUT_UNINSTALL_ANNOTATION, LANDSCAPER_FINALIZER } from '../api/constants.ts';
import type { DeployItem, DeployItemStatus } from '../api/deploy-item.ts';
import type { ExecutionEnv } from './env.ts';
import { deployItemsResource } from './resources.ts';
import { lsTime } from '../status-helpers.ts';

const MAX_ATTEMPTS = 4;

function nsOpt(di: DeployItem): { namespace?: string } {
  return di.metadata.namespace !== undefined ? { namespace: di.metadata.namespace } : {};
}

/**
 * Writes a deploy item status change with optimistic concurrency; on a conflict re-reads and asks
 * mutate again (it returns false when the fresh object needs nothing). Returns the stored object.
 */
export async function writeDeployItemStatus(env: ExecutionEnv, di: DeployItem, mutate: (status: DeployItemStatus, di: DeployItem) => boolean): Promise<DeployItem | undefined> {
  let current = di;
  for (let attempt = 1; ; attempt++) {
    const draft = structuredClone(current);
    const status: DeployItemStatus = draft.status ?? { observedGeneration: 0 };
    if (!mutate(status, draft)) return current;
    // The CRD requires observedGeneration (Go always writes it).
    status.observedGeneration ??= 0;
    draft.status = status;
    try {
      const written = await env.client.updateStatus<DeployItem>(deployItemsResource, draft);
      env.deployItemWrites.record(current.metadata.resourceVersion, written);
      return written;
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      if (!(err instanceof ConflictError) || attempt >= MAX_ATTEMPTS) throw err;
      try {
        current = await env.client.get<DeployItem>(deployItemsResource, di.metadata.name ?? '', nsOpt(di));
      } catch (getErr) {
        if (getErr instanceof NotFoundError) return undefined;
        throw getErr;
      }
    }
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
export async function removeDeployItemFinalizer(env: ExecutionEnv, di: DeployItem): Promise<void> {
  const finalizers = di.metadata.finalizers ?? [];
  const index = finalizers.indexOf(LANDSCAPER_FINALIZER);
  if (index < 0) return;
  const path = `/metadata/finalizers/${index}`;
  const ops: JsonPatchOperation[] = [
    { op: 'test', path: '/metadata/resourceVersion', value: di.metadata.resourceVersion },
    { op: 'test', path, value: LANDSCAPER_FINALIZER },
    { op: 'remove', path },
  ];
  try {
    await env.client.patch(deployItemsResource, di.metadata.name ?? '', ops, { type: 'json', ...nsOpt(di) });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}
