// The Execution controller (pkg/landscaper/controllers/execution): gates, then the phase machine
// Init → Progressing → Completing → Succeeded/Failed and InitDelete → Deleting → gone/DeleteFailed.
// It waits on events: owned DeployItems wake their execution, nothing polls. Normal errors are
// retried with the work queue's growing backoff; fatal ones end the job.
import type { Logger } from 'pino';
import { ConflictError } from '../../client/errors.ts';
import { action, type Action } from '../../runtime/controller/action.ts';
import type { Controller } from '../../runtime/controller/controller.ts';
import type { Predicate } from '../../runtime/controller/predicate.ts';
import type { ReconcileContext } from '../../runtime/controller/reconciler.ts';
import type { Manager } from '../../runtime/manager.ts';
import { StatusConflictError } from '../../runtime/status.ts';
import {
  ERR_CONFIGURATION_PROBLEM,
  PHASE_COMPLETING,
  PHASE_DELETE_FAILED,
  PHASE_DELETING,
  PHASE_FAILED,
  PHASE_INIT,
  PHASE_INIT_DELETE,
  PHASE_PROGRESSING,
  PHASE_SUCCEEDED,
  PHASE_TRIGGER_DELETE,
  isDeletionPhase,
  isFinalPhase,
  type ErrorCode,
} from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { DeployItemTemplate, Execution } from '../api/execution.ts';
import { DeployItemsCompressedError, deployItemTemplates } from '../api/execution-spec.ts';
import { MANAGED_BY_INDEX, managedByIndexValue, type ExecutionEnv } from './env.ts';
import { errorMessage, ExecutionFatalError, ExecutionStepError } from './errors.ts';
import { addExecutionFinalizer, hasExecutionFinalizer, setDeployItemsCondition, setLastError, setPhase, writeExecutionStatus } from './execution-status.ts';
import { collectExports } from './exports.ts';
import { handleInterrupt, hasInterrupt } from './interrupt.ts';
import type { ExecutionItem } from './classification.ts';
import type { PhaseOutcome } from './outcome.ts';
import { runDeleting, runInitDelete } from './phase-delete.ts';
import { runInit } from './phase-init.ts';
import { executionItems, runProgressing } from './phase-progressing.ts';
import { ReadYourWrites } from '../../runtime/informer/read-your-writes.ts';
import { deployItemsResource, executionsResource } from './resources.ts';
import { lsTime } from '../status-helpers.ts';

export interface ExecutionControllerOptions {
  /** Controller name in logs and metrics; default 'landscaper-execution'. */
  name?: string;
  /** Executions reconciled in parallel; default 4. */
  concurrency?: number;
  /** Parallel deploy item writes within one reconcile (create, trigger, delete); default 16. */
  writeConcurrency?: number;
  /** Event recorder component; default 'landscaper-execution-controller'. */
  component?: string;
  now?: () => Date;
}

/**
 * Only changes an execution can act on wake it: a finished job (jobIDFinished; the deployer contract
 * sets the final phase in the same write), deletion, finalizers, existence. Our own triggers and a
 * deployer's intermediate phases do not: with many items that halves the reconciles.
 */
export const deployItemProgressChanged: Predicate<DeployItem> = (e) => {
  if (e.type !== 'modified' || !e.old) return true;
  const a = e.old;
  const b = e.object;
  return (
    a.status?.jobIDFinished !== b.status?.jobIDFinished ||
    a.metadata.deletionTimestamp !== b.metadata.deletionTimestamp ||
    (a.metadata.finalizers ?? []).join() !== (b.metadata.finalizers ?? []).join()
  );
};

/**
 * The items of a layer finish together: their events within this window cost one execution reconcile instead
 * of one each (half the execution controller's CPU in bench (a)), for at most this much latency per layer.
 */
const OWNED_ITEM_DELAY_MS = 10;

