// Incremental classification for Progressing. Each deploy item that finishes wakes its execution; a walk
// over every item per wake-up made a 1,000-item job O(items²). After a full classification the execution
// remembers what it waits for: the running items, and for each pending item the first dependency that
// still blocks it. A later wake-up in which running items only succeeded, none of them such a blocker and
// some still running, can change nothing: it costs a lookup per running item. Anything else (a failure, a
// deletion, a job or spec change, the last running item done, a blocker done) falls back to the full walk.
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
  /** Names that block a pending item (each pending item's first unfinished dependency). */
  blockers: Set<string>;
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
  const blockers = new Set<string>();
  for (const item of c.pending) {
    const blocker = item.dependsOn.find((dep) => !finished.has(dep));
    if (blocker !== undefined) blockers.add(blocker);
  }
  env.progressMemos.set(memoKey(exec), { jobID: exec.status?.jobID ?? '', generation: exec.metadata.generation, running, blockers, ...wait });
}

export function forgetProgress(env: ExecutionEnv, exec: Execution): void {
  env.progressMemos.delete(memoKey(exec));
}

/**
 * The wait to repeat when nothing that matters changed since the last full walk (the memo is updated to
 * the items still running); undefined when a full walk is needed.
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
    if (di.status.phase !== PHASE_SUCCEEDED || memo.blockers.has(name)) return undefined;
    done.push(name);
  }
  if (done.length === memo.running.size) return undefined;
  for (const name of done) memo.running.delete(name);
  return { reason: memo.reason, message: memo.message };
}
