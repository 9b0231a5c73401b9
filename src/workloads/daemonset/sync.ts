// One sync of a DaemonSet, after kube-controller-manager's daemon controller (syncDaemonSet, manage,
// rollingUpdate): adopt its orphaned revisions and pods, make the template's ControllerRevision the current one,
// then per node keep exactly one daemon pod where it should run (failed pods are deleted and replaced, extra
// ones deleted, the oldest kept) and none where it should not; then roll old pods to the current template within
// maxUnavailable (delete first) or maxSurge (create the new pod first, delete the old once it is available).
// OnDelete replaces a pod only when the user deletes it. Writes wait until the cache has seen the previous ones.
import { fromLabelSelectorObject, LabelSelectorError } from '../../apimachinery/label-selector.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { Action, EventRecorder, Informer, ReadYourWrites, ReconcileContext, StatusWriter } from '../../runtime/index.ts';
import { action, TerminalError } from '../../runtime/index.ts';
import { controllerRevisionsResource, daemonSetsResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import type { ControllerRevision, DaemonSet, IntOrString, Node, Pod } from '../../apimachinery/api/index.ts';
import type { KubeClient } from '../../client/client.ts';
import { claim } from '../pods/claim.ts';
import type { Expectations } from '../pods/expectations.ts';
import { controllerRefTo } from '../pods/owner.ts';
import type { PodControl } from '../pods/pod-control.ts';
import { isPodAvailable, nextPodAvailability } from '../pods/pod-state.ts';
import { slowStartBatch } from '../pods/slow-start.ts';
import { REVISION_LABEL } from '../statefulset/identity.ts';
import { createRevision, deleteRevision, equalRevision, newRevision, nextRevision, renumberRevision, sortRevisions, templateOf } from '../statefulset/revisions.ts';
import { isPodUpdated, newDaemonPod, oldestFirst } from './daemon-pod.ts';
import { placementOn, targetNode } from './eligibility.ts';
import { computeStatus, type NodeState } from './status.ts';

export interface DaemonSetControllerData {
  client: KubeClient;
  recorder: EventRecorder;
  pods: Informer<Pod>;
  nodes: Informer<Node>;
  revisions: Informer<ControllerRevision>;
  podControl: PodControl;
  expectations: Expectations;
  /** The set as last written, until the cache has it: the collision count must not go back. */
  writes: ReadYourWrites<DaemonSet>;
  status: StatusWriter<DaemonSet>;
  now(): Date;
}

interface NodePods extends NodeState {
  name: string;
  shouldContinueRunning: boolean;
}

export async function syncDaemonSet(cached: DaemonSet, ctx: ReconcileContext<DaemonSetControllerData>): Promise<Action> {
  const d = ctx.data;
  const set = d.writes.resolve(cached);
  let selector;
  try {
    selector = fromLabelSelectorObject(set.spec.selector ?? {});
  } catch (err) {
    if (err instanceof LabelSelectorError) throw new TerminalError(`daemonset ${ctx.key}: invalid selector: ${err.message}`, { cause: err });
    throw err;
  }
  if (selector.length === 0) throw new TerminalError(`daemonset ${ctx.key} has an empty selector: it would select every pod`);
  const namespace = set.metadata.namespace ?? '';
  const ref = controllerRefTo(set, 'apps/v1', 'DaemonSet');
  const owner = { client: d.client, ownerResource: daemonSetsResource, owner: set, ref, selector };
  const satisfied = d.expectations.satisfied(ctx.key);
  const revisions = sortRevisions(await claim(d.revisions.list(namespace), { ...owner, resource: controllerRevisionsResource }));
  const pods = await claim(d.pods.list(namespace), { ...owner, resource: podsResource });

  const collision = { count: set.status?.collisionCount ?? 0 };
  const current = await currentRevision(d, set, revisions, collision);
  const hash = current.metadata.labels?.[REVISION_LABEL] ?? '';
  const nodes = nodePods(set, d.nodes.list(), pods);
  const now = d.now().getTime();
  let error: unknown;
  if (satisfied && set.metadata.deletionTimestamp === undefined) {
    try {
      const changed = await manage(d, ctx.key, set, nodes, current, hash);
      if (!changed && (set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') await rollingUpdate(d, ctx.key, set, nodes, current, hash, now);
    } catch (err) {
      error = err;
    }
  }
  try {
    await d.status.write(set, (draft) => {
      draft.status = computeStatus(set, nodes, hash, collision.count, now);
    }, { signal: ctx.signal });
  } catch (err) {
    if (err instanceof NotFoundError) return action.awaitChange();
    throw err;
  }
  await cleanupHistory(d, set, pods, revisions, current);
  if (error !== undefined) throw error;
  // A ready pod counts as available once ready for minReadySeconds: look again then.
  const next = nextPodAvailability(pods, set.spec.minReadySeconds ?? 0, now);
  return next !== undefined ? action.requeueAfter(next - now) : action.awaitChange();
}

/** constructHistory: the revision of the set's template (an equal one, renumbered to be the latest, or a new one). */
async function currentRevision(d: DaemonSetControllerData, set: DaemonSet, sorted: ControllerRevision[], collision: { count: number }): Promise<ControllerRevision> {
  const candidate = newRevision(set, nextRevision(sorted), controllerRefTo(set, 'apps/v1', 'DaemonSet'));
  const equal = sorted.filter((r) => equalRevision(r, candidate)).at(-1);
  const last = sorted.at(-1);
  if (equal && last && equal === last) return last;
  if (equal) return renumberRevision(d.client, equal, candidate.revision);
  return createRevision(d.client, set, candidate, collision);
}

/** cleanupHistory: deletes the oldest revisions no live pod uses, down to revisionHistoryLimit. */
async function cleanupHistory(d: DaemonSetControllerData, set: DaemonSet, pods: readonly Pod[], sorted: readonly ControllerRevision[], current: ControllerRevision): Promise<void> {
  const live = new Set([current.metadata.labels?.[REVISION_LABEL], ...pods.filter((p) => p.metadata.deletionTimestamp === undefined).map((p) => p.metadata.labels?.[REVISION_LABEL])]);
  const history = sorted.filter((r) => r.metadata.name !== current.metadata.name && !live.has(r.metadata.labels?.[REVISION_LABEL]));
  const limit = set.spec.revisionHistoryLimit ?? 10;
  if (history.length <= limit) return;
  for (const revision of history.slice(0, history.length - limit)) await deleteRevision(d.client, revision);
}

/** getNodesToDaemonPods plus the placement of every node; pods bound to nodes that do not exist are listed too. */
function nodePods(set: DaemonSet, nodes: readonly Node[], pods: readonly Pod[]): NodePods[] {
  const byNode = new Map<string, Pod[]>();
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    const node = targetNode(pod);
    if (node !== undefined) byNode.set(node, [...(byNode.get(node) ?? []), pod]);
  }
  const states: NodePods[] = nodes.map((node) => {
    const name = node.metadata.name ?? '';
    return { name, ...placementOn(node, set.spec.template.spec), pods: byNode.get(name) ?? [] };
  });
  for (const [name, orphaned] of byNode) {
    // An unscheduled pod for a node that is gone is deleted (getUnscheduledPodsWithoutNode); a bound one is the pod GC's.
    if (!nodes.some((n) => n.metadata.name === name)) states.push({ name, shouldRun: false, shouldContinueRunning: false, pods: orphaned.filter((p) => !p.spec.nodeName) });
  }
  return states;
}

function resolve(value: IntOrString | undefined, total: number): number {
  if (typeof value === 'number') return value;
  const percent = /^(\d+)%$/.exec(value ?? '');
  return percent ? Math.ceil((Number(percent[1]) * total) / 100) : 0;
}

/** updatedDesiredNodeCounts: maxSurge and maxUnavailable against the nodes that should run the set (never both 0). */
function budgets(set: DaemonSet, desired: number): { maxSurge: number; maxUnavailable: number } {
  const rolling = set.spec.updateStrategy?.rollingUpdate ?? {};
  const maxSurge = resolve(rolling.maxSurge, desired);
  let maxUnavailable = resolve(rolling.maxUnavailable, desired);
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

/** manage (podsShouldBeOnNode over every node): the creations and deletions that keep one pod per node; true if it changed anything. */
async function manage(d: DaemonSetControllerData, key: string, set: DaemonSet, nodes: readonly NodePods[], current: ControllerRevision, hash: string): Promise<boolean> {
  // util.AllowsSurge: a RollingUpdate whose maxSurge is not zero.
  const strategy = set.spec.updateStrategy ?? {};
  const surge = (strategy.type ?? 'RollingUpdate') === 'RollingUpdate' && resolve(strategy.rollingUpdate?.maxSurge, 1) > 0;
  const create: string[] = [];
  const remove: Pod[] = [];
  for (const node of nodes) {
    if (!node.shouldContinueRunning) {
      remove.push(...node.pods);
      continue;
    }
    if (!node.shouldRun) continue;
    const running: Pod[] = [];
    for (const pod of node.pods) {
      if (pod.status?.phase === 'Failed') {
        void d.recorder.warning(set, 'FailedDaemonPod', `Found failed daemon pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} on node ${node.name}, will try to kill it`);
        remove.push(pod);
      } else running.push(pod);
    }
    if (running.length === 0) {
      create.push(node.name);
      continue;
    }
    running.sort(oldestFirst);
    if (!surge) {
      remove.push(...running.slice(1));
      continue;
    }
    // With surge an old and a new pod may share the node while the new one becomes available.
    let keptNew = false;
    let keptOld = false;
    for (const pod of running) {
      const updated = isPodUpdated(set, pod, hash);
      if (updated && !keptNew) keptNew = true;
      else if (!updated && !keptOld) keptOld = true;
      else remove.push(pod);
    }
  }
  await syncNodes(d, key, set, remove, create, current, hash);
  return create.length > 0 || remove.length > 0;
}

/** rollingUpdate: replace old pods within the budgets; the next syncs (woken by the pods' events) continue. */
async function rollingUpdate(d: DaemonSetControllerData, key: string, set: DaemonSet, nodes: readonly NodePods[], current: ControllerRevision, hash: string, now: number): Promise<void> {
  const minReady = set.spec.minReadySeconds ?? 0;
  const available = (pod: Pod): boolean => isPodAvailable(pod, minReady, now);
  const eligible = nodes.filter((n) => n.shouldRun);
  const { maxSurge, maxUnavailable } = budgets(set, eligible.length);
  const split = (pods: readonly Pod[]): { fresh?: Pod; old?: Pod } => ({
    fresh: pods.find((p) => isPodUpdated(set, p, hash)),
    old: pods.find((p) => !isPodUpdated(set, p, hash)),
  });
  if (maxSurge === 0) {
    let unavailable = 0;
    const immediately: Pod[] = [];
    const candidates: Pod[] = [];
    // As upstream, every node with daemon pods, so an old pod on a node that should no longer run it goes too.
    for (const node of nodes.filter((n) => n.pods.length > 0)) {
      const { fresh, old } = split(node.pods);
      if ((fresh === undefined) === (old === undefined)) unavailable++;
      else if (fresh) {
        if (!available(fresh)) unavailable++;
      } else if (old && !available(old)) immediately.push(old);
      else if (old) candidates.push(old);
    }
    const room = Math.min(Math.max(maxUnavailable - unavailable, 0), candidates.length);
    await syncNodes(d, key, set, [...immediately, ...candidates.slice(0, room)], [], current, hash);
    return;
  }
  let surging = 0;
  const newNodes: string[] = [];
  const candidateNodes: string[] = [];
  const remove: Pod[] = [];
  for (const node of eligible) {
    const { fresh, old } = split(node.pods);
    if (old === undefined) continue;
    if (fresh === undefined) {
      if (!available(old)) newNodes.push(node.name);
      else candidateNodes.push(node.name);
    } else if (!available(fresh)) surging++;
    else remove.push(old);
  }
  const room = Math.min(Math.max(maxSurge - surging, 0), candidateNodes.length);
  await syncNodes(d, key, set, remove, [...newNodes, ...candidateNodes.slice(0, room)], current, hash);
}

/** syncNodes: deletes and creates (in slow-start batches), expecting each in the cache before the next sync acts. */
async function syncNodes(d: DaemonSetControllerData, key: string, set: DaemonSet, remove: readonly Pod[], create: readonly string[], current: ControllerRevision, hash: string): Promise<void> {
  const ref = controllerRefTo(set, 'apps/v1', 'DaemonSet');
  const template = templateOf(current);
  const errors: unknown[] = [];
  if (create.length > 0) {
    d.expectations.expectCreations(key, create.length);
    let next = 0;
    const result = await slowStartBatch(create.length, async () => {
      const node = create[next++]!;
      try {
        await d.podControl.create(set, newDaemonPod(set, template, hash, node, ref));
      } catch (err) {
        d.expectations.creationObserved(key);
        throw err;
      }
    });
    for (let i = 0; i < result.skipped; i++) d.expectations.creationObserved(key);
    errors.push(...result.errors);
  }
  if (remove.length > 0) {
    d.expectations.expectDeletions(key, remove.length);
    await Promise.all(
      remove.map(async (pod) => {
        try {
          if (!(await d.podControl.delete(set, pod))) d.expectations.deletionObserved(key);
        } catch (err) {
          d.expectations.deletionObserved(key);
          errors.push(err);
        }
      }),
    );
  }
  if (errors.length > 0) throw errors[0];
}
