// Execution status writes: one optimistic write per step (a conflict means someone else moved the
// execution on, so the reconcile starts over), phase transition bookkeeping and the finalizer.
import { isDeepStrictEqual } from 'node:util';
import type { JsonPatchOperation } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import { CONDITION_RECONCILE_DEPLOY_ITEMS, LANDSCAPER_FINALIZER, isFinalPhase, type ErrorCode, type ExecutionPhase } from '../api/constants.ts';
import type { Execution, ExecutionStatus } from '../api/execution.ts';
import type { ConditionStatus } from '../api/shared.ts';
import type { ExecutionEnv } from './env.ts';
import { executionsResource } from './resources.ts';
import { lsTime, setLsCondition, updatedLsError } from '../status-helpers.ts';

function nsOpt(exec: Execution): { namespace?: string } {
  return exec.metadata.namespace !== undefined ? { namespace: exec.metadata.namespace } : {};
}

/** Applies mutate to a copy of the status and writes it when it changed; returns the execution as stored. */
export async function writeExecutionStatus(env: ExecutionEnv, exec: Execution, mutate: (status: ExecutionStatus) => void): Promise<Execution> {
  // Only the status is copied: the spec (with a large compressed item list) is sent as it is.
  const status: ExecutionStatus = structuredClone(exec.status) ?? {};
  mutate(status);
  if (isDeepStrictEqual(status, exec.status ?? {})) return exec;
  const draft: Execution = { ...exec, status };
  const written = await env.client.updateStatus<Execution>(executionsResource, draft);
  env.executionWrites.record(exec.metadata.resourceVersion, written);
  return written;
}

/** Moves to a phase: phaseTransitionTime on change; final phases finish the job (jobIDFinished, finishedTime). */
export function setPhase(status: ExecutionStatus, phase: ExecutionPhase, now: Date): void {
  if (status.phase !== phase) status.phaseTransitionTime = lsTime(now);
  status.phase = phase;
  if (isFinalPhase(phase)) {
    status.jobIDFinished = status.jobID ?? '';
    status.transitionTimes = { ...status.transitionTimes, finishedTime: lsTime(now) };
  }
}

export function setDeployItemsCondition(status: ExecutionStatus, condition: ConditionStatus, reason: string, message: string, codes: ErrorCode[], now: Date): void {
  status.conditions ??= [];
  setLsCondition(status.conditions, CONDITION_RECONCILE_DEPLOY_ITEMS, condition, reason, message, codes, now);
}

export function setLastError(status: ExecutionStatus, operation: string, reason: string, message: string, codes: ErrorCode[], now: Date): void {
  status.lastError = updatedLsError(status.lastError, operation, reason, message, codes, now);
}

export function hasExecutionFinalizer(exec: Execution): boolean {
  return (exec.metadata.finalizers ?? []).includes(LANDSCAPER_FINALIZER);
}

/** Adds the finalizer, guarded by resourceVersion so a concurrent change is not overwritten. */
export async function addExecutionFinalizer(env: ExecutionEnv, exec: Execution): Promise<Execution> {
  const current = exec.metadata.finalizers ?? [];
  const ops: JsonPatchOperation[] = [{ op: 'test', path: '/metadata/resourceVersion', value: exec.metadata.resourceVersion }];
  if (current.length === 0) ops.push({ op: 'add', path: '/metadata/finalizers', value: [LANDSCAPER_FINALIZER] });
  else ops.push({ op: 'add', path: '/metadata/finalizers/-', value: LANDSCAPER_FINALIZER });
  const written = await env.client.patch<Execution>(executionsResource, exec.metadata.name ?? '', ops, { type: 'json', ...nsOpt(exec) });
  env.executionWrites.record(exec.metadata.resourceVersion, written);
  return written;
}

/** Removes the finalizer (the execution then vanishes); a gone execution counts as done. */
export async function removeExecutionFinalizer(env: ExecutionEnv, exec: Execution): Promise<void> {
  const index = (exec.metadata.finalizers ?? []).indexOf(LANDSCAPER_FINALIZER);
  if (index < 0) return;
  const path = `/metadata/finalizers/${index}`;
  try {
    await env.client.patch(executionsResource, exec.metadata.name ?? '', [
      { op: 'test', path: '/metadata/resourceVersion', value: exec.metadata.resourceVersion },
      { op: 'test', path, value: LANDSCAPER_FINALIZER },
      { op: 'remove', path },
    ], { type: 'json', ...nsOpt(exec) });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}
