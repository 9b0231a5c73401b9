// A StatefulSet pod's identity (the statefulset controller's stateful_set_utils.go): its name `<set>-<ordinal>`,
// hostname and subdomain (so the headless Service names it `<pod>.<serviceName>.<ns>.svc…`), the pod-name and
// pod-index labels, and one claim per volumeClaimTemplate named `<template>-<set>-<ordinal>`, mounted as the
// template's volume.
import type { OwnerReference } from '../../apimachinery/object.ts';
import type { PersistentVolumeClaim, Pod, PodTemplateSpec, StatefulSet, Volume } from '../../apimachinery/api/index.ts';
import { podFromTemplate } from '../pods/pod-control.ts';

export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** On pods: the name of the ControllerRevision they were made from; on ControllerRevisions: their hash. */
export const REVISION_LABEL = 'controller-revision-hash';

const statefulPodName = /^(.*)-([0-9]+)$/;

/** The parent's name and the ordinal a pod name carries; ordinal -1 when it carries none (or not an int32). */
export function parentAndOrdinal(name: string): { parent: string; ordinal: number } {
  const match = statefulPodName.exec(name);
  if (!match) return { parent: '', ordinal: -1 };
  const ordinal = Number(match[2]);
  return { parent: match[1] ?? '', ordinal: ordinal <= 2147483647 ? ordinal : -1 };
}

export function ordinalOf(pod: Pod): number {
  return parentAndOrdinal(pod.metadata.name ?? '').ordinal;
}

export function isMemberOf(set: StatefulSet, pod: Pod): boolean {
  return parentAndOrdinal(pod.metadata.name ?? '').parent === set.metadata.name;
}

export function podName(set: StatefulSet, ordinal: number): string {
  return `${set.metadata.name ?? ''}-${ordinal}`;
}

export function claimName(set: StatefulSet, template: PersistentVolumeClaim, ordinal: number): string {
  return `${template.metadata.name ?? ''}-${set.metadata.name ?? ''}-${ordinal}`;
}

export function startOrdinal(set: StatefulSet): number {
  return set.spec.ordinals?.start ?? 0;
}

export function replicasOf(set: StatefulSet): number {
  return set.spec.replicas ?? 1;
}

/** Whether the pod's ordinal is one the set keeps: [start, start + replicas). */
export function inOrdinalRange(set: StatefulSet, pod: Pod): boolean {
  const ordinal = ordinalOf(pod);
  return ordinal >= startOrdinal(set) && ordinal < startOrdinal(set) + replicasOf(set);
}

export function revisionOf(pod: Pod): string {
  return pod.metadata.labels?.[REVISION_LABEL] ?? '';
}

/** identityMatches: the name, namespace and pod-name label of a member of set. */
export function identityMatches(set: StatefulSet, pod: Pod): boolean {
  const name = pod.metadata.name ?? '';
  const { parent, ordinal } = parentAndOrdinal(name);
  return ordinal >= 0 && parent === set.metadata.name && pod.metadata.namespace === set.metadata.namespace && pod.metadata.labels?.[POD_NAME_LABEL] === name;
}

/** storageMatches: the pod mounts its own claim of every template. */
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  return (set.spec.volumeClaimTemplates ?? []).every((template) => {
    const volume = pod.spec.volumes?.find((v) => v.name === template.metadata.name);
    return volume?.persistentVolumeClaim?.claimName === claimName(set, template, ordinal);
  });
}

/** The labels updateIdentity keeps on a member: its name and ordinal. */
export function identityLabels(pod: Pod): Record<string, string> {
  const name = pod.metadata.name ?? '';
  return { [POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(parentAndOrdinal(name).ordinal) };
}

/** The claims of the pod at ordinal: the templates named for it, labelled with the set's matchLabels. */
export function claimsFor(set: StatefulSet, ordinal: number): PersistentVolumeClaim[] {
  return (set.spec.volumeClaimTemplates ?? []).map((template) => {
    const meta = template.metadata;
    return {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: claimName(set, template, ordinal),
        namespace: set.metadata.namespace ?? '',
        labels: { ...meta.labels, ...set.spec.selector.matchLabels },
        ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      },
      spec: structuredClone(template.spec ?? {}),
    };
  });
}

/** newStatefulSetPod: the template (of the revision the pod is made at) with the pod's identity and claims. */
export function newStatefulSetPod(set: StatefulSet, template: PodTemplateSpec, ordinal: number, revisionName: string, ref: OwnerReference): Pod {
  const pod = podFromTemplate(template, set.metadata.namespace ?? '', ref, `${set.metadata.name ?? ''}-`);
  pod.metadata.name = podName(set, ordinal);
  pod.metadata.labels = { ...pod.metadata.labels, ...identityLabels(pod), [REVISION_LABEL]: revisionName };
  pod.spec.hostname = pod.metadata.name;
  if (set.spec.serviceName) pod.spec.subdomain = set.spec.serviceName;
  const claimVolumes: Volume[] = (set.spec.volumeClaimTemplates ?? []).map((t) => ({
    name: t.metadata.name ?? '',
    persistentVolumeClaim: { claimName: claimName(set, t, ordinal) },
  }));
  const others = (pod.spec.volumes ?? []).filter((v) => !claimVolumes.some((c) => c.name === v.name));
  if (claimVolumes.length + others.length > 0) pod.spec.volumes = [...claimVolumes, ...others];
  return pod;
}