export function registerExecutionController(mgr: Manager, options: ExecutionControllerOptions = {}): Controller<Execution, ExecutionEnv> {
  const deployItemInformer = mgr.informer<DeployItem>(deployItemsResource);
  if (!deployItemInformer.store.indexNames().includes(MANAGED_BY_INDEX)) deployItemInformer.addIndexer(MANAGED_BY_INDEX, managedByIndexValue);
  const deployItemWrites = new ReadYourWrites<DeployItem>();
  deployItemWrites.attach(deployItemInformer);
  const executionWrites = new ReadYourWrites<Execution>();
  executionWrites.attach(mgr.informer<Execution>(executionsResource));
  const name = options.name ?? 'landscaper-execution';
  const env: ExecutionEnv = {
    client: mgr.client,
    deployItemInformer,
    deployItemWrites,
    executionWrites,
    recorder: mgr.recorder(options.component ?? 'landscaper-execution-controller'),
    log: mgr.log.child({ controller: name }),
    now: options.now ?? (() => new Date()),
    writeConcurrency: Math.max(1, options.writeConcurrency ?? 16),
  };
  const controller = mgr.controller<Execution, ExecutionEnv>({
    name,
    for: executionsResource,
    data: env,
    concurrency: options.concurrency ?? 4,
    // An execution with many items is large (its deploy item cache, the compressed templates) and is
    // reconciled often as its items finish: no deep copy per reconcile. The phases never change `exec` in
    // place; status writes copy the status first.
    copyObjects: false,
    reconcile: reconcileExecution,
  });
  controller.owns(deployItemInformer, { predicates: [deployItemProgressChanged], delayMs: OWNED_ITEM_DELAY_MS });
  return controller;
}

export async function reconcileExecution(cached: Execution, ctx: ReconcileContext<ExecutionEnv>): Promise<Action> {
  const env = ctx.data;
  let exec = env.executionWrites.resolve(cached);
  if (exec.metadata.deletionTimestamp === undefined && !hasExecutionFinalizer(exec)) exec = await addExecutionFinalizer(env, exec);
  if (hasInterrupt(exec)) {
    await handleInterrupt(env, exec);
    return action.awaitChange();
  }
  // The execution never starts work itself: it waits for its installation to hand it a new job ID.
  if ((exec.status?.jobID ?? '') === (exec.status?.jobIDFinished ?? '')) return action.awaitChange();
  return runPhases(env, exec, ctx.log);
}

async function runPhases(env: ExecutionEnv, start: Execution, log: Logger): Promise<Action> {
  let exec = start;
  try {
    const phase = exec.status?.phase;
    if (phase === undefined || isFinalPhase(phase)) {
      const deleting = exec.metadata.deletionTimestamp !== undefined;
      const now = env.now();
      exec = await writeExecutionStatus(env, exec, (st) => {
        setPhase(st, deleting ? PHASE_INIT_DELETE : PHASE_INIT, now);
        st.transitionTimes = { ...(st.transitionTimes?.triggerTime ? { triggerTime: st.transitionTimes.triggerTime } : {}), initTime: lsTime(now) };
        // A new execution has no deploy items yet, whatever a copied status claims.
        if (phase === undefined) delete st.deployItemCache;
        delete st.lastError;
      });
    }

    let written = new Map<string, DeployItem>();
    let succeededItems: ExecutionItem[] | undefined;
    if (exec.status?.phase === PHASE_INIT) {
      const templates = templatesOf(exec);
      const init = await runInit(env, exec, templates);
      written = init.written;
      const now = env.now();
      exec = await writeExecutionStatus(env, exec, (st) => {
        setPhase(st, PHASE_PROGRESSING, now);
        st.deployItemCache = init.cache;
        st.transitionTimes = { ...st.transitionTimes, waitTime: lsTime(now) };
        delete st.lastError;
      });
    }

    if (exec.status?.phase === PHASE_PROGRESSING) {
      const outcome = await runProgressing(env, exec, templatesOf(exec), written);
      if (outcome.type !== 'done') return await settle(env, exec, outcome, PHASE_FAILED);
      succeededItems = outcome.items;
      exec = await writeExecutionStatus(env, exec, (st) => setPhase(st, PHASE_COMPLETING, env.now()));
    }

    if (exec.status?.phase === PHASE_COMPLETING) {
      const items = succeededItems ?? (await executionItems(env, exec, templatesOf(exec), written));
      const exportRef = await collectExports(env, exec, items);
      const now = env.now();
      exec = await writeExecutionStatus(env, exec, (st) => {
        st.exportRef = exportRef;
        st.deployItemCache = { ...st.deployItemCache, orphanedDIs: [] };
        delete st.lastError;
        setDeployItemsCondition(st, 'True', 'DeployItemsReconciled', 'All DeployItems are successfully reconciled', [], now);
        setPhase(st, PHASE_SUCCEEDED, now);
      });
      return action.awaitChange();
    }

    let left: DeployItem[] | undefined;
    if (exec.status?.phase === PHASE_INIT_DELETE) {
      left = await runInitDelete(env, exec);
      const now = env.now();
      exec = await writeExecutionStatus(env, exec, (st) => {
        setPhase(st, PHASE_DELETING, now);
        st.transitionTimes = { ...st.transitionTimes, waitTime: lsTime(now) };
        delete st.lastError;
      });
    }

    // TriggerDelete is declared upstream but never set; treat it as Deleting.
    if (exec.status?.phase === PHASE_DELETING || exec.status?.phase === PHASE_TRIGGER_DELETE) {
      const outcome = await runDeleting(env, exec, left);
      // done: the finalizer is gone and so is the execution; nothing left to write.
      if (outcome.type === 'done') return action.awaitChange();
      return await settle(env, exec, outcome, PHASE_DELETE_FAILED);
    }

    throw new ExecutionFatalError('Reconcile', 'UnknownPhase', `unknown execution phase "${exec.status?.phase ?? ''}"`, [ERR_CONFIGURATION_PROBLEM]);
  } catch (err) {
    return handleError(env, exec, err, log);
  }
}

