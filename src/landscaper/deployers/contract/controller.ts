// The deployer library's controller (upstream pkg/deployer/lib/controller.go), one per deploy item type.
//
// Per reconcile: act only on items of our type whose jobID != jobIDFinished. Pickup of a new job (phase empty
// or final) writes Init/InitDelete, observedGeneration, lastReconcileTime, deployer info and initTime, and clears
// the error history. Then: resolve the Target (missing → Failed "NoTargetFound") and the Context, ensure the
// finalizer, and run the deployer. A deployer that waits (readiness, exports, a deletion) says what for: that goes
// into the Waiting condition, and the deployer wakes the item through the controller's queue when it may be
// over. A final phase is written together with jobIDFinished = jobID. Errors with an
// unrecoverable code (ERR_TIMEOUT of the progressing timeout among them) end the job Failed/DeleteFailed; other
// errors keep the phase, land in lastError and retry with a growing backoff (upstream retries every 5 s).
// Deletion uninstalls unless delete-without-uninstall is set, then removes the finalizer.
import { randomUUID } from 'node:crypto';
import type { KubeClient } from '../../../client/client.ts';
import { NotFoundError } from '../../../client/errors.ts';
import { action, type Action } from '../../../runtime/controller/action.ts';
import type { Controller } from '../../../runtime/controller/controller.ts';
import type { ReconcileContext } from '../../../runtime/controller/reconciler.ts';
import type { EventRecorder } from '../../../runtime/event-recorder.ts';
import type { Informer } from '../../../runtime/informer/informer.ts';
import type { Manager } from '../../../runtime/manager.ts';
import { updateStatus } from '../../../runtime/status.ts';
import { lsTime, setLsCondition } from '../../status-helpers.ts';
import {
  CONDITION_WAITING,
  DEFAULT_CONTEXT_NAME,
  DELETE_WITHOUT_UNINSTALL_ANNOTATION,
  ERR_CONFIGURATION_PROBLEM,
  LANDSCAPER_FINALIZER,
  OPERATION_ANNOTATION,
  OPERATION_TEST_RECONCILE,
  PHASE_DELETE_FAILED,
  PHASE_DELETING,
  PHASE_FAILED,
  PHASE_INIT,
  PHASE_INIT_DELETE,
  PHASE_SUCCEEDED,
  isFinalPhase,
} from '../../api/constants.ts';
import type { Context } from '../../api/context.ts';
import type { DeployerInformation, DeployItem, DeployItemStatus } from '../../api/deploy-item.ts';
import type { Target } from '../../api/target.ts';
import type { Deployer, DeployerContext, DeployerResult } from './deployer.ts';
import { DeployerError, InterruptedError, isInterrupted, isUnrecoverable } from './errors.ts';
import { checkInterrupted, jobTakenAway } from './interruption.ts';
import { clearErrors, recordError, toErrorInput } from './lserror.ts';
import { deployItemTypeIs, jobRelevantChange } from './predicates.ts';
import { contextsResource, deployItemsResource } from './resources.ts';
import { getTarget } from './target.ts';
import { checkProgressingTimeout, progressingDeadline } from './timeout.ts';

export interface DeployerOptions {
  /** Deployer name in status.deployer and events; default `<short type>-deployer`. */
  name?: string;
  version?: string;
  identity?: string;
  /** Items reconciled in parallel; default 4. */
  concurrency?: number;
  /** A missing Context fails the item (upstream requires it); default true. */
  requireContext?: boolean;
  /** Backoff of recoverable errors: initialMs × 2^n, capped at maxMs (and at the progressing deadline). */
  errorBackoff?: { initialMs?: number; maxMs?: number };
}

export interface DeployerHandle {
  readonly controller: Controller<DeployItem, unknown>;
  readonly info: DeployerInformation;
}

interface Lib {
  deployer: Deployer;
  info: DeployerInformation;
  recorder: EventRecorder;
  requireContext: boolean;
  backoff: { initialMs: number; maxMs: number };
  failures: Map<string, number>;
  /** Contexts from the manager's cache: one GET per job saved (a miss still asks the server). */
  contexts: Informer<Context>;
}

const now = (): string => lsTime(new Date());


