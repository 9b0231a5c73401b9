// Phases InitDelete and Deleting: every managed deploy item is deleted (delete-without-uninstall
// propagated first), then triggered for deletion in reverse dependsOn order; when none is left the
// execution's finalizer goes.
import { DELETE_WITHOUT_UNINSTALL_ANNOTATION } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { Execution } from '../api/execution.ts';
import { driveDeletion } from './deletion.ts';
import { deleteDeployItem, markDeleteWithoutUninstall } from './deploy-item-writes.ts';
import { forEachLimited } from '../../runtime/concurrency.ts';
import { cachedManagedDeployItems, listManagedDeployItems, type ExecutionEnv } from './env.ts';
import { removeExecutionFinalizer } from './execution-status.ts';
import type { PhaseOutcome } from './outcome.ts';

/** Deletes every managed deploy item; returns those left behind by their finalizers. */
export async function runInitDelete(env: ExecutionEnv, exec: Execution): Promise<DeployItem[]> {
  const withoutUninstall = exec.metadata.annotations?.[DELETE_WITHOUT_UNINSTALL_ANNOTATION] === 'true';
  const left: DeployItem[] = [];
  await forEachLimited(await listManagedDeployItems(env, exec), env.writeConcurrency, async (item) => {
    const di = withoutUninstall ? await markDeleteWithoutUninstall(env, item) : item;
    const remaining = await deleteDeployItem(env, di);
    if (remaining) left.push(remaining);
  });
  return left;
}

/**
 * One round of Deleting over `known` (fresh from InitDelete) or the cache. Before the finalizer goes
 * the server confirms that no deploy item is left: a lagging cache must not release the execution.
 */
export async function runDeleting(env: ExecutionEnv, exec: Execution, known?: DeployItem[]): Promise<PhaseOutcome> {
  let items = known ?? cachedManagedDeployItems(env, exec);
  if (items.length === 0) {
    items = await listManagedDeployItems(env, exec);
    if (items.length === 0) {
      await removeExecutionFinalizer(env, exec);
      return { type: 'done', items: [] };
    }
  }
  return driveDeletion(env, exec, items, 'deploy items');
}
