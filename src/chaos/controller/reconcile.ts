// The Disruption reconciler (upstream's controllers/disruption_controller.go Reconcile), event-driven: chaos pods,
// target pods and nodes wake it, so it requeues only at its own deadlines (expiry, GC, the createPods trigger,
// the finalizer delay, the deletion timeout) and backs off on errors. Order of a pass: chaos pods being deleted
// (§2.8) → deletion (clean, cleanedAt, finalizer) or: delete-only, finalizer, expiry and GC, trigger, target
// selection, chaos pods, injection status.
import { podsResource } from '../../apimachinery/builtin-resources.ts';
import { objectKey } from '../../apimachinery/object.ts';
import { NotFoundError } from '../../client/errors.ts';
import { action, type Action } from '../../runtime/controller/action.ts';
import type { ReconcileContext } from '../../runtime/controller/reconciler.ts';
import { TerminalError } from '../../runtime/controller/terminal-error.ts';
import { forEachLimited } from '../../runtime/concurrency.ts';
import { addFinalizer, hasFinalizer, removeFinalizer } from '../../runtime/finalizer.ts';
import { CHAOS_POD_FINALIZER, DISRUPTION_FINALIZER, DISRUPTION_KIND_LABEL, DISRUPTION_NAME_LABEL, DISRUPTION_NAMESPACE_LABEL, TARGET_LABEL, type DisruptionKindName, type InjectionStatus } from '../api/constants.ts';
import { disruptionsResource } from '../api/resources.ts';
import type { Disruption, DisruptionStatus, TargetInjection } from '../api/types.ts';
import { specKinds } from '../validation/spec.ts';
import { buildChaosPod } from './chaos-pod.ts';
import { EVENT_CHAOS_POD_CREATED, EVENT_CLEANED, EVENT_CREATE_FAILED, EVENT_DISRUPTED, EVENT_DURATION_OVER, EVENT_EMPTY_DISRUPTION, EVENT_FINISHED, EVENT_GC_OVER, EVENT_INVALID_LABEL_SELECTOR, EVENT_INVALID_SPEC, EVENT_NO_MORE_TARGETS, EVENT_NO_TARGETS_FOUND, EVENT_STUCK_ON_REMOVAL } from './events.ts';
import { nextInjection, terminationStatus } from './injection-status.ts';
import type { Node, Pod } from '../../apimachinery/api/index.ts';
import type { DisruptionControllerData } from './options.ts';
import { isEligibleNode, isEligiblePod, isTargetAvailable, ownedBy, selectTargets, targetSelector, type EligibilityContext } from './selection.ts';
import { CHAOS_POD_BY_DISRUPTION, chaosPodsOnTarget, chaosTarget, ContainerNotFoundError, ContainerNotStartedError, isNodeLevel, matchingTargets, targetIsHealthy, targetObject } from './targets.ts';
import { decideTermination } from './termination.ts';
import { remainingMs, timeToCreatePodsMs } from './timing.ts';

/** The labels that make a chaos pod this disruption's. */
function chaosPodSelector(d: Disruption): string {
  return `${DISRUPTION_NAME_LABEL}=${d.metadata.name ?? ''},${DISRUPTION_NAMESPACE_LABEL}=${d.metadata.namespace ?? ''}`;
}

/** Chaos pod creates and deletes one disruption has in flight at once. */
const WRITE_CONCURRENCY = 16;

type Ctx = ReconcileContext<DisruptionControllerData>;

/** How far ahead of the createPods trigger the controller starts (upstream's 5 s). */
const CREATE_PODS_LEAD_MS = 5000;
/** Past expiry, the next look comes this long after the end, so the chaos pods' own deadline has passed. */
const EXPIRY_MARGIN_MS = 1000;

/** A chaos pod whose deletion failed in a way that may have left its target disrupted. */
interface StuckPod {
  pod: Pod;
  target: string;
  kind: string;
}

export function disruptionKey(d: Disruption): string {
  return objectKey(d.metadata.namespace, d.metadata.name ?? '');
}

export function chaosPodsOf(x: DisruptionControllerData, d: Disruption): Pod[] {
  const key = disruptionKey(d);
  const cached = x.pods.byIndex(CHAOS_POD_BY_DISRUPTION, key).filter((p) => p.metadata.namespace === x.config.chaosNamespace);
  return x.expectations.merge(key, cached, x.now().getTime());
}

function kindsOf(d: Disruption): DisruptionKindName[] {
  return specKinds(d.spec).map(([kind]) => kind);
}

