// Deploy item classes A–E (docs/technical/execution_controller.md; pkg/landscaper/execution/classification.go):
// A succeeded, B failed, C running, D runnable, E pending. Pure functions over a snapshot.
import { PHASE_SUCCEEDED, isFailedPhase } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import { ConfigurationError } from '../ls-error.ts';

/** One deploy item as the execution sees it: its template name, dependencies and object (if any). */
export interface ExecutionItem {
  /** The template name (label execution.landscaper.gardener.cloud/name). */
  name: string;
  /** The DeployItem object's name, when known. */
  objectName?: string;
  dependsOn: readonly string[];
  /** undefined: the object does not exist (deleted by hand, or gone after deletion). */
  deployItem?: DeployItem;
}

export interface Classification {
  succeeded: ExecutionItem[];
  failed: ExecutionItem[];
  running: ExecutionItem[];
  runnable: ExecutionItem[];
  pending: ExecutionItem[];
}

const empty = (): Classification => ({ succeeded: [], failed: [], running: [], runnable: [], pending: [] });

function jobOf(di: DeployItem): { jobID: string; finished: string } {
  return { jobID: di.status?.jobID ?? '', finished: di.status?.jobIDFinished ?? '' };
}

/**
 * Reconcile rules. A missing item, or one being deleted that is not running for this job, is failed:
 * it was created in Init, so someone removed it. An older job's item is runnable once every item it
 * depends on finished this job.
 */
export function classifyForReconcile(jobID: string, items: readonly ExecutionItem[]): Classification {
  const c = empty();
  const known = new Set(items.map((i) => i.name));
  // Items that finished this job, whatever their phase: enough to unblock their dependents.
  const finished = new Set(items.filter((i) => i.deployItem?.status?.jobIDFinished === jobID).map((i) => i.name));
  for (const item of items) {
    const di = item.deployItem;
    if (!di) {
      c.failed.push(item);
      continue;
    }
    const job = jobOf(di);
    if (job.jobID === jobID) {
      if (job.jobID !== job.finished) c.running.push(item);
      else if (di.metadata.deletionTimestamp === undefined && di.status?.phase === PHASE_SUCCEEDED) c.succeeded.push(item);
      else c.failed.push(item);
      continue;
    }
    if (di.metadata.deletionTimestamp !== undefined) {
      c.failed.push(item);
      continue;
    }
    let runnable = true;
    for (const dep of item.dependsOn) {
      if (finished.has(dep)) continue;
      if (!known.has(dep)) {
        throw new ConfigurationError('ClassifyDeployItems', 'DependentDeployItemNotFound', `deploy item "${item.name}" depends on "${dep}", which is not a deploy item of this execution`);
      }
      // One unfinished dependency is enough: with wide layers the full scan made this O(items × deps).
      runnable = false;
      break;
    }
    (runnable ? c.runnable : c.pending).push(item);
  }
  return c;
}

/**
 * Delete rules over the items that still exist. Gone items count as succeeded. A triggered item that
 * finished without failing is still running: it is waiting to disappear. An older job's item may be
 * deleted once no existing item depends on it (reverse dependsOn order).
 */
export function classifyForDelete(jobID: string, items: readonly ExecutionItem[]): Classification {
  const c = empty();
  const neededBy = new Map<string, string[]>();
  for (const item of items) {
    if (!item.deployItem) continue;
    for (const dep of item.dependsOn) neededBy.set(dep, [...(neededBy.get(dep) ?? []), item.name]);
  }
  for (const item of items) {
    const di = item.deployItem;
    if (!di) {
      c.succeeded.push(item);
      continue;
    }
    const job = jobOf(di);
    if (job.jobID === jobID) {
      if (job.jobID === job.finished && isFailedPhase(di.status?.phase)) c.failed.push(item);
      else c.running.push(item);
      continue;
    }
    (neededBy.has(item.name) ? c.pending : c.runnable).push(item);
  }
  return c;
}

/** Names of the items that still wait for one of theirs (for "could not be started/deleted" messages). */
export function blockers(item: ExecutionItem, items: readonly ExecutionItem[], jobID: string, forDelete: boolean): string[] {
  if (!forDelete) {
    return item.dependsOn.filter((dep) => items.find((i) => i.name === dep)?.deployItem?.status?.jobIDFinished !== jobID);
  }
  return items.filter((i) => i.deployItem && i.dependsOn.includes(item.name)).map((i) => i.name);
}
