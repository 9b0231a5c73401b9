// The scheduler (kube-scheduler's default profile, in small): every pending pod that names this scheduler (or no
// scheduler) is bound to a node through pods/binding, or marked PodScheduled=False (Unschedulable) with the
// scheduler's message and a FailedScheduling Event. An unschedulable pod waits for a change that could let it
// fit (a node added or changed, a bound pod gone or finished) and is retried then; nothing polls.
//
// Bound pods stay "assumed" until the informer shows them bound, so the next pod scheduled before that event
// arrives still sees their requests on the node (kube-scheduler's assume cache).
import { objectKey, type KubeObject } from '../../apimachinery/object.ts';
import type { KubeClient } from '../../client/client.ts';
import { ConflictError, NotFoundError } from '../../client/errors.ts';
import type {
  Action,
  Controller,
  EventRecorder,
  Informer,
  Manager,
  Predicate,
  ReconcileContext,
} from '../../runtime/index.ts';
import { action, keyOf, setCondition, updateStatus } from '../../runtime/index.ts';
import { nodesResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import { subresourceRef } from '../api/subresource.ts';
import type { Node, Pod } from '../../apimachinery/api/index.ts';
import { ensureIndex, POD_NODE_INDEX, podNodeIndex } from '../pods/indexes.ts';
import { isPodActive, isPodTerminal } from '../pods/pod-state.ts';
import { schedule, type NodeInfo } from './algorithm.ts';
import { QuantityError } from '../../apimachinery/quantity.ts';
import { add, podRequests, type Resources } from './resources.ts';

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

export interface SchedulerOptions {
  /** The controller's name in logs and metrics; default 'scheduler'. */
  name?: string;
  /** Pods naming this scheduler (or none) are scheduled; default 'default-scheduler'. */
  schedulerName?: string;
  /** Picks among equally scored nodes; default Math.random. */
  random?: () => number;
}

interface Assumed {
  node: string;
  requested: Resources;
  nonZeroRequested: Resources;
}

interface SchedulerData {
  client: KubeClient;
  recorder: EventRecorder;
  pods: Informer<Pod>;
  nodes: Informer<Node>;
  assumed: Map<string, Assumed>;
  schedulerName: string;
  random: () => number;
}

function isPending(pod: Pod, schedulerName: string): boolean {
  const wanted = pod.spec?.schedulerName;
  return !pod.spec?.nodeName && (wanted === undefined || wanted === '' || wanted === schedulerName) && isPodActive(pod);
}

export function registerScheduler(mgr: Manager, options: SchedulerOptions = {}): Controller<Pod, SchedulerData> {
  const pods = mgr.informer<Pod>(podsResource);
  const nodes = mgr.informer<Node>(nodesResource);
  ensureIndex(pods, POD_NODE_INDEX, podNodeIndex);
  const schedulerName = options.schedulerName ?? DEFAULT_SCHEDULER_NAME;
  const assumed = new Map<string, Assumed>();
  // An assumed pod is forgotten once the cache shows it bound, or gone.
  pods.addEventHandler({
    onAdd: (pod) => {
      if (pod.spec?.nodeName) assumed.delete(keyOf(pod));
    },
    onUpdate: (_old, pod) => {
      if (pod.spec?.nodeName) assumed.delete(keyOf(pod));
    },
    onDelete: (pod) => assumed.delete(keyOf(pod)),
  });
  const data: SchedulerData = {
    client: mgr.client,
    recorder: mgr.recorder(schedulerName),
    pods,
    nodes,
    assumed,
    schedulerName,
    random: options.random ?? Math.random,
  };
  const pendingKeys = (): string[] => pods.byIndex(POD_NODE_INDEX, '').filter((p) => isPending(p, schedulerName)).map(keyOf);
  return mgr
    .controller<Pod, SchedulerData>({
      name: options.name ?? 'scheduler',
      for: podsResource,
      data,
      predicates: [(e) => e.type !== 'deleted' && isPending(e.object, schedulerName)],
      reconcile: schedulePod,
    })
    .watches(nodes, pendingKeys, { predicates: [nodeChangeMatters] })
    .watches(pods, pendingKeys, { predicates: [freesResources] });
}

/** What can turn a node's answer around: it came or went, its taints, cordon, labels, allocatable or readiness. */
const nodeChangeMatters: Predicate<Node> = (e) => {
  if (e.type !== 'modified' || !e.old) return true;
  const view = (n: Node): string =>
    JSON.stringify([
      n.spec?.unschedulable ?? false,
      n.spec?.taints ?? [],
      n.metadata.labels ?? {},
      n.status?.allocatable ?? n.status?.capacity ?? {},
      n.status?.conditions?.find((c) => c.type === 'Ready')?.status,
    ]);
  return view(e.old) !== view(e.object);
};

/** A bound pod that is gone, finished or being deleted gives its node's room back. */
const freesResources: Predicate<Pod> = (e) => {
  if (!e.object.spec?.nodeName) return false;
  if (e.type === 'deleted') return true;
  if (e.type !== 'modified' || !e.old) return false;
  return isPodActive(e.old) && !isPodActive(e.object);
};

function nodeInfos(d: SchedulerData): NodeInfo[] {
  const zero = (): Resources => ({ milliCpu: 0, memory: 0 });
  const infos = new Map<string, NodeInfo>();
  for (const node of d.nodes.list()) infos.set(node.metadata.name ?? '', { node, requested: zero(), nonZeroRequested: zero(), pods: 0 });
  for (const [name, info] of infos) {
    for (const pod of d.pods.byIndex(POD_NODE_INDEX, name)) {
      if (isPodTerminal(pod)) continue;
      try {
        info.requested = add(info.requested, podRequests(pod));
        info.nonZeroRequested = add(info.nonZeroRequested, podRequests(pod, true));
      } catch (err) {
        // A bound pod with a malformed request still takes its slot; what it asks cannot be counted.
        if (!(err instanceof QuantityError)) throw err;
      }
      info.pods++;
    }
  }
  for (const a of d.assumed.values()) {
    const info = infos.get(a.node);
    if (!info) continue;
    info.requested = add(info.requested, a.requested);
    info.nonZeroRequested = add(info.nonZeroRequested, a.nonZeroRequested);
    info.pods++;
  }
  return [...infos.values()];
}

export async function schedulePod(pod: Pod, ctx: ReconcileContext<SchedulerData>): Promise<Action> {
  const d = ctx.data;
  if (!isPending(pod, d.schedulerName) || d.assumed.has(ctx.key)) return action.awaitChange();
  let requested: Resources;
  let nonZeroRequested: Resources;
  try {
    requested = podRequests(pod);
    nonZeroRequested = podRequests(pod, true);
  } catch (err) {
    if (!(err instanceof QuantityError)) throw err;
    return unschedulable(d, pod, 'SchedulerError', `invalid resource request: ${err.message}`);
  }
  const result = schedule(pod, nodeInfos(d), d.random);
  if ('unschedulable' in result) return unschedulable(d, pod, 'Unschedulable', result.unschedulable);
  const name = pod.metadata.name ?? '';
  const namespace = pod.metadata.namespace ?? '';
  const binding: KubeObject = {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name, namespace, ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}) },
    target: { apiVersion: 'v1', kind: 'Node', name: result.node },
  };
  // Assumed before the binding is sent, as kube-scheduler does: the watch may show the pod bound before the
  // request returns, and that event is what forgets the assumption.
  d.assumed.set(ctx.key, { node: result.node, requested, nonZeroRequested });
  try {
    await d.client.create(subresourceRef(podsResource, name, 'binding', 'Binding'), binding, { namespace, signal: ctx.signal });
  } catch (err) {
    d.assumed.delete(ctx.key);
    // Bound by someone else, being deleted, or gone: the informer will say which; nothing to retry.
    if (err instanceof ConflictError || err instanceof NotFoundError) return action.awaitChange();
    throw err;
  }
  void d.recorder.normal(pod, 'Scheduled', `Successfully assigned ${objectKey(namespace, name)} to ${result.node}`);
  return action.awaitChange();
}

async function unschedulable(d: SchedulerData, pod: Pod, reason: string, message: string): Promise<Action> {
  try {
    await updateStatus<Pod>(d.client, podsResource, pod, (draft) => {
      draft.status ??= {};
      setCondition((draft.status.conditions ??= []), { type: 'PodScheduled', status: 'False', reason, message });
    });
  } catch (err) {
    if (err instanceof NotFoundError) return action.awaitChange();
    throw err;
  }
  void d.recorder.warning(pod, 'FailedScheduling', message);
  return action.awaitChange();
}
