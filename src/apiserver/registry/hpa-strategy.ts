// Defaulting and validation of autoscaling/v2 HorizontalPodAutoscalers, after kube-apiserver's
// SetDefaults_HorizontalPodAutoscaler (minReplicas 1, CPU at 80% when no metric is named, the behavior's missing
// rules filled in when a behavior is given) and the essentials of ValidateHorizontalPodAutoscaler.
import { isPlainObject, type KubeObject, type StatusCause } from '../../apimachinery/object.ts';
import type { ResourceType } from './resource-type.ts';
import { child, record } from './workload-strategies.ts';

type Json = Record<string, unknown>;
type Strategy = Pick<ResourceType, 'prepareForCreate' | 'prepareForUpdate' | 'validate'>;

const DEFAULT_CPU_UTILIZATION = 80;
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const SELECT_POLICIES = ['Max', 'Min', 'Disabled'];

/** GenerateHPAScaleUpRules / GenerateHPAScaleDownRules: scale-down's window stays unset (the controller's 300 s). */
function defaultRules(rules: Json, up: boolean): void {
  if (up) rules['stabilizationWindowSeconds'] ??= 0;
  rules['selectPolicy'] ??= 'Max';
  if (!Array.isArray(rules['policies']) || rules['policies'].length === 0) {
    rules['policies'] = up
      ? [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ]
      : [{ type: 'Percent', value: 100, periodSeconds: 15 }];
  }
}

