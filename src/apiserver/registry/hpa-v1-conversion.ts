// autoscaling/v1 HorizontalPodAutoscaler, served from the v2 objects storage keeps (`kubectl autoscale` writes
// v1), after kube-apiserver's autoscaling v1 conversion: v1 has only a CPU utilization target, so the v2 fields
// it cannot say travel in autoscaling.alpha.kubernetes.io annotations, and a v1 write reads them back.
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { horizontalPodAutoscalerStrategy } from './hpa-strategy.ts';
import type { ResourceType } from './resource-type.ts';
import { child, record } from './workload-strategies.ts';

type Json = Record<string, unknown>;

const METRICS = 'autoscaling.alpha.kubernetes.io/metrics';
const BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior';
const CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions';
const CURRENT_METRICS = 'autoscaling.alpha.kubernetes.io/current-metrics';

function isCpuUtilization(metric: Json): boolean {
  const resource = record(metric['resource']);
  return metric['type'] === 'Resource' && resource['name'] === 'cpu' && record(resource['target'])['type'] === 'Utilization';
}

function without<T extends Json>(object: T, keys: string[]): T {
  return Object.fromEntries(Object.entries(object).filter(([k]) => !keys.includes(k))) as T;
}

/** The v1 view of a stored (v2) autoscaler. */
export function hpaToV1(stored: KubeObject): KubeObject {
  const spec = record(stored['spec']);
  const status = record(stored['status']);
  const metrics = (Array.isArray(spec['metrics']) ? spec['metrics'] : []).map(record);
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => m !== cpu);
  const currentMetrics = (Array.isArray(status['currentMetrics']) ? status['currentMetrics'] : []).map(record);
  const currentCpu = currentMetrics.find((m) => m['type'] === 'Resource' && record(m['resource'])['name'] === 'cpu');
  const annotations: Record<string, string> = { ...stored.metadata.annotations };
  if (others.length > 0) annotations[METRICS] = JSON.stringify(others);
  if (spec['behavior'] !== undefined) annotations[BEHAVIOR] = JSON.stringify(spec['behavior']);
  if (Array.isArray(status['conditions'])) annotations[CONDITIONS] = JSON.stringify(status['conditions']);
  if (currentMetrics.length > 0) annotations[CURRENT_METRICS] = JSON.stringify(currentMetrics);
  const cpuTarget = record(record(cpu?.['resource'])['target'])['averageUtilization'];
  const cpuCurrent = record(record(currentCpu?.['resource'])['current'])['averageUtilization'];
  return {
    ...stored,
    metadata: { ...stored.metadata, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) },
    spec: { ...without(spec, ['metrics', 'behavior']), ...(cpuTarget !== undefined ? { targetCPUUtilizationPercentage: cpuTarget } : {}) },
    status: { ...without(status, ['currentMetrics', 'conditions']), ...(cpuCurrent !== undefined ? { currentCPUUtilizationPercentage: cpuCurrent } : {}) },
  };
}

function parsedAnnotation(annotations: Record<string, string>, key: string): unknown {
  const text = annotations[key];
  delete annotations[key];
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A v1 object as storage keeps it (v2), the annotations' fields restored. */
function hpaFromV1(object: KubeObject): void {
  const spec = child(object, 'spec');
  const status = child(object, 'status');
  const annotations = { ...object.metadata.annotations };
  const others = parsedAnnotation(annotations, METRICS);
  const behavior = parsedAnnotation(annotations, BEHAVIOR);
  const conditions = parsedAnnotation(annotations, CONDITIONS);
  const currentMetrics = parsedAnnotation(annotations, CURRENT_METRICS);
  if (Object.keys(annotations).length > 0) object.metadata.annotations = annotations;
  else delete object.metadata.annotations;
  const cpu = spec['targetCPUUtilizationPercentage'];
  delete spec['targetCPUUtilizationPercentage'];
  const metrics = typeof cpu === 'number' ? [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpu } } }] : [];
  spec['metrics'] = [...metrics, ...(Array.isArray(others) ? others : [])];
  if (isPlainObject(behavior)) spec['behavior'] = behavior;
  delete status['currentCPUUtilizationPercentage'];
  if (Array.isArray(conditions)) status['conditions'] = conditions;
  if (Array.isArray(currentMetrics)) status['currentMetrics'] = currentMetrics;
}

export const horizontalPodAutoscalerV1Strategy: Pick<ResourceType, 'prepareForCreate' | 'prepareForUpdate' | 'validate' | 'present'> = {
  prepareForCreate(object) {
    hpaFromV1(object);
    horizontalPodAutoscalerStrategy.prepareForCreate?.(object);
  },
  prepareForUpdate(object, old) {
    hpaFromV1(object);
    horizontalPodAutoscalerStrategy.prepareForUpdate?.(object, old);
  },
  validate: (object, old) => horizontalPodAutoscalerStrategy.validate?.(object, old) ?? [],
  present: hpaToV1,
};