export async function reconcileDisruption(disruption: Disruption, ctx: Ctx): Promise<Action> {
  const x = ctx.data;
  x.metrics.reconcile.inc();
  const stopTimer = x.metrics.reconcileDuration.startTimer();
  try {
    const fresh = x.writes.resolve(disruption);
    let d = fresh === disruption ? disruption : structuredClone(fresh);
    d.status ??= { selectedTargetsCount: 0, ignoredTargetsCount: 0, injectedTargetsCount: 0, desiredTargetsCount: 0 };
    const chaosPods = chaosPodsOf(x, d);
    const stuck = await handleChaosPodsTermination(x, d, chaosPods, ctx);
    if (d.metadata.deletionTimestamp) {
      if (!hasFinalizer(d, DISRUPTION_FINALIZER)) return action.awaitChange();
      return await reconcileDeletion(x, d, chaosPods, stuck, ctx);
    }
    if (d.spec.count === 100) void x.recorder.warning(d, EVENT_INVALID_SPEC, 'the count is the integer 100: did you mean "100%"?');
    if (x.config.deleteOnly) {
      await x.client.delete(disruptionsResource, d.metadata.name ?? '', { namespace: d.metadata.namespace ?? '' }).catch(ignoreNotFound);
      return action.awaitChange();
    }
    const stored = await addFinalizer(x.client, disruptionsResource, d, DISRUPTION_FINALIZER);
    if (stored !== d) x.writes.record(d.metadata.resourceVersion, stored);
    d = stored;
    return await reconcileLive(x, d, chaosPods, stuck, ctx);
  } finally {
    stopTimer();
  }
}

function ignoreNotFound(err: unknown): undefined {
  if (err instanceof NotFoundError) return undefined;
  throw err;
}

/** §2.8, on every pass: drop the finalizer of chaos pods whose end is safe; report the stuck ones. */
async function handleChaosPodsTermination(x: DisruptionControllerData, d: Disruption, chaosPods: readonly Pod[], ctx: Ctx): Promise<StuckPod[]> {
  const stuck: StuckPod[] = [];
  for (const pod of chaosPods) {
    const kind = pod.metadata.labels?.[DISRUPTION_KIND_LABEL] ?? '';
    const hasPodFinalizer = hasFinalizer(pod, CHAOS_POD_FINALIZER);
    if (!hasPodFinalizer || !pod.metadata.deletionTimestamp) continue;
    const decision = decideTermination({ pod, hasFinalizer: hasPodFinalizer, targetHealthy: targetIsHealthy(x, d, pod), kind });
    if (decision === 'removeFinalizer') {
      ctx.log.info({ pod: pod.metadata.name, phase: pod.status?.phase }, 'removing the finalizer of a terminated chaos pod');
      await removeFinalizer(x.client, podsResource, pod, CHAOS_POD_FINALIZER);
    } else if (decision === 'stuck') {
      stuck.push({ pod, target: pod.metadata.labels?.[TARGET_LABEL] ?? '', kind });
    }
  }
  return stuck;
}

/** Marks the stuck chaos pods in the status draft and says so in an Event naming each. */
function applyStuck(x: DisruptionControllerData, d: Disruption, status: DisruptionStatus, stuck: readonly StuckPod[], now: Date): void {
  for (const s of stuck) {
    status.isStuckOnRemoval = true;
    const kinds = (status.targetInjections ??= {})[s.target] ?? {};
    status.targetInjections[s.target] = kinds;
    if (kinds[s.kind]?.injectionStatus !== 'IsStuckOnRemoval') {
      kinds[s.kind] = { injectorPodName: s.pod.metadata.name ?? '', injectionStatus: 'IsStuckOnRemoval', since: now.toISOString() };
    }
    void x.recorder.warning(d, EVENT_STUCK_ON_REMOVAL, `chaos pod ${s.pod.metadata.name ?? ''} failed and may not have cleaned target ${s.target} (${s.kind}): it keeps its finalizer; check its logs`);
  }
}

