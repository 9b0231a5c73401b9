// The Disruption reconciler (upstream's controllers/disruption_controller.go Reconcile), event-driven: chaos pods,
// target pods and nodes wake it, so it requeues only at its own deadlines (expiry, GC, the createPods trigger,
// the finalizer delay, the deletion timeout, a failed chaos pod's replacement) and backs off on errors.
//
// Where each step of the design (upstream's docs/design.md, "Disruption resource lifecycle") lives:
// | step                                          | where                                                                 |
// |-----------------------------------------------|-----------------------------------------------------------------------|
// | injection 1: add a disruption finalizer       | reconcileDisruption, through the runtime's finalizer()                |
// | injection 2: compute spec hash                | recordSpecHash (status.specHash, a `Mutated` Warning on a change);    |
// |                                               | the hash: validation/hash.ts; the update webhook denies the change    |
// |                                               | first (validation/admission.ts), as upstream's does                   |
// | injection 3: select targets                   | select; eligibility and the random pick: selection.ts, targets.ts     |
// | injection 4: create chaos pods                | startInjection; the pod: chaos-pod.ts; failed ones: failed-chaos-pods.ts |
// | injection 5: update injection status          | updateInjection; the state machine: injection-status.ts               |
// | cleanup 1: clean disruptions                  | reconcileDeletion                                                     |
// | cleanup 2: handle chaos pods termination      | handleChaosPodsTermination (every pass); the decision: termination.ts |
// | (not in the design) expiry, GC, triggers      | reconcileLive; the clock: timing.ts                                   |
// | (not in the design) orphaned chaos pods       | orphans.ts                                                            |
//
// Order of a pass: chaos pods being deleted (cleanup 2), then the finalizer decides: deletion (cleanup 1,
// cleanedAt, the finalizer goes after the delay) or the live pass (expiry and GC, spec hash, trigger, failed chaos
// pods, target selection, chaos pods, injection status). Status is written as mutations (status-changes.ts).
import { isDeepStrictEqual } from 'node:util';
import { podsResource } from '../../apimachinery/builtin-resources.ts';
import { objectKey } from '../../apimachinery/object.ts';
import { ignoreNotFound } from '../../client/errors.ts';
import type { Action, CleanupPending, ReconcileContext } from '../../runtime/index.ts';
import {
  action,
  cleanupPending,
  finalizer,
  forEachLimited,
  hasFinalizer,
  removeFinalizerWithRetry,
  TerminalError,
} from '../../runtime/index.ts';
import { CHAOS_POD_FINALIZER, DISRUPTION_FINALIZER, DISRUPTION_KIND_LABEL, DISRUPTION_NAME_LABEL, DISRUPTION_NAMESPACE_LABEL, TARGET_LABEL, type DisruptionKindName, type InjectionStatus } from '../api/constants.ts';
import { disruptionsResource } from '../api/resources.ts';
import type { Disruption, TargetInjection } from '../api/types.ts';
import { specHash } from '../validation/hash.ts';
import { specKinds } from '../validation/spec.ts';
import { buildChaosPod } from './chaos-pod.ts';
import { EVENT_CHAOS_POD_CREATED, EVENT_CLEANED, EVENT_CREATE_FAILED, EVENT_DISRUPTED, EVENT_DURATION_OVER, EVENT_EMPTY_DISRUPTION, EVENT_FINISHED, EVENT_GC_OVER, EVENT_INVALID_LABEL_SELECTOR, EVENT_INVALID_SPEC, EVENT_NO_MORE_TARGETS, EVENT_NO_TARGETS_FOUND, EVENT_SPEC_MUTATED, EVENT_STUCK_ON_REMOVAL } from './events.ts';
import { deleteFailedChaosPods } from './failed-chaos-pods.ts';
import { nextInjection, terminationStatus } from './injection-status.ts';
import type { Node, Pod } from '../../apimachinery/api/index.ts';
import type { DisruptionControllerData } from './options.ts';
import { isEligibleNode, isEligiblePod, isTargetAvailable, ownedBy, selectTargets, targetSelector, type EligibilityContext } from './selection.ts';
import { StatusChanges } from './status-changes.ts';
import { CHAOS_POD_BY_DISRUPTION, chaosPodsOnTarget, chaosTarget, ContainerNotFoundError, ContainerNotStartedError, isNodeLevel, matchingTargets, targetIsHealthy, targetObject } from './targets.ts';
import { decideTermination } from './termination.ts';
import { remainingMs, timeToCreatePodsMs } from './timing.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

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
    const d = x.writes.resolve(disruption);
    const chaosPods = chaosPodsOf(x, d);
    const stuck = await handleChaosPodsTermination(x, d, chaosPods, ctx);
    if (!d.metadata.deletionTimestamp) {
      if (d.spec.count === 100) void x.recorder.warning(d, EVENT_INVALID_SPEC, 'the count is the integer 100: did you mean "100%"?');
      if (x.config.deleteOnly) {
        await ignoreNotFound(x.client.delete(disruptionsResource, d.metadata.name ?? '', { namespace: d.metadata.namespace ?? '' }));
        return action.awaitChange();
      }
    }
    let finished = false;
    const next = await finalizer(
      x.client,
      disruptionsResource,
      DISRUPTION_FINALIZER,
      d,
      {
        apply: (live) => {
          // Just written by finalizer(): later passes read it, not the cache's older copy.
          if (live !== d) x.writes.record(d.metadata.resourceVersion, live);
          return reconcileLive(x, live, chaosPods, stuck, ctx);
        },
        cleanup: async (deleting) => {
          const result = await reconcileDeletion(x, deleting, chaosPods, stuck, ctx);
          finished = !('pending' in result);
          return result;
        },
      },
      // A new disruption's selection and chaos pods are what its user waits for: no round trip before them.
      { applyAfterAdd: true },
    );
    if (finished) recordFinished(x, d);
    return next;
  } finally {
    stopTimer();
  }
}

