// What a PodDisruptionBudget allows, after kube-controller-manager's disruption controller (getExpectedPodCount,
// countHealthyPods, buildDisruptedPodMap): the pods expected are those selected (minAvailable as a number) or the
// scale of their controllers (a percentage or maxUnavailable, rounded up); healthy pods are the Ready ones not
// deleting and not just evicted; disruptionsAllowed is what is healthy beyond what is desired.
import type { Deployment, Pod, PodDisruptionBudget, PodDisruptionBudgetStatus, ReplicaSet, StatefulSet } from '../../apimachinery/api/index.ts';
import type { IntOrString } from '../../apimachinery/api/index.ts';
import type { Informer } from '../../runtime/index.ts';
import { controllerOf } from '../pods/owner.ts';
import { isPodReady } from '../pods/pod-state.ts';

/** How long an eviction's entry in disruptedPods counts a pod as gone before the controller stops believing it. */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

export interface ScaleSources {
  replicaSets: Informer<ReplicaSet>;
  deployments: Informer<Deployment>;
  statefulSets: Informer<StatefulSet>;
}

export class ScaleError extends Error {
  override readonly name = 'ScaleError' as const;
}

/** GetScaledValueFromIntOrPercent: a number as it is, a percentage of `total` rounded up. */
export function scaledValue(value: IntOrString, total: number): number {
  if (typeof value === 'number') return value;
  const percent = /^(\d+)%$/.exec(value);
  if (!percent) throw new ScaleError(`invalid value for IntOrString: invalid value "${value}"`);
  return Math.ceil((Number(percent[1]) * total) / 100);
}

/** The replicas of the controller of `pod` (a ReplicaSet's Deployment when it has one), or undefined when unmanaged. */
function controllerScale(pod: Pod, sources: ScaleSources, namespace: string): { key: string; scale: number } | undefined {
  const ref = controllerOf(pod);
  if (!ref) return undefined;
  const find = <T extends { metadata: { uid?: string } }>(informer: Informer<T>, name: string, uid: string): T => {
    const found = informer.get(name, namespace);
    if (!found || found.metadata.uid !== uid) throw new ScaleError(`found no controller ${ref.kind} ${namespace}/${name} for pod ${pod.metadata.name ?? ''}`);
    return found;
  };
  if (ref.kind === 'ReplicaSet' && ref.apiVersion.startsWith('apps/')) {
    const rs = find(sources.replicaSets, ref.name, ref.uid);
    const owner = controllerOf(rs);
    if (owner?.kind === 'Deployment' && owner.apiVersion.startsWith('apps/')) {
      const deployment = find(sources.deployments, owner.name, owner.uid);
      return { key: `Deployment/${owner.uid}`, scale: deployment.spec.replicas ?? 1 };
    }
    return { key: `ReplicaSet/${ref.uid}`, scale: rs.spec.replicas ?? 1 };
  }
  if (ref.kind === 'StatefulSet' && ref.apiVersion.startsWith('apps/')) {
    return { key: `StatefulSet/${ref.uid}`, scale: find(sources.statefulSets, ref.name, ref.uid).spec.replicas ?? 1 };
  }
  throw new ScaleError(`found no scale for the ${ref.kind} ${namespace}/${ref.name} controlling pod ${pod.metadata.name ?? ''}`);
}

/** getExpectedScale: the sum of the scales of the pods' controllers, each counted once; unmanaged pods are named. */
function expectedScale(pods: readonly Pod[], sources: ScaleSources, namespace: string): { expected: number; unmanaged: string[] } {
  const scales = new Map<string, number>();
  const unmanaged: string[] = [];
  for (const pod of pods) {
    const found = controllerScale(pod, sources, namespace);
    if (found) scales.set(found.key, found.scale);
    else unmanaged.push(pod.metadata.name ?? '');
  }
  return { expected: [...scales.values()].reduce((a, b) => a + b, 0), unmanaged };
}

export interface BudgetCounts {
  expectedPods: number;
  desiredHealthy: number;
  unmanaged: string[];
}

export function expectedPodCount(budget: PodDisruptionBudget, pods: readonly Pod[], sources: ScaleSources): BudgetCounts {
  const spec = budget.spec ?? {};
  const namespace = budget.metadata.namespace ?? '';
  if (spec.maxUnavailable !== undefined) {
    const { expected, unmanaged } = expectedScale(pods, sources, namespace);
    return { expectedPods: expected, desiredHealthy: Math.max(0, expected - scaledValue(spec.maxUnavailable, expected)), unmanaged };
  }
  if (spec.minAvailable !== undefined && typeof spec.minAvailable === 'string') {
    const { expected, unmanaged } = expectedScale(pods, sources, namespace);
    return { expectedPods: expected, desiredHealthy: scaledValue(spec.minAvailable, expected), unmanaged };
  }
  return { expectedPods: pods.length, desiredHealthy: typeof spec.minAvailable === 'number' ? spec.minAvailable : 0, unmanaged: [] };
}

/** buildDisruptedPodMap: evictions still pending (pod present, not deleting, within the timeout), and when the next lapses. */
export function pendingDisruptions(budget: PodDisruptionBudget, pods: readonly Pod[], now: number): { disrupted: Record<string, string>; nextExpiry: number | undefined } {
  const recorded = budget.status?.disruptedPods ?? {};
  const disrupted: Record<string, string> = {};
  let nextExpiry: number | undefined;
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    const at = recorded[name];
    if (at === undefined || pod.metadata.deletionTimestamp !== undefined) continue;
    const expiry = Date.parse(at) + DELETION_TIMEOUT_MS;
    if (expiry < now) continue;
    disrupted[name] = at;
    nextExpiry = nextExpiry === undefined ? expiry : Math.min(nextExpiry, expiry);
  }
  return { disrupted, nextExpiry };
}

/** countHealthyPods: Ready, not deleting, not just evicted. */
export function currentHealthy(pods: readonly Pod[], disrupted: Record<string, string>): number {
  return pods.filter((pod) => pod.metadata.deletionTimestamp === undefined && disrupted[pod.metadata.name ?? ''] === undefined && isPodReady(pod)).length;
}

export function budgetStatus(counts: BudgetCounts, healthy: number, disrupted: Record<string, string>, generation: number): PodDisruptionBudgetStatus {
  const allowed = counts.expectedPods <= 0 ? 0 : Math.max(0, healthy - counts.desiredHealthy);
  return {
    observedGeneration: generation,
    ...(Object.keys(disrupted).length > 0 ? { disruptedPods: disrupted } : {}),
    disruptionsAllowed: allowed,
    currentHealthy: healthy,
    desiredHealthy: counts.desiredHealthy,
    expectedPods: counts.expectedPods,
  };
}