async function reconcileDeletion(x: DisruptionControllerData, d: Disruption, chaosPods: readonly Pod[], stuck: readonly StuckPod[], ctx: Ctx): Promise<Action> {
  const now = x.now();
  const status: DisruptionStatus = structuredClone(d.status ?? ({} as DisruptionStatus));
  applyStuck(x, d, status, stuck, now);
  const timeoutAt = Date.parse(d.metadata.deletionTimestamp ?? '') + x.config.disruptionDeletionTimeoutMs;
  if (now.getTime() >= timeoutAt && chaosPods.length > 0 && !status.isStuckOnRemoval) {
    status.isStuckOnRemoval = true;
    void x.recorder.warning(d, EVENT_STUCK_ON_REMOVAL, `chaos pods still exist ${Math.round(x.config.disruptionDeletionTimeoutMs / 1000)}s after the deletion: ${chaosPods.map((p) => p.metadata.name).join(', ')}`);
  }
  if (status.cleanedAt) {
    await writeStatus(x, d, status);
    const dueAt = Date.parse(status.cleanedAt) + x.config.finalizerDeletionDelayMs;
    if (now.getTime() < dueAt) return action.requeueAfter(dueAt - now.getTime());
    void x.recorder.normal(d, EVENT_FINISHED, 'the disruption is finished: its chaos pods are gone');
    await removeFinalizer(x.client, disruptionsResource, d, DISRUPTION_FINALIZER);
    x.expectations.forget(disruptionKey(d));
    x.metrics.cleanupDuration.observe(Math.max(0, now.getTime() - Date.parse(d.metadata.deletionTimestamp ?? '')) / 1000);
    x.metrics.completedDuration.observe(Math.max(0, now.getTime() - Date.parse(d.metadata.creationTimestamp ?? '')) / 1000);
    for (const kind of kindsOf(d)) x.metrics.disruptionsCount.inc({ kind });
    return action.awaitChange();
  }
  // cleanDisruption: every chaos pod goes (the kubelet signals the injector, which cleans and exits).
  // One request for them all (upstream deletes them one by one): the disruption's chaos pods by their labels.
  if (chaosPods.some((pod) => !pod.metadata.deletionTimestamp)) {
    ctx.log.info({ pods: chaosPods.length }, 'deleting the chaos pods');
    await x.client.deleteCollection(podsResource, { namespace: x.config.chaosNamespace, labelSelector: chaosPodSelector(d) });
  }
  if (chaosPods.length === 0) {
    status.cleanedAt = now.toISOString();
    await writeStatus(x, d, status);
    void x.recorder.normal(d, EVENT_CLEANED, 'every chaos pod of the disruption is gone');
    return action.requeueAfter(x.config.finalizerDeletionDelayMs);
  }
  await writeStatus(x, d, status);
  // The chaos pods' changes wake us; only the deletion timeout is a deadline of our own.
  return !status.isStuckOnRemoval && timeoutAt > now.getTime() ? action.requeueAfter(timeoutAt - now.getTime()) : action.awaitChange();
}

async function writeStatus(x: DisruptionControllerData, d: Disruption, status: DisruptionStatus): Promise<Disruption> {
  try {
    return await x.status.write(d, (draft) => {
      // On a conflict draft is fresher than what status was computed from: the first cleanedAt and a stuck flag stay.
      const cleanedAt = draft.status?.cleanedAt ?? status.cleanedAt;
      const stuck = draft.status?.isStuckOnRemoval === true || status.isStuckOnRemoval === true;
      draft.status = { ...status, ...(cleanedAt ? { cleanedAt } : {}), ...(stuck ? { isStuckOnRemoval: true } : {}) };
    });
  } catch (err) {
    return ignoreNotFound(err) ?? d;
  }
}

async function reconcileLive(x: DisruptionControllerData, d: Disruption, chaosPods: Pod[], stuck: readonly StuckPod[], ctx: Ctx): Promise<Action> {
  const now = x.now();
  const nowMs = now.getTime();
  const status: DisruptionStatus = structuredClone(d.status ?? ({} as DisruptionStatus));
  applyStuck(x, d, status, stuck, now);
  const kinds = kindsOf(d);
  const remaining = remainingMs(d, nowMs);
  const gcDelay = x.config.expiredDisruptionGCDelayMs;

  if (gcDelay >= 0 && remaining <= -gcDelay) {
    void x.recorder.normal(d, EVENT_GC_OVER, `the disruption expired ${Math.round(gcDelay / 1000)}s ago: deleting it`);
    await x.client.delete(disruptionsResource, d.metadata.name ?? '', { namespace: d.metadata.namespace ?? '' }).catch(ignoreNotFound);
    return action.awaitChange();
  }
  if (remaining <= 0) {
    // Expired: the chaos pods stop themselves at their deadline; they go when the disruption is deleted.
    const before = status.injectionStatus;
    Object.assign(status, injectionFields(d, status, chaosPods, kinds, true, now));
    await writeStatus(x, d, status);
    if (gcDelay < 0) return action.awaitChange();
    if (before !== status.injectionStatus) void x.recorder.normal(d, EVENT_DURATION_OVER, `the disruption's duration is over; it is deleted in ${Math.round(gcDelay / 1000)}s`);
    return action.requeueAfter(Math.max(0, gcDelay + remaining));
  }
  if (kinds.length === 0) {
    // Admission refuses these; one that slipped in (no webhook) has nothing to inject.
    void x.recorder.warning(d, EVENT_EMPTY_DISRUPTION, 'the disruption sets no disruption kind: nothing to inject');
    return action.awaitChange();
  }
  const createAt = timeToCreatePodsMs(d);
  if (createAt - nowMs > CREATE_PODS_LEAD_MS) return action.requeueAfter(createAt - CREATE_PODS_LEAD_MS - nowMs);

  const lockKey = isNodeLevel(d) ? 'nodes' : `namespace/${d.metadata.namespace ?? ''}`;
  const { selection, live } = await x.selection.run(lockKey, async () => {
    const selection = select(x, d, status, kinds, now);
    return { selection, live: await startInjection(x, d, status, chaosPods, kinds, now, ctx) };
  });
  Object.assign(status, injectionFields(d, status, live, kinds, false, now));
  status.selectedTargetsCount = Object.keys(status.targetInjections ?? {}).length;
  status.ignoredTargetsCount = Math.max(0, selection.matching - status.selectedTargetsCount);
  await writeStatus(x, d, status);
  return action.requeueAfter(remaining + EXPIRY_MARGIN_MS);
}

