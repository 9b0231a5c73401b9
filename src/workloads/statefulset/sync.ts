// One sync of a StatefulSet, after kube-controller-manager's statefulset controller (sync, UpdateStatefulSet,
// updateStatefulSet): adopt its orphaned revisions and member pods, find the current and update revisions, then
// keep one pod per ordinal in [start, start+replicas): create the missing ones (with their claims) in ordinal
// order, each only once its predecessors are Running and Ready (OrderedReady; Parallel creates them all), delete
// failed ones so they come back, delete the ordinals beyond the range from the highest down, and with
// RollingUpdate delete the highest-ordinal pod not at the update revision (down to the partition) once the
// others are available. OnDelete replaces a pod only when the user deletes it.
import { fromLabelSelectorObject, LabelSelectorError } from '../../apimachinery/label-selector.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { Action, Informer, ReadYourWrites, ReconcileContext, StatusWriter } from '../../runtime/index.ts';
import { action, TerminalError } from '../../runtime/index.ts';
import { controllerRevisionsResource, podsResource, statefulSetsResource } from '../../apimachinery/builtin-resources.ts';
import type { ControllerRevision, Pod, StatefulSet } from '../../apimachinery/api/index.ts';
import { claim } from '../pods/claim.ts';
import { controllerRefTo } from '../pods/owner.ts';
import { nextPodAvailability } from '../pods/pod-state.ts';
import { slowStartBatch } from '../pods/slow-start.ts';
import { claimsMatchRetentionPolicy, createMissingClaims, hasStaleClaim, updateClaimsForRetentionPolicy, type ClaimControl } from './claims.ts';
import { identityMatches, inOrdinalRange, isMemberOf, newStatefulSetPod, ordinalOf, replicasOf, revisionOf, startOrdinal, storageMatches } from './identity.ts';
import { createRevision, deleteRevision, equalRevision, newRevision, nextRevision, renumberRevision, sortRevisions, templateOf } from './revisions.ts';
import { createStatefulPod, deleteStatefulPod, updateStatefulPod } from './stateful-pod-control.ts';
import {
  completeRollingUpdate,
  computeStatus,
  isCreated,
  isRunningAndAvailable,
  isRunningAndReady,
  isTerminating,
  isUnavailable,
  wireStatus,
  type RevisionPair,
} from './status.ts';

export interface StatefulSetControllerData extends ClaimControl {
  pods: Informer<Pod>;
  revisions: Informer<ControllerRevision>;
  /** The set as last written, until the cache has it: the current revision and collision count must not go back. */
  writes: ReadYourWrites<StatefulSet>;
  status: StatusWriter<StatefulSet>;
  now(): Date;
}

export async function syncStatefulSet(cached: StatefulSet, ctx: ReconcileContext<StatefulSetControllerData>): Promise<Action> {
  const d = ctx.data;
  const set = d.writes.resolve(cached);
  let selector;
  try {
    selector = fromLabelSelectorObject(set.spec.selector ?? {});
  } catch (err) {
    if (err instanceof LabelSelectorError) throw new TerminalError(`statefulset ${ctx.key}: invalid selector: ${err.message}`, { cause: err });
    throw err;
  }
  if (selector.length === 0) throw new TerminalError(`statefulset ${ctx.key} has an empty selector: it would select every pod`);
  const namespace = set.metadata.namespace ?? '';
  const ref = controllerRefTo(set, 'apps/v1', 'StatefulSet');
  const owner = { client: d.client, ownerResource: statefulSetsResource, owner: set, ref, selector };
  const revisions = sortRevisions(await claim(d.revisions.list(namespace), { ...owner, resource: controllerRevisionsResource }));
  const pods = await claim(
    d.pods.list(namespace).filter((p) => isMemberOf(set, p)),
    { ...owner, resource: podsResource },
  );

  const collision = { count: set.status?.collisionCount ?? 0 };
  const pair = await statefulSetRevisions(d, set, revisions, collision);
  const now = d.now().getTime();
  const { status, error } = await updateStatefulSet(d, set, pair, collision.count, pods, now);
  completeRollingUpdate(set, status);
  try {
    await d.status.write(set, (draft) => {
      draft.status = wireStatus(status, draft.status?.conditions);
    }, { signal: ctx.signal });
  } catch (err) {
    if (err instanceof NotFoundError) return action.awaitChange();
    throw err;
  }
  await truncateHistory(d, set, pods, revisions, pair);
  if (error !== undefined) throw error;
  // A ready pod counts as available once ready for minReadySeconds: look again then.
  const next = nextPodAvailability(pods, set.spec.minReadySeconds ?? 0, now);
  return next !== undefined ? action.requeueAfter(next - now) : action.awaitChange();
}