/** Cleanup step 2, on every pass: drop the finalizer of chaos pods whose end is safe; report the stuck ones. */
async function handleChaosPodsTermination(x: DisruptionControllerData, d: Disruption, chaosPods: readonly Pod[], ctx: Ctx): Promise<StuckPod[]> {
  const stuck: StuckPod[] = [];
  for (const pod of chaosPods) {
    const kind = pod.metadata.labels?.[DISRUPTION_KIND_LABEL] ?? '';
    const hasPodFinalizer = hasFinalizer(pod, CHAOS_POD_FINALIZER);
    if (!hasPodFinalizer || !pod.metadata.deletionTimestamp) continue;
    const decision = decideTermination({ pod, hasFinalizer: hasPodFinalizer, targetHealthy: targetIsHealthy(x, d, pod), kind, dryRun: d.spec.dryRun === true });
    if (decision === 'removeFinalizer') {
      ctx.log.info({ pod: pod.metadata.name, phase: pod.status?.phase }, 'removing the finalizer of a terminated chaos pod');
      // The kubelet writes a chaos pod's status as it ends: the removal re-reads it on a conflict.
      await removeFinalizerWithRetry(x.client, podsResource, pod, CHAOS_POD_FINALIZER, { signal: ctx.signal });
    } else if (decision === 'stuck') {
      stuck.push({ pod, target: pod.metadata.labels?.[TARGET_LABEL] ?? '', kind });
    }
  }
  return stuck;
}

/** Marks the stuck chaos pods in status and says so in an Event naming each. */
function markStuck(x: DisruptionControllerData, d: Disruption, changes: StatusChanges, stuck: readonly StuckPod[], now: Date): void {
  for (const s of stuck) {
    const entry: TargetInjection = { injectorPodName: s.pod.metadata.name ?? '', injectionStatus: 'IsStuckOnRemoval', since: now.toISOString() };
    changes.apply((status) => {
      status.isStuckOnRemoval = true;
      const kinds = ((status.targetInjections ??= {})[s.target] ??= {});
      if (kinds[s.kind]?.injectionStatus !== 'IsStuckOnRemoval') kinds[s.kind] = { ...entry };
    });
    void x.recorder.warning(d, EVENT_STUCK_ON_REMOVAL, `chaos pod ${s.pod.metadata.name ?? ''} failed and may not have cleaned target ${s.target} (${s.kind}): it keeps its finalizer; check its logs`);
  }
}

