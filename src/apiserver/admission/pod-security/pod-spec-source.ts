// Where a pod spec sits in the objects Pod Security Admission looks at (DefaultPodSpecExtractor): a Pod's own,
// and the pod template of the built-in workload kinds. Custom resources are never looked into.
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { ResourceType } from '../../registry/resource-type.ts';
import { object, type Json, type PodParts } from './pod-fields.ts';

/** group/plural → the path from the object to its PodTemplateSpec. */
const TEMPLATE_PATHS: Readonly<Record<string, readonly string[]>> = {
  '/replicationcontrollers': ['spec', 'template'],
  '/podtemplates': ['template'],
  'apps/replicasets': ['spec', 'template'],
  'apps/deployments': ['spec', 'template'],
  'apps/statefulsets': ['spec', 'template'],
  'apps/daemonsets': ['spec', 'template'],
  'batch/jobs': ['spec', 'template'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template'],
};

export function isPod(type: ResourceType): boolean {
  return !type.custom && type.group === '' && type.plural === 'pods';
}

export function isNamespace(type: ResourceType): boolean {
  return !type.custom && type.group === '' && type.plural === 'namespaces';
}

export function hasPodTemplate(type: ResourceType): boolean {
  return !type.custom && Object.hasOwn(TEMPLATE_PATHS, `${type.group}/${type.plural}`);
}

function parts(metadata: Json | undefined, spec: Json | undefined): PodParts | undefined {
  if (!spec) return undefined;
  const annotations = object(metadata?.['annotations']) ?? {};
  return { annotations: annotations as Record<string, string>, spec };
}

export function podParts(pod: KubeObject): PodParts {
  return parts(object(pod.metadata), object(pod['spec'])) ?? { annotations: {}, spec: {} };
}

/** The pod template of a workload, or undefined when it has none. */
export function templateParts(type: ResourceType, workload: KubeObject): PodParts | undefined {
  let template: Json | undefined = workload;
  for (const step of TEMPLATE_PATHS[`${type.group}/${type.plural}`] ?? []) template = object(template?.[step]);
  return parts(object(template?.['metadata']), object(template?.['spec']));
}