/**
 * getStatefulSetRevisions: the update revision is the set's template (an existing equal revision, renumbered if
 * it is not the latest, or a new one); the current revision is the one status names, or the update revision.
 */
async function statefulSetRevisions(d: StatefulSetControllerData, set: StatefulSet, sorted: ControllerRevision[], collision: { count: number }): Promise<RevisionPair> {
  const candidate = newRevision(set, nextRevision(sorted), controllerRefTo(set, 'apps/v1', 'StatefulSet'));
  const equal = sorted.filter((r) => equalRevision(r, candidate));
  const last = sorted.at(-1);
  const lastEqual = equal.at(-1);
  let update: ControllerRevision;
  if (lastEqual && last && equalRevision(last, lastEqual)) update = last;
  else if (lastEqual) update = await renumberRevision(d.client, lastEqual, candidate.revision);
  else update = await createRevision(d.client, set, candidate, collision);
  const current = sorted.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
  return { current, update };
}

/** truncateHistory: deletes the oldest revisions no pod and neither status revision uses, down to revisionHistoryLimit. */
async function truncateHistory(d: StatefulSetControllerData, set: StatefulSet, pods: readonly Pod[], sorted: readonly ControllerRevision[], pair: RevisionPair): Promise<void> {
  const live = new Set([pair.current.metadata.name, pair.update.metadata.name, ...pods.map(revisionOf)]);
  const history = sorted.filter((r) => !live.has(r.metadata.name));
  const limit = set.spec.revisionHistoryLimit ?? 10;
  if (limit < 0 || history.length <= limit) return;
  for (const revision of history.slice(0, history.length - limit)) await deleteRevision(d.client, revision);
}

/** Runs fn over the items: in order, stopping at the first that says to wait (monotonic), or all in slow-start batches. */
async function runForAll<T>(items: readonly T[], fn: (item: T) => Promise<boolean>, monotonic: boolean): Promise<boolean> {
  if (monotonic) {
    for (const item of items) if (await fn(item)) return true;
    return false;
  }
  let next = 0;
  const result = await slowStartBatch(items.length, async () => {
    await fn(items[next++]!);
  });
  if (result.errors.length > 0) throw result.errors[0];
  return false;
}

