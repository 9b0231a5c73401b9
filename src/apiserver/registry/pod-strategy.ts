// The pod registry strategy: defaults and validation of the spec (pod-spec.ts), a new pod's status, which
// spec fields an update may change, and graceful deletion: a pod running on a node is not removed at once
// but marked with a deletion grace period, which its kubelet honours before it deletes the pod for good.
import { isPlainObject, type KubeObject, type StatusCause } from '../../apimachinery/object.ts';
import { defaultPodSpec, validatePodSpec } from './pod-spec.ts';
import type { ResourceType } from './resource-type.ts';
import { podQosClass } from './workload-strategies.ts';

type Json = Record<string, unknown>;

/** JSON with object keys sorted at every level, so that key order never counts as a change. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
type Strategy = Pick<ResourceType, 'prepareForCreate' | 'prepareForUpdate' | 'validate' | 'gracefulDeletePeriod'>;

/** The DefaultTolerationSeconds admission plugin: a pod waits 5 minutes on a node that is not ready or unreachable. */
const DEFAULT_TOLERATIONS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'].map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }));

const UPDATABLE_FIELDS =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function specOf(pod: KubeObject): Json {
  if (!isPlainObject(pod['spec'])) pod['spec'] = {};
  return pod['spec'] as Json;
}

function addDefaultTolerations(spec: Json): void {
  const tolerations = Array.isArray(spec['tolerations']) ? (spec['tolerations'] as Json[]) : [];
  for (const toleration of DEFAULT_TOLERATIONS) {
    const present = tolerations.some((t) => isPlainObject(t) && t['key'] === toleration.key && (t['effect'] === undefined || t['effect'] === 'NoExecute'));
    if (!present) tolerations.push({ ...toleration });
  }
  spec['tolerations'] = tolerations;
}

/** The spec with what an update may change blanked out, to compare old and new (ValidatePodUpdate). */
function fixedPart(spec: Json, old: Json): string {
  const copy = structuredClone(spec);
  for (const key of ['containers', 'initContainers']) {
    if (Array.isArray(copy[key])) for (const container of copy[key] as unknown[]) if (isPlainObject(container)) delete container['image'];
  }
  delete copy['activeDeadlineSeconds'];
  delete copy['terminationGracePeriodSeconds'];
  // pods/binding sets nodeName once; tolerations may only grow.
  if (!old['nodeName']) delete copy['nodeName'];
  const oldTolerations = Array.isArray(old['tolerations']) ? (old['tolerations'] as unknown[]) : [];
  if (Array.isArray(copy['tolerations'])) copy['tolerations'] = (copy['tolerations'] as unknown[]).slice(0, oldTolerations.length);
  return canonicalJson(copy);
}

function updateCauses(pod: KubeObject, old: KubeObject): StatusCause[] {
  const spec = specOf(pod);
  const before = specOf(old);
  return fixedPart(spec, before) === fixedPart(before, before) ? [] : [{ reason: 'FieldValueForbidden', field: 'spec', message: `Forbidden: ${UPDATABLE_FIELDS}` }];
}

export const podStrategy: Strategy = {
  prepareForCreate(pod) {
    const spec = specOf(pod);
    defaultPodSpec(spec);
    addDefaultTolerations(spec);
    pod['status'] = { phase: 'Pending', qosClass: podQosClass(pod) };
  },
  prepareForUpdate(pod) {
    defaultPodSpec(specOf(pod));
  },
  validate(pod, old) {
    const causes = validatePodSpec(specOf(pod), 'spec');
    if (old) causes.push(...updateCauses(pod, old));
    return causes;
  },
  /**
   * CheckGracefulDelete: the grace period asked for, else the pod's terminationGracePeriodSeconds; none for a pod
   * that no node runs (unscheduled or finished), and at least 1 s for a negative one.
   */
  gracefulDeletePeriod(pod, requested) {
    const spec = isPlainObject(pod['spec']) ? pod['spec'] : {};
    const phase = isPlainObject(pod['status']) ? pod['status']['phase'] : undefined;
    if (typeof spec['nodeName'] !== 'string' || spec['nodeName'] === '' || phase === 'Succeeded' || phase === 'Failed') return 0;
    const period = requested ?? (typeof spec['terminationGracePeriodSeconds'] === 'number' ? spec['terminationGracePeriodSeconds'] : 0);
    return period < 0 ? 1 : period;
  },
};