function injectionFields(d: Disruption, status: DisruptionStatus, chaosPods: readonly Pod[], kinds: readonly string[], expired: boolean, now: Date): Partial<DisruptionStatus> {
  const result = nextInjection({
    status: status.injectionStatus as InjectionStatus | undefined,
    termination: terminationStatus({ expiredOrDeleting: expired || d.metadata.deletionTimestamp !== undefined, status: status.injectionStatus as InjectionStatus | undefined, chaosPods }),
    chaosPods,
    desiredTargetsCount: status.desiredTargetsCount ?? 0,
    targetInjections: status.targetInjections ?? {},
    kindCount: kinds.length,
    now,
  });
  return { injectionStatus: result.status, targetInjections: result.targetInjections, injectedTargetsCount: result.injectedTargetsCount };
}

/** §2.4: updates status.targetInjections and desiredTargetsCount; returns how many objects matched. */
function select(x: DisruptionControllerData, d: Disruption, status: DisruptionStatus, kinds: readonly DisruptionKindName[], now: Date): { matching: number } {
  let selector;
  try {
    selector = targetSelector(d.spec);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    void x.recorder.warning(d, EVENT_INVALID_LABEL_SELECTOR, message);
    // Nothing to do until the spec changes, which wakes us.
    throw new TerminalError(message, { cause: err });
  }
  const injections = (status.targetInjections ??= {});
  const current = Object.keys(injections);
  const matching = matchingTargets(x, d, selector);
  const safeguardNode = x.config.enableSafeguards && x.config.controllerNodeName ? x.config.controllerNodeName : undefined;
  const context: EligibilityContext = { spec: d.spec, currentTargets: new Set(current), safeguardNode };
  const eligible = matching.filter((o) => (isNodeLevel(d) ? isEligibleNode(o as Node, context) : isEligiblePod(o as Pod, context))).map((o) => o.metadata.name ?? '');
  const unavailable = new Set<string>();
  for (const name of eligible) {
    if (current.includes(name)) continue;
    const others = chaosPodsOnTarget(x, d, name).filter((p) => !ownedBy(p, d.metadata.name ?? '', d.metadata.namespace ?? ''));
    if (!isTargetAvailable(others, d.spec, kinds)) unavailable.add(name);
  }
  const result = selectTargets({
    count: d.spec.count,
    matching: matching.map((o) => o.metadata.name ?? ''),
    eligible,
    current,
    unavailable,
    staticTargeting: d.spec.staticTargeting === true,
    rng: x.rng,
  });
  if (result.noTargetsFound) void x.recorder.warning(d, EVENT_NO_TARGETS_FOUND, `no ${isNodeLevel(d) ? 'node' : 'pod'} matches the selector`);
  if (result.noMoreTargets) void x.recorder.normal(d, EVENT_NO_MORE_TARGETS, 'no more targets can be disrupted: every matching target is gone, not running, or already disrupted');
  for (const name of result.removed) delete injections[name];
  for (const name of result.targets) {
    const perKind = (injections[name] ??= {});
    for (const kind of kinds) perKind[kind] ??= { injectionStatus: 'NotInjected', since: now.toISOString() };
  }
  status.desiredTargetsCount = result.desired;
  return { matching: matching.length };
}