/** Registers the library controller for one deployer on the manager (upstream lib.Add). */
export function registerDeployer(mgr: Manager, deployer: Deployer, options: DeployerOptions = {}): DeployerHandle {
  const short = deployer.type.split('/').pop() ?? deployer.type;
  const name = options.name ?? `${short}-deployer`;
  const info: DeployerInformation = { name, version: options.version ?? '0.1.0', identity: options.identity ?? `${name}-${randomUUID().slice(0, 8)}` };
  const lib: Lib = {
    deployer,
    info,
    recorder: mgr.recorder(name),
    requireContext: options.requireContext ?? true,
    backoff: { initialMs: options.errorBackoff?.initialMs ?? 1000, maxMs: options.errorBackoff?.maxMs ?? 60_000 },
    failures: new Map(),
    contexts: mgr.informer<Context>(contextsResource),
  };
  const controller = mgr.controller<DeployItem, Lib>({
    name,
    for: deployItemsResource,
    data: lib,
    concurrency: options.concurrency ?? 4,
    predicates: [deployItemTypeIs(deployer.type), jobRelevantChange()],
    reconcile: (obj, ctx) => reconcileItem(mgr.client, obj, ctx),
  });
  deployer.bind?.((key) => controller.enqueue(key));
  return { controller: controller as unknown as Controller<DeployItem, unknown>, info };
}

/** One job's mutable state: the working copy and the guarded writer. */
class Job {
  readonly client: KubeClient;
  readonly jobID: string;
  item: DeployItem;
  /** The object as last read or written: the base the status write compares against. */
  private stored: DeployItem;

  constructor(client: KubeClient, item: DeployItem, jobID: string) {
    this.client = client;
    this.item = item;
    this.stored = structuredClone(item);
    this.jobID = jobID;
  }

  get status(): DeployItemStatus {
    this.item.status ??= {};
    return this.item.status;
  }

  /** Writes the working status unless the job was taken away (interrupt, newer job): then InterruptedError. */
  async write(signal?: AbortSignal): Promise<void> {
    const desired = structuredClone(this.status);
    let first = true;
    const stored = await updateStatus(this.client, deployItemsResource, { ...this.stored, metadata: this.item.metadata }, (draft) => {
      // The first attempt runs on our own copy; a retry after a conflict sees the server's state.
      if (!first && jobTakenAway(draft, this.jobID)) throw new InterruptedError(`job ${this.jobID} was taken away while writing the status`);
      first = false;
      draft.status = structuredClone(desired);
    }, signal ? { signal } : {});
    this.stored = stored;
    this.item.metadata = stored.metadata;
  }
}

async function reconcileItem(client: KubeClient, obj: DeployItem, ctx: ReconcileContext<Lib>): Promise<Action> {
  let waiting = false;
  try {
    const result = await reconcileJob(client, obj, ctx);
    waiting = result.waiting;
    return result.action;
  } finally {
    if (!waiting) ctx.data.deployer.release?.(ctx.key);
  }
}

async function reconcileJob(client: KubeClient, obj: DeployItem, ctx: ReconcileContext<Lib>): Promise<{ action: Action; waiting: boolean }> {
  const done = (a: Action): { action: Action; waiting: boolean } => ({ action: a, waiting: false });
  const lib = ctx.data;
  if (obj.spec?.type !== lib.deployer.type) return done(action.awaitChange());
  if (obj.metadata.annotations?.[OPERATION_ANNOTATION] === OPERATION_TEST_RECONCILE) return done(await testReconcile(client, obj));
  const status = obj.status ?? {};
  if (!status.jobID || status.jobID === status.jobIDFinished) {
    lib.failures.delete(ctx.key);
    return done(action.awaitChange());
  }
  const job = new Job(client, obj, status.jobID);
  const deleting = obj.metadata.deletionTimestamp !== undefined;
  try {
    if (!obj.status?.phase || isFinalPhase(obj.status.phase)) {
      if (await pickup(job, lib, deleting, ctx.signal)) return done(action.awaitChange());
    }
    checkTimeout(job, deleting ? 'deployer: delete start' : 'deployer: reconcile start');
    const result = deleting ? await runDelete(job, lib, ctx) : await runReconcile(job, lib, ctx);
    lib.failures.delete(ctx.key);
    if (result === 'gone') return done(action.awaitChange());
    setWaiting(job.status, result?.waitingFor);
    if (isFinalPhase(job.status.phase)) {
      finish(job);
      await job.write(ctx.signal);
      return done(action.awaitChange());
    }
    await job.write(ctx.signal);
    return { action: next(job, result?.requeueAfterMs), waiting: result?.waitingFor !== undefined };
  } catch (err) {
    return done(await handleError(job, lib, ctx, err, deleting));
  }
}

function setWaiting(status: DeployItemStatus, waitingFor: string | undefined): void {
  if (waitingFor !== undefined) {
    status.conditions ??= [];
    setLsCondition(status.conditions, CONDITION_WAITING, 'True', 'Waiting', waitingFor);
  } else if (status.conditions?.some((c) => c.type === CONDITION_WAITING && c.status === 'True')) {
    setLsCondition(status.conditions, CONDITION_WAITING, 'False', 'NotWaiting', '');
  }
}

