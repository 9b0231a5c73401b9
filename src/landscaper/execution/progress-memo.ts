// Incremental classification for Progressing. Each deploy item that finishes wakes its execution; a walk
// over every item per wake-up made a 1,000-item job O(items²). After a full classification the execution
// remembers what it waits for: the running items, for each pending item how many of its dependencies are
// unfinished, and which pending items each running item blocks. A later wake-up in which running items only
// succeeded, some still running and no pending item left without an unfinished dependency, can change
// nothing: it costs a lookup per running item and a count per dependent. Anything else (a failure, a
// deletion, a job or spec change, the last running item done, a pending item freed) takes the full walk.
// A hand-deleted item that is not running is therefore noticed at the next full walk, at the latest when
// the running items are done: the job's outcome is the same, as a failed item only stops new triggers.
import { PHASE_SUCCEEDED } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { Execution } from '../api/execution.ts';
import type { Classification } from './classification.ts';
import { cachedDeployItem, type ExecutionEnv } from './env.ts';

export interface ProgressMemo {
  jobID: string;
  generation: number | undefined;
  /** Template name → object name of the items running (or just triggered) at the last full walk. */
  running: Map<string, string>;
  /** Pending item → how many of its dependencies have not finished. */
  unfinished: Map<string, number>;
  /** Running item → the pending items that depend on it. */
  dependents: Map<string, string[]>;
  /** The last full walk's wait, repeated while nothing changes. */
  reason: string;
  message: string;
}

/** Executions' memos by uid; an execution's entry goes when its job leaves Progressing. */
export type ProgressMemos = Map<string, ProgressMemo>;

const memoKey = (exec: Execution): string => exec.metadata.uid ?? `${exec.metadata.namespace ?? ''}/${exec.metadata.name ?? ''}`;

/** What a full walk that triggered `c.runnable` leaves to watch. */
export function rememberProgress(env: ExecutionEnv, exec: Execution, c: Classification, wait: { reason: string; message: string }): void {
  const finished = new Set(c.succeeded.map((i) => i.name));
  const running = new Map<string, string>();
  for (const item of [...c.running, ...c.runnable]) {
    const objectName = item.deployItem?.metadata.name;
    if (objectName === undefined) return forgetProgress(env, exec);
    running.set(item.name, objectName);
  }
  const unfinished = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const item of c.pending) {
    let count = 0;
    for (const dep of new Set(item.dependsOn)) {
      if (finished.has(dep)) continue;
      count++;
      if (running.has(dep)) dependents.set(dep, [...(dependents.get(dep) ?? []), item.name]);
    }
    unfinished.set(item.name, count);
  }
  env.progressMemos.set(memoKey(exec), { jobID: exec.status?.jobID ?? '', generation: exec.metadata.generation, running, unfinished, dependents, ...wait });
}

export function forgetProgress(env: ExecutionEnv, exec: Execution): void {
  env.progressMemos.delete(memoKey(exec));
}

/**
 * The wait to repeat when nothing that matters changed since the last full walk (the memo is updated to
 * the items still running); undefined when a full walk is needed (the memo is then stale: forget it).
 */
export function unchangedProgress(env: ExecutionEnv, exec: Execution, written: ReadonlyMap<string, DeployItem>): { reason: string; message: string } | undefined {
  const memo = env.progressMemos.get(memoKey(exec));
  const jobID = exec.status?.jobID ?? '';
  // A recorded error is cleared by the full walk's status write.
  if (!memo || memo.jobID !== jobID || memo.generation !== exec.metadata.generation || exec.status?.lastError !== undefined) return undefined;
  const done: string[] = [];
  for (const [name, objectName] of memo.running) {
    const di = written.get(name) ?? cachedDeployItem(env, exec.metadata.namespace, objectName);
    if (!di || di.metadata.deletionTimestamp !== undefined || di.status?.jobID !== jobID) return undefined;
    if (di.status.jobIDFinished !== jobID) continue;
    if (di.status.phase !== PHASE_SUCCEEDED) return undefined;
    done.push(name);
  }
  if (done.length === memo.running.size) return undefined;
  for (const name of done) {
    memo.running.delete(name);
    for (const dependent of memo.dependents.get(name) ?? []) {
      const left = (memo.unfinished.get(dependent) ?? 0) - 1;
      memo.unfinished.set(dependent, left);
      if (left <= 0) return undefined;
    }
  }
  return { reason: memo.reason, message: memo.message };
}
