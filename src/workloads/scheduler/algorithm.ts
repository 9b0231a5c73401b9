// One scheduling cycle, after kube-scheduler's default profile: the filter plugins in its order (NodeUnschedulable,
// TaintToleration, NodeAffinity, NodeResourcesFit; a node fails at the first plugin that rejects it), then the
// NodeResourcesFit LeastAllocated score (free CPU and memory after placing the pod, in equal weights), ties broken
// at random as selectHost does. The unschedulable message is FitError's.
import type { Node, Pod, Taint } from '../../apimachinery/api/index.ts';
import { matchesNodeAffinity } from './node-affinity.ts';
import { add, allocatable, podRequests, type Resources } from './resources.ts';
import { TAINT_UNSCHEDULABLE } from '../api/taints.ts';
import { effectiveTaints, toleratedBy } from './taints.ts';

/** A node with what the pods already placed on it ask for. */
export interface NodeInfo {
  node: Node;
  requested: Resources;
  /** Requests counting the scoring defaults for containers that request nothing. */
  nonZeroRequested: Resources;
  pods: number;
}

export type ScheduleResult = { node: string } | { unschedulable: string };

const unschedulableTaint: Taint = { key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' };

/** Why the pod does not fit the node; empty when it fits. */
export function filterReasons(pod: Pod, request: Resources, info: NodeInfo): string[] {
  const node = info.node;
  if (node.spec?.unschedulable && !toleratedBy(pod.spec.tolerations, unschedulableTaint)) return ['node(s) were unschedulable'];
  const untolerated = effectiveTaints(node).find((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !toleratedBy(pod.spec.tolerations, t));
  if (untolerated) return [`node(s) had untolerated taint {${untolerated.key}: ${untolerated.value ?? ''}}`];
  if (!matchesNodeAffinity(pod, node)) return ["node(s) didn't match Pod's node affinity/selector"];
  const offered = allocatable(node);
  const reasons: string[] = [];
  if (info.pods + 1 > offered.pods) reasons.push('Too many pods');
  if (request.milliCpu > 0 && request.milliCpu > offered.milliCpu - info.requested.milliCpu) reasons.push('Insufficient cpu');
  if (request.memory > 0 && request.memory > offered.memory - info.requested.memory) reasons.push('Insufficient memory');
  return reasons;
}

function leastAllocated(requested: number, capacity: number): number {
  if (capacity <= 0 || requested > capacity) return 0;
  return Math.floor(((capacity - requested) * 100) / capacity);
}

export function score(pod: Pod, info: NodeInfo): number {
  const offered = allocatable(info.node);
  const wanted = add(info.nonZeroRequested, podRequests(pod, true));
  return Math.floor((leastAllocated(wanted.milliCpu, offered.milliCpu) + leastAllocated(wanted.memory, offered.memory)) / 2);
}

/** FitError.Error(): "0/N nodes are available: <count> <reason>, … ." with the reasons sorted as strings. */
export function fitErrorMessage(nodes: number, histogram: ReadonlyMap<string, number>): string {
  const reasons = [...histogram].map(([reason, count]) => `${count} ${reason}`).sort();
  return `0/${nodes} nodes are available: ${reasons.join(', ')}.`;
}

export function schedule(pod: Pod, nodes: readonly NodeInfo[], random: () => number = Math.random): ScheduleResult {
  if (nodes.length === 0) return { unschedulable: 'no nodes available to schedule pods' };
  const request = podRequests(pod);
  const histogram = new Map<string, number>();
  const feasible: NodeInfo[] = [];
  for (const info of nodes) {
    const reasons = filterReasons(pod, request, info);
    if (reasons.length === 0) feasible.push(info);
    for (const reason of reasons) histogram.set(reason, (histogram.get(reason) ?? 0) + 1);
  }
  if (feasible.length === 0) return { unschedulable: fitErrorMessage(nodes.length, histogram) };
  let best: NodeInfo[] = [];
  let bestScore = -1;
  for (const info of feasible) {
    const s = score(pod, info);
    if (s > bestScore) {
      best = [info];
      bestScore = s;
    } else if (s === bestScore) best.push(info);
  }
  const chosen = best[Math.floor(random() * best.length)] ?? best[0]!;
  return { node: chosen.node.metadata.name ?? '' };
}
