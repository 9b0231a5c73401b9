// Defaulting and validation of the workload kinds (batch/v1 Job, apps/v1 Deployment and ReplicaSet), after
// kube-apiserver's SetDefaults_* and the registry strategies: what the controllers rely on being set (a Job's
// generated selector and pod labels, a Deployment's strategy), and the checks that keep them from fighting
// over pods (a selector that matches the template, immutable selectors).
import { fromLabelSelectorObject, LabelSelectorError, matchesLabels, type LabelSelectorObject } from '../../apimachinery/label-selector.ts';
import { isPlainObject, type KubeObject, type StatusCause } from '../../apimachinery/object.ts';
import { defaultPodSpec, validatePodSpec } from './pod-spec.ts';
import type { ResourceType } from './resource-type.ts';

type Json = Record<string, unknown>;
type Strategy = Pick<ResourceType, 'prepareForCreate' | 'prepareForUpdate' | 'validate'>;

export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
export const LEGACY_JOB_NAME_LABEL = 'job-name';
export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';

export function child(parent: Json, key: string): Json {
  const value = parent[key];
  if (isPlainObject(value)) return value;
  const created: Json = {};
  parent[key] = created;
  return created;
}

export function record(value: unknown): Json {
  return isPlainObject(value) ? value : {};
}

/** Go's %#v of a map[string]string, as field.Invalid prints label sets. */
function goStringMap(map: Json): string {
  const entries = Object.keys(map)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(String(map[k]))}`);
  return `map[string]string{${entries.join(', ')}}`;
}

function goLabelSelector(selector: Json): string {
  const labels = isPlainObject(selector['matchLabels']) ? goStringMap(selector['matchLabels']) : 'map[string]string(nil)';
  const expressions = Array.isArray(selector['matchExpressions']) && selector['matchExpressions'].length > 0 ? JSON.stringify(selector['matchExpressions']) : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${labels}, MatchExpressions:${expressions}}`;
}

export function nonNegative(spec: Json, field: string, path: string, causes: StatusCause[]): void {
  const value = spec[field];
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    causes.push({ reason: 'FieldValueInvalid', field: `${path}.${field}`, message: `Invalid value: ${JSON.stringify(value)}: must be greater than or equal to 0` });
  }
}

/** A selector that is present, non-empty, parseable and matches the pod template's labels. */
export function selectorCauses(spec: Json, emptyMessage: string): StatusCause[] {
  const selector = spec['selector'];
  if (!isPlainObject(selector)) return [{ reason: 'FieldValueRequired', field: 'spec.selector', message: 'Required value' }];
  const labels = record(record(record(spec['template'])['metadata'])['labels']);
  let requirements;
  try {
    requirements = fromLabelSelectorObject(selector as LabelSelectorObject);
  } catch (error) {
    if (!(error instanceof LabelSelectorError)) throw error;
    return [{ reason: 'FieldValueInvalid', field: 'spec.selector', message: `Invalid value: ${goLabelSelector(selector)}: ${error.message}` }];
  }
  if (requirements.length === 0) return [{ reason: 'FieldValueInvalid', field: 'spec.selector', message: `Invalid value: ${goLabelSelector(selector)}: ${emptyMessage}` }];
  if (!matchesLabels(requirements, labels as Record<string, string>)) {
    return [{ reason: 'FieldValueInvalid', field: 'spec.template.metadata.labels', message: `Invalid value: ${goStringMap(labels)}: \`selector\` does not match template \`labels\`` }];
  }
  return [];
}

export function immutableSelector(spec: Json, old: KubeObject | undefined): StatusCause[] {
  if (!old) return [];
  const before = record(old['spec'])['selector'];
  if (JSON.stringify(before) === JSON.stringify(spec['selector'])) return [];
  return [{ reason: 'FieldValueInvalid', field: 'spec.selector', message: `Invalid value: ${goLabelSelector(record(spec['selector']))}: field is immutable` }];
}

/** The pod template's spec: defaulted and validated as a pod's would be. */
export function templateSpec(spec: Json): Json {
  return child(child(spec, 'template'), 'spec');
}

export function templateCauses(spec: Json): StatusCause[] {
  return validatePodSpec(record(record(spec['template'])['spec']), 'spec.template.spec');
}