/** The progressing timeout; its error also says what the deployer was still waiting for. */
function checkTimeout(job: Job, checkpoint: string): void {
  try {
    checkProgressingTimeout(job.item, checkpoint);
  } catch (err) {
    const waiting = job.status.conditions?.find((c) => c.type === CONDITION_WAITING && c.status === 'True');
    if (!(err instanceof DeployerError) || !waiting) throw err;
    throw new DeployerError(err.operation, err.reason, `${err.message}; still ${waiting.message}`, err.codes, { cause: err });
  }
}

/** Starts a new job. Returns true when the job is already done (updateOnChangeOnly with nothing changed). */
async function pickup(job: Job, lib: Lib, deleting: boolean, signal: AbortSignal): Promise<boolean> {
  const s = job.status;
  const ts = now();
  const unchanged = !deleting && job.item.spec.updateOnChangeOnly === true && s.phase === PHASE_SUCCEEDED && s.observedGeneration === job.item.metadata.generation;
  s.phase = deleting ? PHASE_INIT_DELETE : PHASE_INIT;
  s.observedGeneration = job.item.metadata.generation ?? 0;
  s.lastReconcileTime = ts;
  s.deployer = lib.info;
  s.transitionTimes = { ...s.transitionTimes, initTime: ts };
  delete s.transitionTimes.finishedTime;
  clearErrors(s);
  if (unchanged) {
    // upstream lib: the item did not change since its last success, so the new job is done at once.
    s.phase = PHASE_SUCCEEDED;
    finish(job);
  }
  await job.write(signal);
  return unchanged;
}

function finish(job: Job): void {
  job.status.jobIDFinished = job.jobID;
  job.status.transitionTimes = { ...job.status.transitionTimes, finishedTime: now() };
}

function deployerContext(job: Job, lib: Lib, ctx: ReconcileContext<Lib>, target: Target | undefined, lsContext: Context | undefined): DeployerContext {
  return {
    client: job.client,
    get item() {
      return job.item;
    },
    target,
    lsContext,
    key: ctx.key,
    jobID: job.jobID,
    log: ctx.log,
    signal: ctx.signal,
    recorder: lib.recorder,
    writeStatus: () => job.write(ctx.signal),
    checkpoint: async (name) => {
      checkTimeout(job, name);
      await checkInterrupted(job.client, job.item, job.jobID, ctx.signal);
    },
  };
}

async function getContext(client: KubeClient, item: DeployItem, lib: Lib): Promise<Context | undefined> {
  const name = item.spec.context || DEFAULT_CONTEXT_NAME;
  const namespace = item.metadata.namespace ?? '';
  const cached = lib.contexts.hasSynced() ? lib.contexts.store.get(`${namespace}/${name}`) : undefined;
  if (cached) return cached;
  try {
    return await client.get<Context>(contextsResource, name, { namespace });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    if (!lib.requireContext) return undefined;
    // Upstream requeues forever here (issue #875); a missing Context is a configuration problem the user must see.
    throw new DeployerError('Reconcile', 'ContextNotFound', `context ${namespace}/${name} of deploy item ${namespace}/${item.metadata.name} not found`, [ERR_CONFIGURATION_PROBLEM], { cause: err });
  }
}

async function runReconcile(job: Job, lib: Lib, ctx: ReconcileContext<Lib>): Promise<DeployerResult | void> {
  const target = await getTarget(job.client, job.item, ctx.signal);
  const lsContext = await getContext(job.client, job.item, lib);
  await ensureFinalizer(job);
  const config = job.item.spec.config;
  if (config === undefined || config === null || (typeof config === 'object' && Object.keys(config).length === 0)) {
    throw new DeployerError('Reconcile', 'MissingConfiguration', `deploy item ${job.item.metadata.namespace}/${job.item.metadata.name} has no spec.config`, [ERR_CONFIGURATION_PROBLEM]);
  }
  return lib.deployer.reconcile(deployerContext(job, lib, ctx, target, lsContext));
}

async function runDelete(job: Job, lib: Lib, ctx: ReconcileContext<Lib>): Promise<'gone' | DeployerResult> {
  const item = job.item;
  if (!(item.metadata.finalizers ?? []).includes(LANDSCAPER_FINALIZER)) return 'gone';
  if (item.metadata.annotations?.[DELETE_WITHOUT_UNINSTALL_ANNOTATION] === 'true') {
    ctx.log.info('deleting deploy item without uninstall');
  } else {
    const target = await getTarget(job.client, item, ctx.signal).catch((err: unknown) => {
      if (err instanceof DeployerError) {
        throw new DeployerError(err.operation, err.reason, `${err.message}; set the annotation ${DELETE_WITHOUT_UNINSTALL_ANNOTATION}: "true" to delete without uninstalling`, err.codes, { cause: err });
      }
      throw err;
    });
    const lsContext = await getContext(job.client, item, lib);
    if (job.status.phase !== PHASE_DELETING) {
      job.status.phase = PHASE_DELETING;
      await job.write(ctx.signal);
    }
    const result = await lib.deployer.delete(deployerContext(job, lib, ctx, target, lsContext));
    if (result?.waitingFor !== undefined) return result;
  }
  await removeFinalizer(job);
  return 'gone';
}