/** Cleanup step 1 and what follows: the chaos pods go, cleanedAt, then (after the delay) the finalizer. */
async function reconcileDeletion(x: DisruptionControllerData, d: Disruption, chaosPods: readonly Pod[], stuck: readonly StuckPod[], ctx: Ctx): Promise<Action | CleanupPending> {
  const now = x.now();
  const changes = new StatusChanges(d.status);
  markStuck(x, d, changes, stuck, now);
  const timeoutAt = Date.parse(d.metadata.deletionTimestamp ?? '') + x.config.disruptionDeletionTimeoutMs;
  if (now.getTime() >= timeoutAt && chaosPods.length > 0 && !changes.view.isStuckOnRemoval) {
    changes.apply((status) => {
      status.isStuckOnRemoval = true;
    });
    void x.recorder.warning(d, EVENT_STUCK_ON_REMOVAL, `chaos pods still exist ${Math.round(x.config.disruptionDeletionTimeoutMs / 1000)}s after the deletion: ${chaosPods.map((p) => p.metadata.name).join(', ')}`);
  }
  const cleanedAt = changes.view.cleanedAt;
  if (cleanedAt) {
    await changes.write(x, d);
    const dueAt = Date.parse(cleanedAt) + x.config.finalizerDeletionDelayMs;
    if (now.getTime() < dueAt) return cleanupPending(action.requeueAfter(dueAt - now.getTime()));
    void x.recorder.normal(d, EVENT_FINISHED, 'the disruption is finished: its chaos pods are gone');
    return action.awaitChange();
  }
  // cleanDisruption: every chaos pod goes (the kubelet signals the injector, which cleans and exits).
  // One request for them all (upstream deletes them one by one): the disruption's chaos pods by their labels.
  if (chaosPods.some((pod) => !pod.metadata.deletionTimestamp)) {
    ctx.log.info({ pods: chaosPods.length }, 'deleting the chaos pods');
    await x.client.deleteCollection(podsResource, { namespace: x.config.chaosNamespace, labelSelector: chaosPodSelector(d) });
  }
  if (chaosPods.length === 0) {
    const at = now.toISOString();
    changes.apply((status) => {
      status.cleanedAt ??= at;
    });
    await changes.write(x, d);
    void x.recorder.normal(d, EVENT_CLEANED, 'every chaos pod of the disruption is gone');
    return cleanupPending(action.requeueAfter(x.config.finalizerDeletionDelayMs));
  }
  await changes.write(x, d);
  // The chaos pods' changes wake us; only the deletion timeout is a deadline of our own.
  return cleanupPending(!changes.view.isStuckOnRemoval && timeoutAt > now.getTime() ? action.requeueAfter(timeoutAt - now.getTime()) : action.awaitChange());
}

/** The finalizer is gone: forget the disruption, and measure it. */
function recordFinished(x: DisruptionControllerData, d: Disruption): void {
  const now = x.now().getTime();
  x.expectations.forget(disruptionKey(d));
  x.replacements.forget(disruptionKey(d));
  x.metrics.cleanupDuration.observe(Math.max(0, now - Date.parse(d.metadata.deletionTimestamp ?? '')) / 1000);
  x.metrics.completedDuration.observe(Math.max(0, now - Date.parse(d.metadata.creationTimestamp ?? '')) / 1000);
  for (const kind of kindsOf(d)) x.metrics.disruptionsCount.inc({ kind });
}

async function reconcileLive(x: DisruptionControllerData, d: Disruption, chaosPods: Pod[], stuck: readonly StuckPod[], ctx: Ctx): Promise<Action> {
  const now = x.now();
  const nowMs = now.getTime();
  const changes = new StatusChanges(d.status);
  markStuck(x, d, changes, stuck, now);
  const kinds = kindsOf(d);
  const remaining = remainingMs(d, nowMs);
  const gcDelay = x.config.expiredDisruptionGCDelayMs;

  if (gcDelay >= 0 && remaining <= -gcDelay) {
    void x.recorder.normal(d, EVENT_GC_OVER, `the disruption expired ${Math.round(gcDelay / 1000)}s ago: deleting it`);
    await ignoreNotFound(x.client.delete(disruptionsResource, d.metadata.name ?? '', { namespace: d.metadata.namespace ?? '' }));
    return action.awaitChange();
  }
  if (remaining <= 0) {
    // Expired: the chaos pods stop themselves at their deadline; they go when the disruption is deleted.
    const before = changes.view.injectionStatus;
    updateInjection(changes, d, chaosPods, kinds, true, now);
    await changes.write(x, d);
    if (gcDelay < 0) return action.awaitChange();
    if (before !== changes.view.injectionStatus) void x.recorder.normal(d, EVENT_DURATION_OVER, `the disruption's duration is over; it is deleted in ${Math.round(gcDelay / 1000)}s`);
    return action.requeueAfter(Math.max(0, gcDelay + remaining));
  }
  if (kinds.length === 0) {
    // Admission refuses these; one that slipped in (no webhook) has nothing to inject.
    void x.recorder.warning(d, EVENT_EMPTY_DISRUPTION, 'the disruption sets no disruption kind: nothing to inject');
    await changes.write(x, d);
    return action.awaitChange();
  }
  recordSpecHash(x, d, changes);
  const createAt = timeToCreatePodsMs(d);
  if (createAt - nowMs > CREATE_PODS_LEAD_MS) {
    await changes.write(x, d);
    return action.requeueAfter(createAt - CREATE_PODS_LEAD_MS - nowMs);
  }
  await deleteFailedChaosPods(x, d, disruptionKey(d), chaosPods, now);

  const lockKey = isNodeLevel(d) ? 'nodes' : `namespace/${d.metadata.namespace ?? ''}`;
  const { matching, injection } = await x.selection.run(lockKey, async () => {
    const matching = select(x, d, changes, kinds, now);
    return { matching, injection: await startInjection(x, d, changes, chaosPods, kinds, now, ctx) };
  });
  updateInjection(changes, d, injection.live, kinds, false, now);
  changes.apply((status) => {
    status.selectedTargetsCount = Object.keys(status.targetInjections ?? {}).length;
    status.ignoredTargetsCount = Math.max(0, matching - status.selectedTargetsCount);
  });
  await changes.write(x, d);
  const expiry = remaining + EXPIRY_MARGIN_MS;
  return action.requeueAfter(injection.retryInMs === undefined ? expiry : Math.min(expiry, injection.retryInMs));
}

