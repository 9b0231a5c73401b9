// The Execution controller (pkg/landscaper/controllers/execution): the gates before a job (finalizer,
// interrupt, a new job ID), then the phase machine (./phase-machine.ts, one handler per phase in ./phases).
// It waits on events: owned DeployItems wake their execution, nothing polls. Normal errors are retried
// with the work queue's growing backoff; fatal ones end the job.
//
// Where each step of the execution controller's spec (landscaper-execution-controller.md) lives:
// | spec step                                          | file (function)                                            |
// |----------------------------------------------------|------------------------------------------------------------|
// | creation: waits for a job ID from its installation | reconcileExecution below (no new job ID → nothing to do)   |
// | Init: orphans deleted, deploy items created/updated | phases/init.ts → materialize.ts (desiredDeployItem), validation.ts |
// | Progressing: classes A–E                           | classification.ts (classifyForReconcile)                   |
// | Progressing: trigger D, fail on B, stuck check     | phases/progressing.ts → deploy-item-writes.ts (triggerDeployItem) |
// | Completing: collect exports, Succeeded             | phases/completing.ts → exports.ts (collectExports)         |
// | errors: normal and fatal                           | ../ls-error.ts (classify), phase-machine.ts                |
// | another job: a new job ID restarts at Init         | phase-machine.ts (status.start), runtime/phases/phase-machine.ts |
// | deleting: InitDelete once the job ID arrives       | phase-machine.ts (status.start picks InitDelete)           |
// | InitDelete: delete the deploy items                | phases/init-delete.ts → deploy-item-writes.ts (deleteDeployItem) |
// | Deleting: reverse-order triggering, B/C/D/E        | phases/deleting.ts → deletion.ts (driveDeletion), classification.ts (classifyForDelete) |
// | interrupt                                          | interrupt.ts (handleInterrupt), called below                |
// | delete without uninstall                           | phases/init-delete.ts (markDeleteWithoutUninstall); deletion.ts removes the items' finalizers |
import type { Action, Controller, Manager, Predicate, ReconcileContext } from '../../runtime/index.ts';
import { action, addFinalizer, runPhases } from '../../runtime/index.ts';
import { LANDSCAPER_FINALIZER } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { Execution } from '../api/execution.ts';
import { MANAGED_BY_INDEX, managedByIndexValue, type ExecutionEnv } from './env.ts';
import { handleInterrupt, hasInterrupt } from './interrupt.ts';
import { executionMachine, type ExecutionMachine } from './phase-machine.ts';
import { deployItemsResource, executionsResource } from '../api/resources.ts';

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

/** What every reconcile of the controller works with. */
export interface ExecutionController {
  env: ExecutionEnv;
  machine: ExecutionMachine;
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

export function registerExecutionController(mgr: Manager, options: ExecutionControllerOptions = {}): Controller<Execution, ExecutionController> {
  const deployItemInformer = mgr.informer<DeployItem>(deployItemsResource);
  if (!deployItemInformer.store.indexNames().includes(MANAGED_BY_INDEX)) deployItemInformer.addIndexer(MANAGED_BY_INDEX, managedByIndexValue);
  const deployItemWrites = mgr.readYourWrites<DeployItem>(deployItemsResource);
  const executionWrites = mgr.readYourWrites<Execution>(executionsResource);
  const name = options.name ?? 'landscaper-execution';
  const env: ExecutionEnv = {
    client: mgr.client,
    deployItemInformer,
    deployItemWrites,
    deployItemStatus: mgr.statusWriter(deployItemsResource, { readYourWrites: deployItemWrites }),
    executionWrites,
    recorder: mgr.recorder(options.component ?? 'landscaper-execution-controller'),
    now: options.now ?? (() => new Date()),
    writeConcurrency: Math.max(1, options.writeConcurrency ?? 16),
    progressMemos: new Map(),
  };
  // The execution reads its own status writes before the cache has them.
  const writer = mgr.statusWriter(executionsResource, { readYourWrites: executionWrites });
  const controller = mgr.controller<Execution, ExecutionController>({
    name,
    for: executionsResource,
    data: { env, machine: executionMachine(env, writer) },
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

export async function reconcileExecution(cached: Execution, ctx: ReconcileContext<ExecutionController>): Promise<Action> {
  const { env, machine } = ctx.data;
  let exec = env.executionWrites.resolve(cached);
  if (exec.metadata.deletionTimestamp === undefined) {
    const stored = await addFinalizer(env.client, executionsResource, exec, LANDSCAPER_FINALIZER);
    if (stored !== exec) env.executionWrites.record(exec.metadata.resourceVersion, stored);
    exec = stored;
  }
  if (hasInterrupt(exec)) {
    await handleInterrupt(env, exec);
    return action.awaitChange();
  }
  // The execution never starts work itself: it waits for its installation to hand it a new job ID.
  if ((exec.status?.jobID ?? '') === (exec.status?.jobIDFinished ?? '')) return action.awaitChange();
  return runPhases(machine, exec, { env, written: new Map() });
}
