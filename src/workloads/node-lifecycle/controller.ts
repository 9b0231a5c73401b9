// The node lifecycle controller (kube-controller-manager's nodelifecycle, without taint-based eviction):
//
// - Health: a node is healthy while its kubelet heartbeats, by renewing its Lease in kube-node-lease or by a
//   new Ready lastHeartbeatTime. As upstream, the time a new heartbeat is *observed* counts (no clock skew), and
//   a node not heard of for the grace period (40 s by default) gets every condition Unknown ("Kubelet stopped
//   posting node status."), a NodeNotReady Event, and its pods' Ready condition set False. One timer per node,
//   set to when its grace runs out; each heartbeat moves it.
// - Taints (TaintNodesByCondition and the NoExecute pass): Ready=False gives node.kubernetes.io/not-ready,
//   Ready=Unknown node.kubernetes.io/unreachable (NoSchedule and NoExecute), spec.unschedulable gives
//   node.kubernetes.io/unschedulable:NoSchedule; they go when the cause goes.
import { nowTime } from '../../apimachinery/time.ts';
import type { JsonPatchOperation, KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { Action, Controller, EventRecorder, Informer, Manager, ReconcileContext } from '../../runtime/index.ts';
import { action, getCondition, setCondition, updateStatus } from '../../runtime/index.ts';
import { leasesResource, NODE_LEASE_NAMESPACE, nodesResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import { TAINT_NOT_READY, TAINT_UNREACHABLE, TAINT_UNSCHEDULABLE } from '../api/taints.ts';
import type { Lease, Node, Pod, Taint } from '../../apimachinery/api/index.ts';
import { ensureIndex, POD_NODE_INDEX, podNodeIndex } from '../pods/indexes.ts';
import { isPodReady, podCondition } from '../pods/pod-state.ts';

/** The conditions a kubelet reports, all set Unknown when it goes silent. */
const kubeletConditions = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

export interface NodeLifecycleOptions {
  name?: string;
  /** How long a node may stay silent before it is Unknown (--node-monitor-grace-period); default 40 s. */
  gracePeriodMs?: number;
  now?: () => Date;
}

interface Health {
  renewTime: string | undefined;
  heartbeat: string | undefined;
  /** When the last new heartbeat was observed (ms since the epoch). */
  probeAt: number;
}

interface NodeLifecycleData {
  client: KubeClient;
  recorder: EventRecorder;
  leases: Informer<Lease>;
  pods: Informer<Pod>;
  health: Map<string, Health>;
  gracePeriodMs: number;
  now(): Date;
}

export function registerNodeLifecycleController(mgr: Manager, options: NodeLifecycleOptions = {}): Controller<Node, NodeLifecycleData> {
  const nodes = mgr.informer<Node>(nodesResource);
  const leases = mgr.informer<Lease>(leasesResource, { namespace: NODE_LEASE_NAMESPACE });
  const pods = mgr.informer<Pod>(podsResource);
  ensureIndex(pods, POD_NODE_INDEX, podNodeIndex);
  const health = new Map<string, Health>();
  nodes.addEventHandler({ onDelete: (node) => health.delete(node.metadata.name ?? '') });
  const data: NodeLifecycleData = {
    client: mgr.client,
    recorder: mgr.recorder('node-controller'),
    leases,
    pods,
    health,
    gracePeriodMs: options.gracePeriodMs ?? 40_000,
    now: options.now ?? (() => new Date()),
  };
  return mgr
    .controller<Node, NodeLifecycleData>({ name: options.name ?? 'node-lifecycle', for: nodesResource, data, concurrency: 2, reconcile: monitorNode })
    .watches(leases, (lease: Lease) => [lease.metadata.name ?? ''])
    .watches(pods, (pod: Pod) => (pod.spec?.nodeName ? [pod.spec.nodeName] : []), { predicates: [(e) => e.type !== 'deleted' && isPodReady(e.object)] });
}

/** Records a new heartbeat (lease renewal or Ready heartbeat) at the time it is seen. */
function observe(d: NodeLifecycleData, node: Node, now: number): Health {
  const name = node.metadata.name ?? '';
  const renewTime = d.leases.get(name, NODE_LEASE_NAMESPACE)?.spec?.renewTime;
  const heartbeat = node.status?.conditions?.find((c) => c.type === 'Ready')?.lastHeartbeatTime;
  const known = d.health.get(name);
  if (known && known.renewTime === renewTime && known.heartbeat === heartbeat) return known;
  const fresh = { renewTime, heartbeat, probeAt: now };
  d.health.set(name, fresh);
  return fresh;
}

export async function monitorNode(node: Node, ctx: ReconcileContext<NodeLifecycleData>): Promise<Action> {
  const d = ctx.data;
  const now = d.now();
  const health = observe(d, node, now.getTime());
  const silentFor = now.getTime() - health.probeAt;
  let current = node;
  try {
    if (silentFor >= d.gracePeriodMs) current = await markUnknown(d, current, now, ctx.signal);
    current = await reconcileTaints(d, current, now, ctx.signal);
    if (getCondition(current.status?.conditions, 'Ready')?.status !== 'True' && getCondition(current.status?.conditions, 'Ready')) await markPodsNotReady(d, current);
  } catch (err) {
    if (err instanceof NotFoundError) return action.awaitChange();
    throw err;
  }
  return silentFor < d.gracePeriodMs ? action.requeueAfter(d.gracePeriodMs - silentFor) : action.awaitChange();
}

/** The kubelet went silent: every condition it owns becomes Unknown (written only once, on the transition). */
async function markUnknown(d: NodeLifecycleData, node: Node, now: Date, signal: AbortSignal): Promise<Node> {
  const wasReady = getCondition(node.status?.conditions, 'Ready')?.status === 'True';
  const updated = await updateStatus<Node>(
    d.client,
    nodesResource,
    node,
    (draft) => {
      const conditions = ((draft.status ??= {}).conditions ??= []);
      for (const type of kubeletConditions) {
        const existing = conditions.find((c) => c.type === type);
        if (!existing) {
          setCondition(conditions, { type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.' }, now);
          const added = conditions.find((c) => c.type === type);
          if (added) added.lastHeartbeatTime = node.metadata.creationTimestamp ?? nowTime(now);
        } else if (existing.status !== 'Unknown') {
          setCondition(conditions, { type, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }, now);
        }
      }
    },
    { attempts: 1, signal },
  );
  if (wasReady) void d.recorder.normal(node, 'NodeNotReady', `Node ${node.metadata.name ?? ''} status is now: NodeNotReady`);
  return updated;
}

/** Which managed taints (`key:effect`) the node should carry; without a Ready condition its condition taints are left alone. */
function wantedTaints(node: Node): Map<string, boolean> {
  const wanted = new Map<string, boolean>();
  const ready = getCondition(node.status?.conditions, 'Ready');
  if (ready) {
    wanted.set(`${TAINT_NOT_READY}:NoSchedule`, ready.status === 'False');
    wanted.set(`${TAINT_NOT_READY}:NoExecute`, ready.status === 'False');
    wanted.set(`${TAINT_UNREACHABLE}:NoSchedule`, ready.status === 'Unknown');
    wanted.set(`${TAINT_UNREACHABLE}:NoExecute`, ready.status === 'Unknown');
  }
  wanted.set(`${TAINT_UNSCHEDULABLE}:NoSchedule`, node.spec?.unschedulable === true);
  return wanted;
}

async function reconcileTaints(d: NodeLifecycleData, node: Node, now: Date, signal: AbortSignal): Promise<Node> {
  const wanted = wantedTaints(node);
  const taints = node.spec?.taints ?? [];
  const id = (t: Taint): string => `${t.key}:${t.effect}`;
  const kept = taints.filter((t) => wanted.get(id(t)) !== false);
  for (const [key, want] of wanted) {
    if (!want || kept.some((t) => id(t) === key)) continue;
    const [taintKey = '', effect] = key.split(':') as [string, Taint['effect']];
    kept.push({ key: taintKey, effect, ...(effect === 'NoExecute' ? { timeAdded: nowTime(now) } : {}) });
  }
  if (kept.length === taints.length && kept.every((t, i) => t === taints[i])) return node;
  // Guarded by the taints read (or, without any, the resourceVersion): kubelet status writes do not conflict,
  // a concurrent `kubectl taint` does.
  const ops: JsonPatchOperation[] = node.spec?.taints
    ? [{ op: 'test', path: '/spec/taints', value: taints }, kept.length > 0 ? { op: 'replace', path: '/spec/taints', value: kept } : { op: 'remove', path: '/spec/taints' }]
    : [{ op: 'test', path: '/metadata/resourceVersion', value: node.metadata.resourceVersion }, node.spec ? { op: 'add', path: '/spec/taints', value: kept } : { op: 'add', path: '/spec', value: { taints: kept } }];
  return d.client.patch<Node>(nodesResource, node.metadata.name ?? '', ops, { type: 'json', signal });
}

/** MarkPodsNotReady: pods on a node that is not Ready are not Ready either. */
async function markPodsNotReady(d: NodeLifecycleData, node: Node): Promise<void> {
  const name = node.metadata.name ?? '';
  for (const pod of d.pods.byIndex(POD_NODE_INDEX, name)) {
    if (!isPodReady(pod)) continue;
    const ready = podCondition(pod, 'Ready');
    try {
      await updateStatus<Pod>(d.client, podsResource, pod, (draft) => {
        setCondition(((draft.status ??= {}).conditions ??= []), { type: 'Ready', status: 'False', reason: ready?.reason ?? '', message: ready?.message ?? '' });
      });
    } catch (err) {
      if (err instanceof NotFoundError) continue;
      throw err;
    }
    void d.recorder.warning(pod, 'NodeNotReady', 'Node is not ready');
  }
}
