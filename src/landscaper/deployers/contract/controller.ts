// The deployer library's controller (upstream pkg/deployer/lib/controller.go), one per deploy item type: it acts
// only on items of its type whose job is unfinished (jobID != jobIDFinished) and runs their job through the
// library's phases (./phase-machine.ts); a finished item waits for its continuous reconcile, if it has one. A
// recoverable error is thrown out of the reconcile, so the controller counts it and retries it with its work
// queue's backoff (errorBackoff), never later than the job's progressing deadline (upstream retries every 5 s
// until the timeout).
import { randomUUID } from 'node:crypto';
import type { KubeClient } from '../../../client/client.ts';
import type { Action, Controller, Manager, ReconcileContext } from '../../../runtime/index.ts';
import { action, defaultControllerRateLimiter, runPhases } from '../../../runtime/index.ts';
import { OPERATION_ANNOTATION, OPERATION_TEST_RECONCILE } from '../../api/constants.ts';
import type { Context } from '../../api/context.ts';
import type { DeployerInformation, DeployItem } from '../../api/deploy-item.ts';
import { continuousReconcile } from './continuous-reconcile.ts';
import type { Deployer } from './deployer.ts';
import { jobStatusWriter } from './job-writer.ts';
import { startOwnJob } from './own-job.ts';
import type { Library, Run } from './library.ts';
import { deployerMachine, type DeployerMachine } from './phase-machine.ts';
import { deployItemTypeIs, jobRelevantChange } from './predicates.ts';
import { contextsResource, deployItemsResource } from '../../api/resources.ts';
import { untilDeadlineMs } from './timeout.ts';

export interface DeployerOptions {
  /** Deployer name in status.deployer and events; default `<short type>-deployer`. */
  name?: string;
  version?: string;
  identity?: string;
  /** Items reconciled in parallel; default 4. */
  concurrency?: number;
  /** A missing Context fails the item (upstream requires it); default true. */
  requireContext?: boolean;
  /**
   * The backoff of failed reconciles (the controller's work queue): initialMs × 2^n up to maxMs, never past the
   * job's progressing deadline; default 1 s doubling to 60 s.
   */
  errorBackoff?: { initialMs?: number; maxMs?: number };
}

export interface DeployerHandle {
  /** The deploy item type it handles. */
  readonly type: string;
  readonly controller: Controller<DeployItem, unknown>;
  readonly info: DeployerInformation;
}

/** Registers the library controller for one deployer on the manager (upstream lib.Add). */
export function registerDeployer(mgr: Manager, deployer: Deployer, options: DeployerOptions = {}): DeployerHandle {
  const short = deployer.type.split('/').pop() ?? deployer.type;
  const name = options.name ?? `${short}-deployer`;
  const info: DeployerInformation = { name, version: options.version ?? '0.1.0', identity: options.identity ?? `${name}-${randomUUID().slice(0, 8)}` };
  const lib: Library = {
    deployer,
    info,
    client: mgr.client,
    writer: jobStatusWriter(mgr.client),
    recorder: mgr.recorder(name),
    requireContext: options.requireContext ?? true,
    contexts: mgr.informer<Context>(contextsResource),
  };
  const machine = deployerMachine(lib);
  const controller = mgr.controller<DeployItem, Library>({
    name,
    for: deployItemsResource,
    data: lib,
    concurrency: options.concurrency ?? 4,
    predicates: [deployItemTypeIs(deployer.type), jobRelevantChange()],
    reconcile: (obj, ctx) => reconcileItem(machine, obj, ctx),
    errorPolicy: (obj) => {
      // The deadline's run fails the job (ProgressingTimeout): a longer backoff must not postpone it.
      const atMostMs = untilDeadlineMs(obj);
      return action.requeue(atMostMs === undefined ? {} : { atMostMs });
    },
    queue: { rateLimiter: defaultControllerRateLimiter({ baseDelayMs: options.errorBackoff?.initialMs ?? 1000, maxDelayMs: options.errorBackoff?.maxMs ?? 60_000 }) },
  });
  deployer.bind?.((key) => controller.enqueue(key));
  return { type: deployer.type, controller: controller as unknown as Controller<DeployItem, unknown>, info };
}

async function reconcileItem(machine: DeployerMachine, obj: DeployItem, ctx: ReconcileContext<Library>): Promise<Action> {
  const lib = ctx.data;
  const run: Run = { lib, key: ctx.key, log: ctx.log, signal: ctx.signal, deployerWaits: false };
  try {
    if (obj.spec?.type !== lib.deployer.type) return action.awaitChange();
    if (obj.metadata.annotations?.[OPERATION_ANNOTATION] === OPERATION_TEST_RECONCILE) return await testReconcile(lib.client, obj);
    const status = obj.status ?? {};
    if (!status.jobID) return action.awaitChange();
    if (status.jobID === status.jobIDFinished) return await continuousReconcile(lib, obj, new Date());
    return await runPhases(machine, obj, run);
  } finally {
    // The deployer holds what it watches for a wait; anything else ends the item's wait.
    if (!run.deployerWaits) lib.deployer.release?.(ctx.key);
  }
}

/** test-reconcile (upstream: testing only): the deployer gives the item a job ID of its own. */
async function testReconcile(client: KubeClient, obj: DeployItem): Promise<Action> {
  const annotations = { ...obj.metadata.annotations };
  delete annotations[OPERATION_ANNOTATION];
  const stored = await client.update<DeployItem>(deployItemsResource, { ...obj, metadata: { ...obj.metadata, annotations } });
  await startOwnJob(client, stored, new Date());
  return action.awaitChange();
}