async function ensureFinalizer(job: Job): Promise<void> {
  const finalizers = job.item.metadata.finalizers ?? [];
  if (finalizers.includes(LANDSCAPER_FINALIZER)) return;
  const ops = finalizers.length === 0
    ? [{ op: 'test' as const, path: '/metadata/resourceVersion', value: job.item.metadata.resourceVersion }, { op: 'add' as const, path: '/metadata/finalizers', value: [LANDSCAPER_FINALIZER] }]
    : [{ op: 'test' as const, path: '/metadata/finalizers', value: finalizers }, { op: 'add' as const, path: '/metadata/finalizers/-', value: LANDSCAPER_FINALIZER }];
  const stored = await job.client.patch<DeployItem>(deployItemsResource, job.item.metadata.name ?? '', ops, { type: 'json', namespace: job.item.metadata.namespace ?? '' });
  job.item.metadata = stored.metadata;
}

async function removeFinalizer(job: Job): Promise<void> {
  const name = job.item.metadata.name ?? '';
  const namespace = job.item.metadata.namespace ?? '';
  // Re-read: the deployer's status writes moved the resourceVersion and others may have changed finalizers.
  let current: DeployItem;
  try {
    current = await job.client.get<DeployItem>(deployItemsResource, name, { namespace });
  } catch (err) {
    if (err instanceof NotFoundError) return;
    throw err;
  }
  const index = (current.metadata.finalizers ?? []).indexOf(LANDSCAPER_FINALIZER);
  if (index < 0) return;
  const path = `/metadata/finalizers/${index}`;
  try {
    await job.client.patch(deployItemsResource, name, [{ op: 'test', path, value: LANDSCAPER_FINALIZER }, { op: 'remove', path }], { type: 'json', namespace });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}

function next(job: Job, requeueAfterMs: number | undefined): Action {
  const deadline = progressingDeadline(job.item);
  const untilDeadline = deadline === undefined ? undefined : Math.max(0, deadline - Date.now()) + 10;
  const delays = [requeueAfterMs, untilDeadline].filter((d): d is number => d !== undefined);
  // Without a deadline or a wish to poll, the item waits for the next job (e.g. the mock's `phase: Progressing`).
  return delays.length === 0 ? action.awaitChange() : action.requeueAfter(Math.min(...delays));
}

async function handleError(job: Job, lib: Lib, ctx: ReconcileContext<Lib>, err: unknown, deleting: boolean): Promise<Action> {
  if (isInterrupted(err)) {
    ctx.log.info({ reason: err instanceof Error ? err.message : String(err) }, 'job interrupted; stopping');
    lib.failures.delete(ctx.key);
    return action.awaitChange();
  }
  const input = toErrorInput(err, deleting ? 'Delete' : 'Reconcile');
  setWaiting(job.status, undefined);
  recordError(job.status, input, new Date());
  void lib.recorder.warning(job.item, input.reason, input.message);
  if (isUnrecoverable(err)) {
    ctx.log.info({ reason: input.reason, message: input.message }, 'deploy item failed');
    job.status.phase = deleting ? PHASE_DELETE_FAILED : PHASE_FAILED;
    finish(job);
    lib.failures.delete(ctx.key);
    await writeOrStop(job, ctx);
    return action.awaitChange();
  }
  ctx.log.warn({ reason: input.reason, message: input.message }, 'deploy item reconcile failed; retrying');
  const failures = (lib.failures.get(ctx.key) ?? 0) + 1;
  lib.failures.set(ctx.key, failures);
  await writeOrStop(job, ctx);
  const delay = Math.min(lib.backoff.maxMs, lib.backoff.initialMs * 2 ** (failures - 1));
  return next(job, delay);
}

async function writeOrStop(job: Job, ctx: ReconcileContext<Lib>): Promise<void> {
  try {
    await job.write(ctx.signal);
  } catch (err) {
    if (isInterrupted(err) || err instanceof NotFoundError) return;
    throw err;
  }
}

/** test-reconcile (upstream: testing only): the deployer gives the item a job ID of its own. */
async function testReconcile(client: KubeClient, obj: DeployItem): Promise<Action> {
  const annotations = { ...obj.metadata.annotations };
  delete annotations[OPERATION_ANNOTATION];
  const stored = await client.update<DeployItem>(deployItemsResource, { ...obj, metadata: { ...obj.metadata, annotations } });
  await updateStatus(client, deployItemsResource, stored, (draft) => {
    draft.status = { ...draft.status, jobID: randomUUID(), jobIDGenerationTime: now() };
  });
  return action.awaitChange();
}