/** updateStatefulSet: the pod work of one sync; the status it leads to, with the error that stopped it, if any. */
async function updateStatefulSet(
  d: StatefulSetControllerData,
  set: StatefulSet,
  pair: RevisionPair,
  collisionCount: number,
  pods: readonly Pod[],
  now: number,
): Promise<{ status: ReturnType<typeof computeStatus>; error?: unknown }> {
  const minReady = set.spec.minReadySeconds ?? 0;
  const start = startOrdinal(set);
  const count = replicasOf(set);
  const ref = controllerRefTo(set, 'apps/v1', 'StatefulSet');
  const strategy = set.spec.updateStrategy ?? {};
  const rolling = (strategy.type ?? 'RollingUpdate') === 'RollingUpdate';
  const partition = strategy.rollingUpdate?.partition;
  const slots: (Pod | undefined)[] = new Array<Pod | undefined>(count).fill(undefined);
  const condemned: Pod[] = [];
  for (const pod of pods) {
    if (inOrdinalRange(set, pod)) slots[ordinalOf(pod) - start] = pod;
    else if (ordinalOf(pod) >= 0) condemned.push(pod);
  }
  const replicas = slots.map((pod, i) => {
    if (pod) return pod;
    // newVersionedStatefulSetPod: below the partition a missing pod comes back at the current revision.
    const ordinal = start + i;
    const atCurrent = rolling && (partition === undefined ? ordinal < start + (set.status?.currentReplicas ?? 0) : ordinal < start + partition);
    const revision = atCurrent ? pair.current : pair.update;
    return newStatefulSetPod(set, templateOf(revision), ordinal, revision.metadata.name ?? '', ref);
  });
  condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));
  const firstUnavailable = replicas.find((p) => isUnavailable(p, minReady, now)) ?? [...condemned].reverse().find((p) => isUnavailable(p, minReady, now));
  let deletedForUpdate = 0;
  const finish = (error?: unknown) => {
    const status = computeStatus(set, [...replicas, ...condemned], pair, collisionCount, now);
    status.currentReplicas = (status.currentReplicas ?? 0) - deletedForUpdate;
    return error === undefined ? { status } : { status, error };
  };
  if (set.metadata.deletionTimestamp !== undefined) return finish();
  const monotonic = set.spec.podManagementPolicy !== 'Parallel';

  const processReplica = async (pod: Pod): Promise<boolean> => {
    const phase = pod.status?.phase;
    if (phase === 'Failed' || phase === 'Succeeded') {
      // A finished pod is deleted; the next sync makes it again, with the same name and claims.
      if (!isTerminating(pod)) await deleteStatefulPod(d, set, pod);
      return true;
    }
    if (!isCreated(pod)) {
      if (hasStaleClaim(d, set, pod)) return true;
      await createStatefulPod(d, set, pod);
      return monotonic;
    }
    if (phase === 'Pending') await createMissingClaims(d, set, pod);
    if (monotonic && (isTerminating(pod) || !isRunningAndReady(pod) || !isRunningAndAvailable(pod, minReady, now))) return true;
    if (identityMatches(set, pod) && storageMatches(set, pod) && claimsMatchRetentionPolicy(d, set, pod)) return false;
    await updateStatefulPod(d, set, pod);
    return false;
  };
  const fixClaims = async (pod: Pod): Promise<boolean> => {
    if (!claimsMatchRetentionPolicy(d, set, pod)) await updateClaimsForRetentionPolicy(d, set, pod);
    return false;
  };
  const processCondemned = async (pod: Pod): Promise<boolean> => {
    if (isTerminating(pod)) return monotonic;
    // Scale down waits for the pods it keeps to be healthy, except for the first unhealthy pod itself.
    if (monotonic && pod !== firstUnavailable && (!isRunningAndReady(pod) || !isRunningAndAvailable(pod, minReady, now))) return true;
    await deleteStatefulPod(d, set, pod);
    return true;
  };
  try {
    if (await runForAll(replicas, processReplica, monotonic)) return finish();
    if (await runForAll(condemned, fixClaims, monotonic)) return finish();
    if (await runForAll(condemned, processCondemned, monotonic)) return finish();
    if (!rolling) return finish();
    // The rolling update: the highest ordinal not at the update revision goes first, one at a time.
    for (let target = replicas.length - 1; target >= (partition ?? 0); target--) {
      const pod = replicas[target]!;
      if (revisionOf(pod) !== pair.update.metadata.name && !isTerminating(pod)) {
        await deleteStatefulPod(d, set, pod);
        deletedForUpdate++;
        return finish();
      }
      if (isUnavailable(pod, minReady, now)) return finish();
    }
  } catch (err) {
    return finish(err);
  }
  return finish();
}
