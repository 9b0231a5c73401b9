// Reading targets from the caches: the pods or nodes a disruption matches, a target's node, containers and IP,
// and whether a target is healthy enough for its injector's clean to matter.
import { objectKey } from '../../apimachinery/object.ts';
import { matchesLabels, type LabelSelector } from '../../apimachinery/label-selector.ts';
import { DISRUPTION_NAMESPACE_LABEL, TARGET_LABEL } from '../api/constants.ts';
import type { Disruption } from '../api/types.ts';
import type { ChaosTarget } from './chaos-pod.ts';
import type { Node, Pod } from '../../apimachinery/api/index.ts';
import { isReadyCondition } from './ready-condition.ts';
import type { DisruptionControllerData } from './options.ts';

export const CHAOS_POD_BY_DISRUPTION = 'chaos.datadoghq.com/by-disruption';
export const CHAOS_POD_BY_TARGET = 'chaos.datadoghq.com/by-target';

export function isNodeLevel(d: Disruption): boolean {
  return d.spec.level === 'node';
}

/** Pods (in the disruption's namespace) or nodes matching the selector, whatever their state. */
export function matchingTargets(x: DisruptionControllerData, d: Disruption, selector: LabelSelector): Array<Pod | Node> {
  const candidates: Array<Pod | Node> = isNodeLevel(d) ? x.nodes.store.list() : x.pods.store.list(d.metadata.namespace);
  return candidates.filter((o) => matchesLabels(selector, o.metadata.labels));
}

/** Chaos pods of any disruption on this target (at pod level, on a pod of the disruption's namespace). */
export function chaosPodsOnTarget(x: DisruptionControllerData, d: Disruption, target: string): Pod[] {
  const cached = x.pods.byIndex(CHAOS_POD_BY_TARGET, target);
  const names = new Set(cached.map((p) => p.metadata.name));
  const created = x.expectations.pending(x.now().getTime()).filter((p) => p.metadata.labels?.[TARGET_LABEL] === target && !names.has(p.metadata.name));
  return [...cached, ...created].filter((p) => p.metadata.namespace === x.config.chaosNamespace && (isNodeLevel(d) || p.metadata.labels?.[DISRUPTION_NAMESPACE_LABEL] === d.metadata.namespace));
}

export function targetObject(x: DisruptionControllerData, d: Disruption, name: string): Pod | Node | undefined {
  return isNodeLevel(d) ? x.nodes.store.get(name) : x.pods.store.get(objectKey(d.metadata.namespace, name));
}

export class ContainerNotFoundError extends Error {
  override readonly name = 'ContainerNotFoundError' as const;
}

/** A targeted container has no ID yet (still being created): the pod's next status update brings the disruption back. */
export class ContainerNotStartedError extends Error {
  override readonly name = 'ContainerNotStartedError' as const;
}

/**
 * What the chaos pod needs of its target. Containers: spec.containers when given (each must exist), else every
 * running container and init container, as name → runtime://id.
 */
export function chaosTarget(d: Disruption, target: Pod | Node): ChaosTarget {
  const name = target.metadata.name ?? '';
  if (isNodeLevel(d)) return { name, nodeName: name, containers: [], podIP: '' };
  const pod = target as Pod;
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  const wanted = d.spec.containers ?? [];
  let containers: Array<[string, string]>;
  if (wanted.length > 0) {
    containers = wanted.map((c) => {
      const s = statuses.find((st) => st.name === c);
      if (!s) throw new ContainerNotFoundError(`targeted container ${c} does not exist in pod ${name}`);
      // Upstream passes "name;" and its injector fails on it: wait for the runtime to give the container an ID.
      if (!s.containerID) throw new ContainerNotStartedError(`targeted container ${c} of pod ${name} has not started yet`);
      return [c, s.containerID];
    });
  } else {
    containers = statuses.filter((s) => s.state?.running !== undefined && s.containerID).map((s) => [s.name, s.containerID ?? '']);
  }
  return { name, nodeName: pod.spec?.nodeName ?? '', containers, podIP: pod.status?.podIP ?? '' };
}

/**
 * upstream's TargetIsHealthy: a target pod that exists and runs (and, for a nodeFailure, whose node exists), or a
 * target node that exists and is Ready.
 */
export function targetIsHealthy(x: DisruptionControllerData, d: Disruption, chaosPod: Pod): boolean {
  const name = chaosPod.metadata.labels?.[TARGET_LABEL] ?? '';
  if (isNodeLevel(d)) {
    const node = x.nodes.store.get(name);
    return node !== undefined && isReadyCondition(node.status?.conditions) !== undefined;
  }
  const pod = x.pods.store.get(objectKey(d.metadata.namespace, name));
  if (!pod || pod.status?.phase !== 'Running') return false;
  if (d.spec.nodeFailure) return x.nodes.store.get(pod.spec?.nodeName ?? '') !== undefined;
  return true;
}