/** The template's restart policy (defaulted to Always) is one the workload allows; `path` is where `spec` is. */
export function restartPolicy(spec: Json, allowed: string[], path = 'spec'): StatusCause[] {
  const policy = record(record(spec['template'])['spec'])['restartPolicy'];
  const supported = allowed.map((p) => JSON.stringify(p)).join(', ');
  if (typeof policy === 'string' && allowed.includes(policy)) return [];
  return [{ reason: 'FieldValueNotSupported', field: `${path}.template.spec.restartPolicy`, message: `Unsupported value: ${JSON.stringify(policy)}: supported values: ${supported}` }];
}

// batch/v1 SetDefaults_Job.
function defaultJob(job: KubeObject): void {
  const spec = child(job, 'spec');
  defaultPodSpec(templateSpec(spec));
  if (spec['completions'] === undefined && spec['parallelism'] === undefined) spec['completions'] = 1;
  spec['parallelism'] ??= 1;
  spec['backoffLimit'] ??= spec['backoffLimitPerIndex'] === undefined ? 6 : 2147483647;
  spec['completionMode'] ??= 'NonIndexed';
  spec['suspend'] ??= false;
  if (spec['podFailurePolicy'] === undefined) spec['podReplacementPolicy'] ??= 'TerminatingOrFailed';
  const templateLabels = record(record(spec['template'])['metadata'])['labels'];
  if (isPlainObject(templateLabels) && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...(templateLabels as Record<string, string>) };
}

// The job strategy's generateSelector: pods carry the job's name and uid; the selector picks the uid.
function generateJobSelector(job: KubeObject): void {
  const spec = child(job, 'spec');
  if (spec['manualSelector'] === true) return;
  const labels = child(child(child(spec, 'template'), 'metadata'), 'labels');
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  labels[LEGACY_JOB_NAME_LABEL] ??= name;
  labels[JOB_NAME_LABEL] ??= name;
  labels[LEGACY_CONTROLLER_UID_LABEL] ??= uid;
  labels[CONTROLLER_UID_LABEL] ??= uid;
  const matchLabels = child(child(spec, 'selector'), 'matchLabels');
  matchLabels[CONTROLLER_UID_LABEL] ??= uid;
}

export const jobStrategy: Strategy = {
  prepareForCreate(job) {
    defaultJob(job);
    generateJobSelector(job);
  },
  prepareForUpdate(job) {
    defaultJob(job);
  },
  validate(job, old) {
    const spec = record(job['spec']);
    const causes: StatusCause[] = [];
    for (const field of ['parallelism', 'completions', 'backoffLimit', 'activeDeadlineSeconds', 'ttlSecondsAfterFinished']) nonNegative(spec, field, 'spec', causes);
    causes.push(...selectorCauses(spec, 'empty selector is invalid for job'), ...immutableSelector(spec, old), ...templateCauses(spec));
    causes.push(...restartPolicy(spec, ['OnFailure', 'Never']));
    return causes;
  },
};

// apps/v1 SetDefaults_Deployment.
function defaultDeployment(deployment: KubeObject): void {
  const spec = child(deployment, 'spec');
  spec['replicas'] ??= 1;
  defaultPodSpec(templateSpec(spec));
  const strategy = child(spec, 'strategy');
  strategy['type'] ??= 'RollingUpdate';
  if (strategy['type'] === 'RollingUpdate') {
    const rolling = child(strategy, 'rollingUpdate');
    rolling['maxUnavailable'] ??= '25%';
    rolling['maxSurge'] ??= '25%';
  }
  spec['revisionHistoryLimit'] ??= 10;
  spec['progressDeadlineSeconds'] ??= 600;
}

/** An IntOrString of a rolling update: an integer ≥ 0 or a percentage up to 100%. Returns its value if zero-checkable. */
export function intOrPercent(rolling: Json, field: string, causes: StatusCause[], prefix = 'spec.strategy.rollingUpdate'): number | undefined {
  const value = rolling[field];
  const path = `${prefix}.${field}`;
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0) return value;
    causes.push({ reason: 'FieldValueInvalid', field: path, message: `Invalid value: ${value}: must be greater than or equal to 0` });
    return undefined;
  }
  const match = typeof value === 'string' ? /^(\d+)%$/.exec(value) : null;
  if (!match) {
    causes.push({ reason: 'FieldValueInvalid', field: path, message: `Invalid value: ${JSON.stringify(value)}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')` });
    return undefined;
  }
  const percent = Number(match[1]);
  if (percent > 100) causes.push({ reason: 'FieldValueInvalid', field: path, message: `Invalid value: ${JSON.stringify(value)}: must not be greater than 100%` });
  return percent;
}

