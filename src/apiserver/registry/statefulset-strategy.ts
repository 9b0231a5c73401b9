// Defaulting and validation of apps/v1 StatefulSets and ControllerRevisions, after kube-apiserver's
// SetDefaults_StatefulSet, ValidateStatefulSetSpec/ValidateStatefulSetUpdate and ValidateControllerRevision: the
// policies the controller reads are always set, the claim templates carry the PersistentVolumeClaim defaults, and
// an update may change only replicas, ordinals, template, updateStrategy, revisionHistoryLimit, the claim retention
// policy and minReadySeconds.
import { isDeepStrictEqual } from 'node:util';
import { isPlainObject, type KubeObject, type StatusCause } from '../../apimachinery/object.ts';
import { defaultPodSpec, validatePodSpec } from './pod-spec.ts';
import type { ResourceType } from './resource-type.ts';
import { child, nonNegative, record, restartPolicy, selectorCauses, templateSpec } from './workload-strategies.ts';

type Json = Record<string, unknown>;
type Strategy = Pick<ResourceType, 'prepareForCreate' | 'prepareForUpdate' | 'validate'>;

const RETENTION_POLICIES = ['Retain', 'Delete'];
const MUTABLE_SPEC_FIELDS = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

function claimTemplates(spec: Json): Json[] {
  const templates = spec['volumeClaimTemplates'];
  return Array.isArray(templates) ? templates.filter(isPlainObject) : [];
}

/** SetDefaults_PersistentVolumeClaim and its spec's defaults, as the v1 conversion applies them to each template. */
function defaultClaimTemplate(claim: Json): void {
  claim['apiVersion'] ??= 'v1';
  claim['kind'] ??= 'PersistentVolumeClaim';
  child(claim, 'metadata');
  child(claim, 'spec')['volumeMode'] ??= 'Filesystem';
  child(claim, 'status')['phase'] ??= 'Pending';
}

function defaultStatefulSet(set: KubeObject): void {
  const spec = child(set, 'spec');
  spec['podManagementPolicy'] ??= 'OrderedReady';
  const strategy = child(spec, 'updateStrategy');
  if (strategy['type'] === undefined || strategy['type'] === '') {
    strategy['type'] = 'RollingUpdate';
    child(strategy, 'rollingUpdate');
  }
  if (strategy['type'] === 'RollingUpdate' && isPlainObject(strategy['rollingUpdate'])) strategy['rollingUpdate']['partition'] ??= 0;
  const retention = child(spec, 'persistentVolumeClaimRetentionPolicy');
  retention['whenDeleted'] ??= 'Retain';
  retention['whenScaled'] ??= 'Retain';
  spec['replicas'] ??= 1;
  spec['revisionHistoryLimit'] ??= 10;
  defaultPodSpec(templateSpec(spec));
  for (const claim of claimTemplates(spec)) defaultClaimTemplate(claim);
}

function policyCauses(spec: Json): StatusCause[] {
  const causes: StatusCause[] = [];
  const policy = spec['podManagementPolicy'];
  if (policy === undefined || policy === '') causes.push({ reason: 'FieldValueRequired', field: 'spec.podManagementPolicy', message: 'Required value' });
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.podManagementPolicy', message: `Invalid value: ${JSON.stringify(policy)}: must be 'OrderedReady' or 'Parallel'` });
  }
  const strategy = record(spec['updateStrategy']);
  const type = strategy['type'];
  if (type === undefined || type === '') causes.push({ reason: 'FieldValueRequired', field: 'spec.updateStrategy', message: 'Required value' });
  else if (type === 'OnDelete') {
    if (strategy['rollingUpdate'] !== undefined) {
      causes.push({ reason: 'FieldValueInvalid', field: 'spec.updateStrategy.rollingUpdate', message: `Invalid value: ${JSON.stringify(strategy['rollingUpdate'])}: only allowed for updateStrategy 'RollingUpdate'` });
    }
  } else if (type === 'RollingUpdate') nonNegative(record(strategy['rollingUpdate']), 'partition', 'spec.updateStrategy.rollingUpdate', causes);
  else causes.push({ reason: 'FieldValueInvalid', field: 'spec.updateStrategy', message: `Invalid value: ${JSON.stringify(strategy)}: must be 'RollingUpdate' or 'OnDelete'` });
  const retention = record(spec['persistentVolumeClaimRetentionPolicy']);
  for (const when of ['whenDeleted', 'whenScaled']) {
    const value = retention[when];
    if (typeof value !== 'string' || !RETENTION_POLICIES.includes(value)) {
      causes.push({ reason: 'FieldValueNotSupported', field: `spec.persistentVolumeClaimRetentionPolicy.${when}`, message: `Unsupported value: ${JSON.stringify(value ?? '')}: supported values: "Retain", "Delete"` });
    }
  }
  return causes;
}

