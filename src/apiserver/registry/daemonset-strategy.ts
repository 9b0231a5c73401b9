// Defaulting and validation of apps/v1 DaemonSets, after kube-apiserver's SetDefaults_DaemonSet,
// ValidateDaemonSetSpec and the daemonset strategy: RollingUpdate with maxUnavailable 1 and maxSurge 0 unless
// set, a history limit of 10, and the deprecated template generation annotation the controller labels pods with
// (it goes up by one whenever the template changes, as upstream's PrepareForUpdate does).
import { isDeepStrictEqual } from 'node:util';
import { DAEMONSET_TEMPLATE_GENERATION_ANNOTATION } from '../../apimachinery/api/apps-v1.ts';
import type { KubeObject, StatusCause } from '../../apimachinery/object.ts';
import { defaultPodSpec } from './pod-spec.ts';
import type { ResourceType } from './resource-type.ts';
import { child, immutableSelector, intOrPercent, nonNegative, record, restartPolicy, selectorCauses, templateCauses, templateSpec } from './workload-strategies.ts';

type Json = Record<string, unknown>;
type Strategy = Pick<ResourceType, 'prepareForCreate' | 'prepareForUpdate' | 'validate'>;

function defaultDaemonSet(set: KubeObject): void {
  const spec = child(set, 'spec');
  const strategy = child(spec, 'updateStrategy');
  if (strategy['type'] === undefined || strategy['type'] === '') strategy['type'] = 'RollingUpdate';
  if (strategy['type'] === 'RollingUpdate') {
    const rolling = child(strategy, 'rollingUpdate');
    rolling['maxUnavailable'] ??= 1;
    rolling['maxSurge'] ??= 0;
  }
  spec['revisionHistoryLimit'] ??= 10;
  defaultPodSpec(templateSpec(spec));
}

function setTemplateGeneration(set: KubeObject, generation: number): void {
  set.metadata.annotations = { ...set.metadata.annotations, [DAEMONSET_TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
}

function strategyCauses(spec: Json): StatusCause[] {
  const strategy = record(spec['updateStrategy']);
  const type = strategy['type'];
  if (type === 'OnDelete') return [];
  if (type !== 'RollingUpdate') {
    return [{ reason: 'FieldValueNotSupported', field: 'spec.updateStrategy.type', message: `Unsupported value: ${JSON.stringify(type)}: supported values: "OnDelete", "RollingUpdate"` }];
  }
  const causes: StatusCause[] = [];
  const rolling = record(strategy['rollingUpdate']);
  const prefix = 'spec.updateStrategy.rollingUpdate';
  const unavailable = intOrPercent(rolling, 'maxUnavailable', causes, prefix);
  const surge = intOrPercent(rolling, 'maxSurge', causes, prefix);
  if (unavailable === 0 && surge === 0) {
    causes.push({ reason: 'FieldValueInvalid', field: `${prefix}.maxUnavailable`, message: `Invalid value: ${JSON.stringify(rolling['maxUnavailable'])}: may not be 0 when \`maxSurge\` is 0` });
  }
  return causes;
}

export const daemonSetStrategy: Strategy = {
  prepareForCreate(set) {
    defaultDaemonSet(set);
    setTemplateGeneration(set, 1);
  },
  prepareForUpdate(set, old) {
    defaultDaemonSet(set);
    const before = Number(old.metadata.annotations?.[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION] ?? '1') || 1;
    const changed = !isDeepStrictEqual(record(record(set['spec'])['template']), record(record(old['spec'])['template']));
    setTemplateGeneration(set, changed ? before + 1 : before);
  },
  validate(set, old) {
    const spec = record(set['spec']);
    const causes: StatusCause[] = [];
    for (const field of ['minReadySeconds', 'revisionHistoryLimit']) nonNegative(spec, field, 'spec', causes);
    causes.push(...selectorCauses(spec, 'empty selector is invalid for daemonset'), ...immutableSelector(spec, old), ...templateCauses(spec));
    causes.push(...restartPolicy(spec, ['Always']), ...strategyCauses(spec));
    if (record(record(spec['template'])['spec'])['activeDeadlineSeconds'] !== undefined) {
      causes.push({ reason: 'FieldValueForbidden', field: 'spec.template.spec.activeDeadlineSeconds', message: 'Forbidden: activeDeadlineSeconds in DaemonSet is not Supported' });
    }
    return causes;
  },
};