function strategyCauses(spec: Json): StatusCause[] {
  const strategy = record(spec['strategy']);
  const type = strategy['type'];
  if (type !== 'RollingUpdate' && type !== 'Recreate') {
    return [{ reason: 'FieldValueNotSupported', field: 'spec.strategy.type', message: `Unsupported value: ${JSON.stringify(type)}: supported values: "Recreate", "RollingUpdate"` }];
  }
  if (type === 'Recreate') {
    return strategy['rollingUpdate'] === undefined ? [] : [{ reason: 'FieldValueForbidden', field: 'spec.strategy.rollingUpdate', message: "Forbidden: may not be specified when strategy `type` is 'Recreate'" }];
  }
  const causes: StatusCause[] = [];
  const rolling = record(strategy['rollingUpdate']);
  const unavailable = intOrPercent(rolling, 'maxUnavailable', causes);
  const surge = intOrPercent(rolling, 'maxSurge', causes);
  if (unavailable === 0 && surge === 0) {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.strategy.rollingUpdate.maxUnavailable', message: `Invalid value: ${JSON.stringify(rolling['maxUnavailable'])}: may not be 0 when \`maxSurge\` is 0` });
  }
  return causes;
}

export const deploymentStrategy: Strategy = {
  prepareForCreate: defaultDeployment,
  prepareForUpdate: defaultDeployment,
  validate(deployment, old) {
    const spec = record(deployment['spec']);
    const causes: StatusCause[] = [];
    for (const field of ['replicas', 'minReadySeconds', 'revisionHistoryLimit', 'progressDeadlineSeconds']) nonNegative(spec, field, 'spec', causes);
    causes.push(...selectorCauses(spec, 'empty selector is invalid for deployment'), ...immutableSelector(spec, old), ...templateCauses(spec));
    causes.push(...restartPolicy(spec, ['Always']), ...strategyCauses(spec));
    const deadline = spec['progressDeadlineSeconds'];
    const minReady = typeof spec['minReadySeconds'] === 'number' ? spec['minReadySeconds'] : 0;
    if (typeof deadline === 'number' && deadline <= minReady) {
      causes.push({ reason: 'FieldValueInvalid', field: 'spec.progressDeadlineSeconds', message: `Invalid value: ${deadline}: must be greater than minReadySeconds` });
    }
    return causes;
  },
};

function defaultReplicaSet(replicaSet: KubeObject): void {
  const spec = child(replicaSet, 'spec');
  spec['replicas'] ??= 1;
  defaultPodSpec(templateSpec(spec));
}

export const replicaSetStrategy: Strategy = {
  prepareForCreate: defaultReplicaSet,
  prepareForUpdate: defaultReplicaSet,
  validate(replicaSet, old) {
    const spec = record(replicaSet['spec']);
    const causes: StatusCause[] = [];
    for (const field of ['replicas', 'minReadySeconds']) nonNegative(spec, field, 'spec', causes);
    causes.push(...selectorCauses(spec, 'empty selector is invalid for deployment'), ...immutableSelector(spec, old), ...templateCauses(spec));
    causes.push(...restartPolicy(spec, ['Always']));
    return causes;
  },
};

/** A container's requests and limits as kube-apiserver reads them for the QoS class. */
function resourcesOf(container: unknown): { requests: Json; limits: Json } {
  const resources = record(record(container)['resources']);
  return { requests: record(resources['requests']), limits: record(resources['limits']) };
}

/**
 * The pod's QoS class (pkg/apis/core/helper/qos GetPodQOS): Guaranteed when every container limits cpu and
 * memory and requests (defaulted to the limits) equal them, BestEffort when nothing is requested or limited.
 */
export function podQosClass(pod: KubeObject): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const spec = record(pod['spec']);
  const containers = [...(Array.isArray(spec['containers']) ? spec['containers'] : []), ...(Array.isArray(spec['initContainers']) ? spec['initContainers'] : [])];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const { requests, limits } = resourcesOf(c);
    const keys = new Set([...Object.keys(requests), ...Object.keys(limits)].filter((k) => k === 'cpu' || k === 'memory'));
    if (keys.size > 0) any = true;
    for (const k of ['cpu', 'memory']) {
      const limit = limits[k];
      if (limit === undefined || (requests[k] !== undefined && String(requests[k]) !== String(limit))) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
