// Phase Progressing: orphans first (fully removed before any new or updated item runs), then classes
// A–E over the templates' deploy items, triggering the runnable ones while nothing has failed.
import { ERR_CYCLIC_DEPENDENCIES } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { DeployItemTemplate, Execution } from '../api/execution.ts';
import { blockers, classifyForReconcile, type ExecutionItem } from './classification.ts';
import { findCycle, formatCycle } from '../dependency-cycles.ts';
import { driveDeletion } from './deletion.ts';
import { triggerDeployItem } from './deploy-item-writes.ts';
import { forEachLimited } from '../../runtime/concurrency.ts';
import { cachedDeployItem, expectedDeployItem, type ExecutionEnv } from './env.ts';
import { describeFailedItem, type PhaseOutcome } from './outcome.ts';
import { nameList } from '../status-helpers.ts';

/** The template's deploy items as the execution sees them now (`written` is fresher than the cache). */
export async function executionItems(env: ExecutionEnv, exec: Execution, templates: readonly DeployItemTemplate[], written: ReadonlyMap<string, DeployItem>): Promise<ExecutionItem[]> {
  const objectNames = new Map((exec.status?.deployItemCache?.activeDIs ?? []).map((p) => [p.specName ?? '', p.objectName ?? '']));
  const namespace = exec.metadata.namespace;
  // Synchronous for everything the cache (or our own writes) has; the server is asked only for the rest.
  const items: ExecutionItem[] = [];
  const misses: Promise<void>[] = [];
  for (const t of templates) {
    const objectName = written.get(t.name)?.metadata.name ?? objectNames.get(t.name);
    const item: ExecutionItem = { name: t.name, dependsOn: t.dependsOn ?? [], ...(objectName ? { objectName } : {}) };
    items.push(item);
    const known = written.get(t.name) ?? (objectName ? cachedDeployItem(env, namespace, objectName) : undefined);
    if (known) item.deployItem = known;
    else if (objectName) {
      misses.push(
        expectedDeployItem(env, namespace, objectName).then((di) => {
          if (di) item.deployItem = di;
        }),
      );
    }
  }
  await Promise.all(misses);
  return items;
}

export async function runProgressing(env: ExecutionEnv, exec: Execution, templates: readonly DeployItemTemplate[], written: ReadonlyMap<string, DeployItem>): Promise<PhaseOutcome> {
  const jobID = exec.status?.jobID ?? '';
  const orphans = (exec.status?.deployItemCache?.orphanedDIs ?? [])
    .map((name) => cachedDeployItem(env, exec.metadata.namespace, name))
    .filter((di): di is DeployItem => di !== undefined);
  if (orphans.length > 0) {
    const outcome = await driveDeletion(env, exec, orphans, 'orphaned deploy items');
    if (outcome.type !== 'done') return outcome;
  }

  const items = await executionItems(env, exec, templates, written);
  const c = classifyForReconcile(jobID, items);
  if (c.failed.length > 0 && c.running.length === 0) {
    const missing = c.failed.some((i) => !i.deployItem || i.deployItem.metadata.deletionTimestamp !== undefined);
    return {
      type: 'failed',
      reason: missing ? 'DeployItemsMissing' : 'DeployItemsFailed',
      message: `has failed or missing deploy items: ${c.failed.map(describeFailedItem).join('; ')}`,
      codes: [],
    };
  }
  if (c.running.length === 0 && c.runnable.length === 0 && c.pending.length > 0) {
    const cycle = findCycle(new Map(c.pending.map((i) => [i.name, i.dependsOn])));
    if (cycle) return { type: 'failed', reason: 'CyclicDependencies', message: `deploy items could not be started: ${formatCycle(cycle)}`, codes: [ERR_CYCLIC_DEPENDENCIES] };
    const detail = c.pending.map((i) => `${i.name} (waits for ${blockers(i, items, jobID, false).join(', ')})`);
    return { type: 'failed', reason: 'DeployItemsStuck', message: `deploy items could not be started: ${detail.join('; ')}`, codes: [] };
  }
  if (c.failed.length > 0) {
    // Class B stops all triggering; the job ends once the running items are done.
    return {
      type: 'waiting',
      reason: 'DeployItemsFailed',
      message: `${nameList(c.failed.map((i) => i.name))} failed; waiting for ${nameList(c.running.map((i) => i.name))} to finish`,
      triggered: 0,
    };
  }
  if (c.running.length === 0 && c.runnable.length === 0) return { type: 'done', items };

  await forEachLimited(c.runnable, env.writeConcurrency, async (item) => {
    await triggerDeployItem(env, item.deployItem!, jobID);
  });
  const waitingFor = [...c.running, ...c.runnable].map((i) => i.name);
  const then = c.pending.length > 0 ? `; then ${nameList(c.pending.map((i) => i.name))}` : '';
  return { type: 'waiting', reason: 'WaitingForDeployItems', message: `waiting for deploy items: ${nameList(waitingFor)}${then}`, triggered: c.runnable.length };
}