function templatesOf(exec: Execution): readonly DeployItemTemplate[] {
  try {
    return deployItemTemplates(exec.spec);
  } catch (err) {
    if (err instanceof DeployItemsCompressedError) throw new ExecutionFatalError('ReadDeployItems', 'InvalidDeployItemsCompressed', err.message, [ERR_CONFIGURATION_PROBLEM], { cause: err });
    throw err;
  }
}

/** A waiting or failed outcome of Progressing / Deleting, written down. */
async function settle(env: ExecutionEnv, exec: Execution, outcome: Exclude<PhaseOutcome, { type: 'done' }>, failedPhase: typeof PHASE_FAILED | typeof PHASE_DELETE_FAILED): Promise<Action> {
  if (outcome.type === 'failed') {
    await finishFailed(env, exec, failedPhase, failedPhase === PHASE_FAILED ? 'Progressing' : 'Deleting', outcome.reason, outcome.message, outcome.codes);
    return action.awaitChange();
  }
  // Say what we wait for when the picture changed (items triggered, a new reason); not on every
  // deploy item event, which would cost a status write per item.
  const current = exec.status?.conditions?.find((c) => c.type === 'ReconcileDeployItems');
  if (outcome.triggered > 0 || current?.reason !== outcome.reason || exec.status?.lastError !== undefined) {
    const now = env.now();
    await writeExecutionStatus(env, exec, (st) => {
      setDeployItemsCondition(st, 'Progressing', outcome.reason, outcome.message, [], now);
      delete st.lastError;
    });
  }
  return action.awaitChange();
}

async function finishFailed(env: ExecutionEnv, exec: Execution, phase: typeof PHASE_FAILED | typeof PHASE_DELETE_FAILED, operation: string, reason: string, message: string, codes: ErrorCode[]): Promise<void> {
  const now = env.now();
  await writeExecutionStatus(env, exec, (st) => {
    setLastError(st, operation, reason, message, codes, now);
    setDeployItemsCondition(st, 'False', reason, message, codes, now);
    setPhase(st, phase, now);
  });
  void env.recorder.warning(exec, reason, message);
}

async function handleError(env: ExecutionEnv, exec: Execution, err: unknown, log: Logger): Promise<Action> {
  const deleting = isDeletionPhase(exec.status?.phase);
  if (err instanceof ExecutionFatalError) {
    await finishFailed(env, exec, deleting ? PHASE_DELETE_FAILED : PHASE_FAILED, err.operation, err.reason, err.message, err.codes);
    return action.awaitChange();
  }
  // A conflict means our view is stale: retry from a fresh read without noise in lastError.
  if (!(err instanceof ConflictError) && !(err instanceof StatusConflictError)) {
    const operation = err instanceof ExecutionStepError ? err.operation : (exec.status?.phase ?? 'Reconcile');
    const reason = err instanceof ExecutionStepError ? err.reason : 'Error';
    try {
      await writeExecutionStatus(env, exec, (st) => setLastError(st, operation, reason, errorMessage(err), [], env.now()));
    } catch (writeErr) {
      log.debug({ err: writeErr }, 'could not record lastError');
    }
  }
  throw err;
}
