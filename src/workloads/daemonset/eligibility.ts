// Which nodes a DaemonSet's pod belongs on (the daemon controller's NodeShouldRunDaemonPod): the pod, with the
// tolerations every daemon pod gets, must match the node's selector and required node affinity and tolerate its
// NoSchedule and NoExecute taints to be placed; a pod already there keeps running unless a NoExecute taint it does
// not tolerate evicts it. Only spec.taints count, as upstream: the scheduler handles condition taints itself.
import type { Node, Pod, PodSpec, Taint, Toleration } from '../../apimachinery/api/index.ts';
import { TAINT_NOT_READY, TAINT_UNREACHABLE, TAINT_UNSCHEDULABLE } from '../api/taints.ts';
import { matchesNodeAffinity } from '../scheduler/node-affinity.ts';
import { toleratedBy } from '../scheduler/taints.ts';

/** util.AddOrUpdateDaemonPodTolerations: daemon pods ride out node problems and cordons. */
const DAEMON_TOLERATIONS: readonly Toleration[] = [
  { key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute' },
  { key: TAINT_UNREACHABLE, operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: TAINT_UNSCHEDULABLE, operator: 'Exists', effect: 'NoSchedule' },
];
const NETWORK_UNAVAILABLE: Toleration = { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' };

/** The template's tolerations plus the daemon ones it lacks (host-network pods also tolerate network-unavailable). */
export function daemonTolerations(spec: PodSpec): Toleration[] {
  const tolerations = [...(spec.tolerations ?? [])];
  const extra = spec.hostNetwork === true ? [...DAEMON_TOLERATIONS, NETWORK_UNAVAILABLE] : DAEMON_TOLERATIONS;
  for (const t of extra) if (!tolerations.some((have) => have.key === t.key && have.effect === t.effect && (have.operator ?? 'Equal') === t.operator)) tolerations.push({ ...t });
  return tolerations;
}

function untolerated(taints: readonly Taint[], tolerations: readonly Toleration[], effects: readonly string[]): Taint | undefined {
  return taints.find((taint) => effects.includes(taint.effect) && !toleratedBy(tolerations, taint));
}

export interface Placement {
  /** A daemon pod should be created on the node. */
  shouldRun: boolean;
  /** A daemon pod already on the node may stay. */
  shouldContinueRunning: boolean;
}

export function placementOn(node: Node, spec: PodSpec): Placement {
  const pod = { spec: { ...spec, tolerations: daemonTolerations(spec) } } as Pod;
  if (!matchesNodeAffinity(pod, node)) return { shouldRun: false, shouldContinueRunning: false };
  const taints = node.spec?.taints ?? [];
  const tolerations = pod.spec.tolerations ?? [];
  if (untolerated(taints, tolerations, ['NoExecute'])) return { shouldRun: false, shouldContinueRunning: false };
  const fits = untolerated(taints, tolerations, ['NoSchedule']) === undefined;
  return { shouldRun: fits, shouldContinueRunning: true };
}

/** util.GetTargetNodeName: the node a pod is bound to, or the one its node affinity names. */
export function targetNode(pod: Pod): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  for (const term of pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    const field = term.matchFields?.find((f) => f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1);
    if (field?.values?.[0] !== undefined) return field.values[0];
  }
  return undefined;
}

/** util.ReplaceDaemonSetPodNodeNameNodeAffinity: the pod's required node affinity becomes `metadata.name In [node]`. */
export function bindToNode(spec: PodSpec, node: string): PodSpec {
  const affinity = spec.affinity ?? {};
  const nodeAffinity = affinity.nodeAffinity ?? {};
  return {
    ...spec,
    tolerations: daemonTolerations(spec),
    affinity: {
      ...affinity,
      nodeAffinity: { ...nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] } },
    },
  };
}
