// A DaemonSet's pods: made from the current revision's template, labelled with its hash and the template
// generation, tolerating node problems and pinned to their node by node affinity so the default scheduler binds
// them there (as upstream since ScheduleDaemonSetPods).
import type { DaemonSet, Pod, PodTemplateSpec } from '../../apimachinery/api/index.ts';
import { DAEMONSET_TEMPLATE_GENERATION_ANNOTATION } from '../../apimachinery/api/apps-v1.ts';
import type { OwnerReference } from '../../apimachinery/object.ts';
import { podFromTemplate } from '../pods/pod-control.ts';
import { REVISION_LABEL } from '../statefulset/identity.ts';
import { bindToNode } from './eligibility.ts';

export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

export function templateGeneration(set: DaemonSet): string | undefined {
  return set.metadata.annotations?.[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION];
}

/** util.IsPodUpdated: the pod carries the current revision's hash, or the set's template generation. */
export function isPodUpdated(set: DaemonSet, pod: Pod, hash: string): boolean {
  const labels = pod.metadata.labels ?? {};
  const generation = templateGeneration(set);
  return (generation !== undefined && labels[TEMPLATE_GENERATION_LABEL] === generation) || labels[REVISION_LABEL] === hash;
}

/** podByCreationTimestampAndPhase: running pods before pending ones, then the oldest first, then by name. */
export function oldestFirst(a: Pod, b: Pod): number {
  const running = (p: Pod): number => (p.status?.phase === 'Running' ? 0 : 1);
  return (
    running(a) - running(b) ||
    (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
    (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '')
  );
}

export function newDaemonPod(set: DaemonSet, template: PodTemplateSpec, hash: string, node: string, ref: OwnerReference): Pod {
  const labels: Record<string, string> = { ...template.metadata?.labels, [REVISION_LABEL]: hash };
  const generation = templateGeneration(set);
  if (generation !== undefined) labels[TEMPLATE_GENERATION_LABEL] = generation;
  const pod = podFromTemplate({ ...template, metadata: { ...template.metadata, labels } }, set.metadata.namespace ?? '', ref, `${set.metadata.name ?? ''}-`);
  pod.spec = bindToNode(pod.spec, node);
  return pod;
}