/**
 * Injection step 2: the spec's hash in status. The update webhook denies a spec change (only count may change
 * under dynamic targeting, and the hash leaves it out then); one made without the webhook is reported, since the
 * chaos pods already created keep the spec they were made from.
 */
function recordSpecHash(x: DisruptionControllerData, d: Disruption, changes: StatusChanges): void {
  const staticTargeting = d.spec.staticTargeting === true;
  const hash = specHash(d.spec, { withoutCount: !staticTargeting });
  const stored = changes.view.specHash;
  if (stored === hash) return;
  if (stored !== undefined) {
    void x.recorder.warning(
      d,
      EVENT_SPEC_MUTATED,
      `the disruption's spec changed (hash ${stored} → ${hash}), but a disruption is immutable${staticTargeting ? '' : ' except for its count'}: chaos pods already created keep the spec they were made from; delete and re-create the disruption for the change to take full effect`,
    );
  }
  changes.apply((status) => {
    status.specHash = hash;
  });
}

/** Injection step 5: the injection status, and the target × kind entries whose chaos pod became ready. */
function updateInjection(changes: StatusChanges, d: Disruption, chaosPods: readonly Pod[], kinds: readonly string[], expired: boolean, now: Date): void {
  const view = changes.view;
  const current = view.injectionStatus as InjectionStatus | undefined;
  const result = nextInjection({
    status: current,
    termination: terminationStatus({ expiredOrDeleting: expired || d.metadata.deletionTimestamp !== undefined, status: current, chaosPods }),
    chaosPods,
    desiredTargetsCount: view.desiredTargetsCount ?? 0,
    targetInjections: view.targetInjections ?? {},
    kindCount: kinds.length,
    now,
  });
  // Only the entries that changed: a fresher object keeps its other entries.
  const changed: Array<[string, string, TargetInjection]> = [];
  for (const [target, perKind] of Object.entries(result.targetInjections)) {
    for (const [kind, entry] of Object.entries(perKind)) if (!isDeepStrictEqual(view.targetInjections?.[target]?.[kind], entry)) changed.push([target, kind, entry]);
  }
  changes.apply((status) => {
    status.injectionStatus = result.status;
    status.injectedTargetsCount = result.injectedTargetsCount;
    for (const [target, kind, entry] of changed) {
      const perKind = status.targetInjections?.[target];
      if (perKind) perKind[kind] = { ...entry };
    }
  });
}

/** Injection step 3: the targets in status.targetInjections, and desiredTargetsCount; returns how many objects matched. */
function select(x: DisruptionControllerData, d: Disruption, changes: StatusChanges, kinds: readonly DisruptionKindName[], now: Date): number {
  let selector;
  try {
    selector = targetSelector(d.spec);
  } catch (err) {
    const message = messageOf(err);
    void x.recorder.warning(d, EVENT_INVALID_LABEL_SELECTOR, message);
    // Nothing to do until the spec changes, which wakes us.
    throw new TerminalError(message, { cause: err });
  }
  const current = Object.keys(changes.view.targetInjections ?? {});
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
  const since = now.toISOString();
  changes.apply((status) => {
    const injections = (status.targetInjections ??= {});
    for (const name of result.removed) delete injections[name];
    for (const name of result.targets) {
      const perKind = (injections[name] ??= {});
      for (const kind of kinds) perKind[kind] ??= { injectionStatus: 'NotInjected', since };
    }
    status.desiredTargetsCount = result.desired;
  });
  return matching.length;
}

