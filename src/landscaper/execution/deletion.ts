// Deleting a set of deploy items in reverse dependsOn order: Progressing uses it for orphans, Deleting
// for all of an execution's items. An item is triggered for deletion only after every item that
// depends on it is gone; with delete-without-uninstall its finalizer is removed instead.
import { findCycle, forEachLimited } from '../../runtime/index.ts';
import { DELETE_WITHOUT_UNINSTALL_ANNOTATION, ERR_CYCLIC_DEPENDENCIES, EXECUTION_DEPENDS_ON_ANNOTATION, EXECUTION_MANAGED_NAME_LABEL } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { Execution } from '../api/execution.ts';
import { blockers, classifyForDelete, type ExecutionItem } from './classification.ts';
import { formatCycle } from './validation.ts';
import { deleteDeployItem, removeDeployItemFinalizer, triggerDeployItem } from './deploy-item-writes.ts';
import type { ExecutionEnv } from './env.ts';
import { describeFailedItem, type ItemsWaiting } from './outcome.ts';
import { nameList } from '../status-helpers.ts';
import { ConfigurationError, JobFailedError } from '../ls-error.ts';

/** A deploy item as deletion sees it: its template name and dependsOn from the labels and annotations. */
export function deletionItem(di: DeployItem): ExecutionItem {
  const deps = di.metadata.annotations?.[EXECUTION_DEPENDS_ON_ANNOTATION] ?? '';
  return {
    name: di.metadata.labels?.[EXECUTION_MANAGED_NAME_LABEL] ?? di.metadata.name ?? '',
    objectName: di.metadata.name ?? '',
    dependsOn: deps.split(',').map((d) => d.trim()).filter((d) => d !== ''),
    deployItem: di,
  };
}

function withoutUninstall(exec: Execution, di: DeployItem): boolean {
  return exec.metadata.annotations?.[DELETE_WITHOUT_UNINSTALL_ANNOTATION] === 'true' || di.metadata.annotations?.[DELETE_WITHOUT_UNINSTALL_ANNOTATION] === 'true';
}

/**
 * One round of deletion over the items that still exist (at least one); `what` names them in messages.
 * Returns what is left to wait for. A failed or stuck deletion ends the job: it throws a JobFailedError (a
 * ConfigurationError for a cycle) for `operation` (the phase it happens in).
 */
export async function driveDeletion(env: ExecutionEnv, exec: Execution, existing: readonly DeployItem[], what: string, operation: string): Promise<ItemsWaiting> {
  const jobID = exec.status?.jobID ?? '';
  const items = existing.map(deletionItem);
  const c = classifyForDelete(jobID, items);
  if (c.failed.length > 0 && c.running.length === 0) {
    throw new JobFailedError(operation, 'DeleteFailed', `${what} could not be deleted: ${c.failed.map(describeFailedItem).join('; ')}`);
  }
  if (c.running.length === 0 && c.runnable.length === 0 && c.pending.length > 0) {
    const cycle = findCycle(new Map(c.pending.map((i) => [i.name, i.dependsOn])));
    if (cycle) throw new ConfigurationError(operation, 'CyclicDependencies', `${what} could not be deleted: ${formatCycle(cycle)}`, [ERR_CYCLIC_DEPENDENCIES]);
    const detail = c.pending.map((i) => `${i.name} (still needed by ${blockers(i, items, jobID, true).join(', ')})`);
    throw new JobFailedError(operation, 'DeletionStuck', `${what} could not be deleted: ${detail.join('; ')}`);
  }
  if (c.failed.length > 0) {
    return {
      reason: 'DeleteFailed',
      message: `deletion of ${c.failed.map((i) => i.name).join(', ')} failed; waiting for ${nameList(c.running.map((i) => i.name))} to finish`,
      triggered: 0,
    };
  }
  await forEachLimited(c.runnable, env.writeConcurrency, async (item) => {
    const di = await deleteDeployItem(env, item.deployItem!);
    if (!di) return;
    if (withoutUninstall(exec, di)) await removeDeployItemFinalizer(env, di);
    else await triggerDeployItem(env, di, jobID);
  });
  const waitingFor = [...c.running, ...c.runnable].map((i) => i.name);
  const blocked = c.pending.length > 0 ? `; then ${nameList(c.pending.map((i) => i.name))}` : '';
  return { reason: 'WaitingForDeletion', message: `waiting for ${what} to be deleted: ${nameList(waitingFor)}${blocked}`, triggered: c.runnable.length };
}