/**
 * §2.5: deletes chaos pods whose target left, creates the missing one of each target × kind. Returns the chaos
 * pods that remain (for the injection status).
 */
async function startInjection(x: DisruptionControllerData, d: Disruption, status: DisruptionStatus, chaosPods: Pod[], kinds: readonly DisruptionKindName[], now: Date, ctx: Ctx): Promise<Pod[]> {
  const injections = status.targetInjections ?? {};
  const live: Pod[] = [];
  const dropped: Pod[] = [];
  for (const pod of chaosPods) {
    const target = pod.metadata.labels?.[TARGET_LABEL] ?? '';
    if (injections[target] !== undefined) live.push(pod);
    else if (!pod.metadata.deletionTimestamp) dropped.push(pod);
  }
  await forEachLimited(dropped, WRITE_CONCURRENCY, async (pod) => {
    ctx.log.info({ pod: pod.metadata.name, target: pod.metadata.labels?.[TARGET_LABEL] }, 'deleting the chaos pod of a target no longer selected');
    await x.client.delete(podsResource, pod.metadata.name ?? '', { namespace: pod.metadata.namespace ?? '' }).catch(ignoreNotFound);
  });
  // Too late to inject anything worth it.
  if (remainingMs(d, now.getTime()) < 1000) return live;
  // maxRuns: how many passes may create chaos pods (upstream counts and checks per target, so with maxRuns 1
  // only the first target of a pass got its pods).
  if (d.spec.maxRuns !== undefined && d.spec.maxRuns !== null && (status.runCount ?? 0) >= d.spec.maxRuns) return live;
  const key = disruptionKey(d);
  let failure: unknown;
  let created = 0;
  // Targets in parallel (bounded), their kinds in order: a burst of targets is as fast as the API allows.
  await forEachLimited(Object.entries(injections), WRITE_CONCURRENCY, async ([target, perKind]) => {
      const missing = kinds.filter((kind) => {
        if (live.some((p) => p.metadata.labels?.[TARGET_LABEL] === target && p.metadata.labels[DISRUPTION_KIND_LABEL] === kind)) return false;
        // A static nodeFailure is never injected twice: the node was already brought down once.
        return !(kind === 'node-failure' && d.spec.staticTargeting && perKind[kind]?.injectionStatus === 'Injected');
      });
      if (missing.length === 0) return;
      const object = targetObject(x, d, target);
      if (!object) return;
      let info;
      try {
        info = chaosTarget(d, object);
      } catch (err) {
        if (err instanceof ContainerNotStartedError) return;
        if (!(err instanceof ContainerNotFoundError)) throw err;
        void x.recorder.warning(d, EVENT_INVALID_SPEC, err.message);
        return;
      }
      if (!info.nodeName) return;
      for (const kind of missing) {
        const pod = buildChaosPod(d, kind, info, { injector: x.config.injector, chaosNamespace: x.config.chaosNamespace, now });
        try {
          const stored = await x.client.create<Pod>(podsResource, pod);
          x.expectations.expect(key, stored, now.getTime());
          live.push(stored);
          created++;
          x.metrics.podsCreated.inc({ status: 'succeed' });
          perKind[kind] = { injectorPodName: stored.metadata.name ?? '', injectionStatus: 'NotInjected', since: now.toISOString() } satisfies TargetInjection;
          void x.recorder.normal(d, EVENT_CHAOS_POD_CREATED, `created chaos pod ${stored.metadata.name ?? ''} (${kind}) for target ${target}`);
          void x.recorder.normal(object, EVENT_DISRUPTED, `chaos pod ${stored.metadata.name ?? ''} of disruption ${d.metadata.name ?? ''} targets this ${isNodeLevel(d) ? 'node' : 'pod'} (${kind})`);
        } catch (err) {
          x.metrics.podsCreated.inc({ status: 'failed' });
          void x.recorder.warning(d, EVENT_CREATE_FAILED, `could not create the ${kind} chaos pod of target ${target}: ${err instanceof Error ? err.message : String(err)}`);
          failure ??= err;
        }
      }
  });
  if (created > 0) status.runCount = (status.runCount ?? 0) + 1;
  if (created > 0) x.metrics.injectDuration.observe(Math.max(0, now.getTime() - Date.parse(d.metadata.creationTimestamp ?? '')) / 1000);
  if (failure !== undefined) {
    // Keep what was created in status before backing off.
    await writeStatus(x, d, status);
    throw failure;
  }
  return live;
}