interface Injection {
  /** The chaos pods that remain (for the injection status). */
  live: Pod[];
  /** When a failed chaos pod's replacement may be created, if one waits. */
  retryInMs?: number;
}

/**
 * Injection step 4: deletes chaos pods whose target left, creates the missing one of each target × kind (a failed
 * one's replacement once its backoff is over).
 */
async function startInjection(x: DisruptionControllerData, d: Disruption, changes: StatusChanges, chaosPods: Pod[], kinds: readonly DisruptionKindName[], now: Date, ctx: Ctx): Promise<Injection> {
  const injections = changes.view.targetInjections ?? {};
  const live: Pod[] = [];
  const dropped: Pod[] = [];
  for (const pod of chaosPods) {
    const target = pod.metadata.labels?.[TARGET_LABEL] ?? '';
    if (injections[target] !== undefined) live.push(pod);
    else if (!pod.metadata.deletionTimestamp) dropped.push(pod);
  }
  await forEachLimited(dropped, WRITE_CONCURRENCY, async (pod) => {
    ctx.log.info({ pod: pod.metadata.name, target: pod.metadata.labels?.[TARGET_LABEL] }, 'deleting the chaos pod of a target no longer selected');
    await ignoreNotFound(x.client.delete(podsResource, pod.metadata.name ?? '', { namespace: pod.metadata.namespace ?? '' }));
  });
  // Too late to inject anything worth it.
  if (remainingMs(d, now.getTime()) < 1000) return { live };
  // maxRuns: how many passes may create chaos pods (upstream counts and checks per target, so with maxRuns 1
  // only the first target of a pass got its pods).
  if (d.spec.maxRuns !== undefined && d.spec.maxRuns !== null && (changes.view.runCount ?? 0) >= d.spec.maxRuns) return { live };
  const key = disruptionKey(d);
  let failure: unknown;
  let created = 0;
  let retryInMs: number | undefined;
  // Targets in parallel (bounded), their kinds in order: a burst of targets is as fast as the API allows.
  await forEachLimited(Object.entries(injections), WRITE_CONCURRENCY, async ([target, perKind]) => {
    const missing = kinds.filter((kind) => {
      if (live.some((p) => p.metadata.labels?.[TARGET_LABEL] === target && p.metadata.labels[DISRUPTION_KIND_LABEL] === kind)) return false;
      // A static nodeFailure is never injected twice: the node was already brought down once.
      if (kind === 'node-failure' && d.spec.staticTargeting && perKind[kind]?.injectionStatus === 'Injected') return false;
      const wait = x.replacements.waitMs(key, target, kind, now.getTime());
      if (wait > 0) retryInMs = Math.min(retryInMs ?? wait, wait);
      return wait === 0;
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
        const entry: TargetInjection = { injectorPodName: stored.metadata.name ?? '', injectionStatus: 'NotInjected', since: now.toISOString() };
        changes.apply((status) => {
          const kindsOfTarget = status.targetInjections?.[target];
          if (kindsOfTarget) kindsOfTarget[kind] = { ...entry };
        });
        void x.recorder.normal(d, EVENT_CHAOS_POD_CREATED, `created chaos pod ${stored.metadata.name ?? ''} (${kind}) for target ${target}`);
        void x.recorder.normal(object, EVENT_DISRUPTED, `chaos pod ${stored.metadata.name ?? ''} of disruption ${d.metadata.name ?? ''} targets this ${isNodeLevel(d) ? 'node' : 'pod'} (${kind})`);
      } catch (err) {
        x.metrics.podsCreated.inc({ status: 'failed' });
        void x.recorder.warning(d, EVENT_CREATE_FAILED, `could not create the ${kind} chaos pod of target ${target}: ${messageOf(err)}`);
        failure ??= err;
      }
    }
  });
  if (created > 0) {
    changes.apply((status) => {
      status.runCount = (status.runCount ?? 0) + 1;
    });
    x.metrics.injectDuration.observe(Math.max(0, now.getTime() - Date.parse(d.metadata.creationTimestamp ?? '')) / 1000);
  }
  if (failure !== undefined) {
    // Keep what was created in status before backing off.
    await changes.write(x, d);
    throw failure;
  }
  return { live, ...(retryInMs !== undefined ? { retryInMs } : {}) };
}