/** ValidatePersistentVolumeClaimTemplate's essentials: a name, access modes and a storage request. */
function claimTemplateCauses(spec: Json): StatusCause[] {
  const causes: StatusCause[] = [];
  claimTemplates(spec).forEach((claim, i) => {
    const path = `spec.volumeClaimTemplates[${i}]`;
    const name = record(claim['metadata'])['name'];
    if (typeof name !== 'string' || name === '') causes.push({ reason: 'FieldValueRequired', field: `${path}.metadata.name`, message: 'Required value: name or generateName is required' });
    const claimSpec = record(claim['spec']);
    const modes = claimSpec['accessModes'];
    if (!Array.isArray(modes) || modes.length === 0) causes.push({ reason: 'FieldValueRequired', field: `${path}.spec.accessModes`, message: 'Required value: at least 1 access mode is required' });
    if (record(record(claimSpec['resources'])['requests'])['storage'] === undefined) causes.push({ reason: 'FieldValueRequired', field: `${path}.spec.resources[storage]`, message: 'Required value' });
  });
  return causes;
}

/** The template's pod spec, validated with a volume for each claim template, as its pods will have them. */
function podTemplateCauses(spec: Json): StatusCause[] {
  const podSpec = record(record(spec['template'])['spec']);
  const claimVolumes = claimTemplates(spec).map((claim) => ({ name: record(claim['metadata'])['name'], persistentVolumeClaim: { claimName: 'claim' } }));
  const volumes = Array.isArray(podSpec['volumes']) ? podSpec['volumes'] : [];
  const causes = validatePodSpec({ ...podSpec, volumes: [...volumes, ...claimVolumes.filter((c) => !volumes.some((v) => record(v)['name'] === c.name))] }, 'spec.template.spec');
  if (podSpec['activeDeadlineSeconds'] !== undefined) {
    causes.push({ reason: 'FieldValueForbidden', field: 'spec.template.spec.activeDeadlineSeconds', message: 'Forbidden: activeDeadlineSeconds in StatefulSet is not Supported' });
  }
  return causes;
}

function updateCauses(spec: Json, old: KubeObject | undefined): StatusCause[] {
  if (!old) return [];
  const fixed = (s: Json): Json => Object.fromEntries(Object.entries(s).filter(([k]) => !MUTABLE_SPEC_FIELDS.includes(k)));
  if (isDeepStrictEqual(fixed(spec), fixed(record(old['spec'])))) return [];
  return [
    {
      reason: 'FieldValueForbidden',
      field: 'spec',
      message: "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    },
  ];
}

export const statefulSetStrategy: Strategy = {
  prepareForCreate: defaultStatefulSet,
  prepareForUpdate: defaultStatefulSet,
  validate(set, old) {
    const spec = record(set['spec']);
    const causes: StatusCause[] = [...policyCauses(spec)];
    for (const field of ['replicas', 'minReadySeconds', 'revisionHistoryLimit']) nonNegative(spec, field, 'spec', causes);
    nonNegative(record(spec['ordinals']), 'start', 'spec.ordinals', causes);
    causes.push(...selectorCauses(spec, 'empty selector is not valid for statefulset.'), ...podTemplateCauses(spec), ...restartPolicy(spec, ['Always']), ...claimTemplateCauses(spec));
    causes.push(...updateCauses(spec, old));
    return causes;
  },
};

export const controllerRevisionStrategy: Pick<ResourceType, 'validate'> = {
  validate(revision, old) {
    const causes: StatusCause[] = [];
    if (revision['data'] === undefined || revision['data'] === null) causes.push({ reason: 'FieldValueRequired', field: 'data', message: 'Required value: data is mandatory' });
    const number = revision['revision'];
    if (number !== undefined && (typeof number !== 'number' || !Number.isInteger(number) || number < 0)) {
      causes.push({ reason: 'FieldValueInvalid', field: 'revision', message: `Invalid value: ${JSON.stringify(number)}: must be greater than or equal to 0` });
    }
    if (old && !isDeepStrictEqual(revision['data'], old['data'])) {
      causes.push({ reason: 'FieldValueInvalid', field: 'data', message: 'Invalid value: "object": field is immutable' });
    }
    return causes;
  },
};