function defaultAutoscaler(hpa: KubeObject): void {
  const spec = child(hpa, 'spec');
  spec['minReplicas'] ??= 1;
  if (!Array.isArray(spec['metrics']) || spec['metrics'].length === 0) {
    spec['metrics'] = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  if (isPlainObject(spec['behavior'])) {
    defaultRules(child(spec['behavior'], 'scaleUp'), true);
    defaultRules(child(spec['behavior'], 'scaleDown'), false);
  }
}

function positiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

function targetCauses(target: Json, path: string): StatusCause[] {
  const type = target['type'];
  if (type === 'Utilization') {
    return positiveInteger(target['averageUtilization']) ? [] : [{ reason: 'FieldValueRequired', field: `${path}.averageUtilization`, message: 'Required value: must be greater than 0' }];
  }
  if (type === 'AverageValue' || type === 'Value') {
    const field = type === 'AverageValue' ? 'averageValue' : 'value';
    return typeof target[field] === 'string' || typeof target[field] === 'number' ? [] : [{ reason: 'FieldValueRequired', field: `${path}.${field}`, message: 'Required value: must set either a target raw value or a target utilization' }];
  }
  return [{ reason: 'FieldValueNotSupported', field: `${path}.type`, message: `Unsupported value: ${JSON.stringify(type ?? '')}: supported values: "AverageValue", "Utilization", "Value"` }];
}

function metricCauses(metric: Json, path: string): StatusCause[] {
  const type = metric['type'];
  if (type !== 'Resource' && type !== 'ContainerResource') {
    if (['Pods', 'Object', 'External'].includes(String(type))) return [];
    return [{ reason: 'FieldValueNotSupported', field: `${path}.type`, message: `Unsupported value: ${JSON.stringify(type ?? '')}: supported values: "ContainerResource", "External", "Object", "Pods", "Resource"` }];
  }
  const field = type === 'Resource' ? 'resource' : 'containerResource';
  if (!isPlainObject(metric[field])) return [{ reason: 'FieldValueRequired', field: `${path}.${field}`, message: `Required value: must populate information for the given metric source` }];
  const source = metric[field];
  const causes: StatusCause[] = [];
  if (typeof source['name'] !== 'string' || source['name'] === '') causes.push({ reason: 'FieldValueRequired', field: `${path}.${field}.name`, message: 'Required value: must specify a resource name' });
  if (type === 'ContainerResource' && (typeof source['container'] !== 'string' || source['container'] === '')) {
    causes.push({ reason: 'FieldValueRequired', field: `${path}.${field}.container`, message: 'Required value: must specify a container' });
  }
  return [...causes, ...targetCauses(record(source['target']), `${path}.${field}.target`)];
}

function rulesCauses(rules: unknown, path: string): StatusCause[] {
  if (!isPlainObject(rules)) return [];
  const causes: StatusCause[] = [];
  const window = rules['stabilizationWindowSeconds'];
  if (window !== undefined && (typeof window !== 'number' || window < 0 || window > MAX_STABILIZATION_WINDOW_SECONDS)) {
    causes.push({ reason: 'FieldValueInvalid', field: `${path}.stabilizationWindowSeconds`, message: `Invalid value: ${JSON.stringify(window)}: must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}` });
  }
  if (rules['selectPolicy'] !== undefined && !SELECT_POLICIES.includes(String(rules['selectPolicy']))) {
    causes.push({ reason: 'FieldValueNotSupported', field: `${path}.selectPolicy`, message: `Unsupported value: ${JSON.stringify(rules['selectPolicy'])}: supported values: "Disabled", "Max", "Min"` });
  }
  const policies = Array.isArray(rules['policies']) ? rules['policies'] : [];
  policies.map(record).forEach((policy, i) => {
    const at = `${path}.policies[${i}]`;
    if (policy['type'] !== 'Pods' && policy['type'] !== 'Percent') causes.push({ reason: 'FieldValueNotSupported', field: `${at}.type`, message: `Unsupported value: ${JSON.stringify(policy['type'] ?? '')}: supported values: "Percent", "Pods"` });
    if (!positiveInteger(policy['value'])) causes.push({ reason: 'FieldValueInvalid', field: `${at}.value`, message: `Invalid value: ${JSON.stringify(policy['value'] ?? 0)}: must be greater than zero` });
    const period = policy['periodSeconds'];
    if (!positiveInteger(period) || (period as number) > MAX_PERIOD_SECONDS) {
      causes.push({ reason: 'FieldValueInvalid', field: `${at}.periodSeconds`, message: `Invalid value: ${JSON.stringify(period ?? 0)}: must be greater than zero and less than or equal to ${MAX_PERIOD_SECONDS}` });
    }
  });
  return causes;
}

function validateAutoscaler(hpa: KubeObject): StatusCause[] {
  const spec = record(hpa['spec']);
  const causes: StatusCause[] = [];
  const ref = record(spec['scaleTargetRef']);
  for (const field of ['kind', 'name']) {
    if (typeof ref[field] !== 'string' || ref[field] === '') causes.push({ reason: 'FieldValueRequired', field: `spec.scaleTargetRef.${field}`, message: 'Required value' });
  }
  const min = spec['minReplicas'];
  const max = spec['maxReplicas'];
  if (min !== undefined && !positiveInteger(min)) causes.push({ reason: 'FieldValueInvalid', field: 'spec.minReplicas', message: `Invalid value: ${JSON.stringify(min)}: must be greater than or equal to 1` });
  if (!positiveInteger(max)) causes.push({ reason: 'FieldValueInvalid', field: 'spec.maxReplicas', message: `Invalid value: ${JSON.stringify(max ?? 0)}: must be greater than 0` });
  else if (typeof min === 'number' && (max as number) < min) causes.push({ reason: 'FieldValueInvalid', field: 'spec.maxReplicas', message: `Invalid value: ${String(max)}: must be greater than or equal to \`minReplicas\`` });
  const metrics = Array.isArray(spec['metrics']) ? spec['metrics'] : [];
  metrics.map(record).forEach((metric, i) => causes.push(...metricCauses(metric, `spec.metrics[${i}]`)));
  const behavior = record(spec['behavior']);
  causes.push(...rulesCauses(behavior['scaleUp'], 'spec.behavior.scaleUp'), ...rulesCauses(behavior['scaleDown'], 'spec.behavior.scaleDown'));
  return causes;
}

export const horizontalPodAutoscalerStrategy: Strategy = {
  prepareForCreate: defaultAutoscaler,
  prepareForUpdate: defaultAutoscaler,
  validate: validateAutoscaler,
};
