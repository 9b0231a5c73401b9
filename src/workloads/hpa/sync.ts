// One sync of a HorizontalPodAutoscaler, after kube-controller-manager's reconcileAutoscaler: read the target's
// Scale, compute a replica count per metric (the largest wins), stabilize and rate-limit it (normalize.ts), set
// the Scale when it differs, and write status (current and desired replicas, currentMetrics, the AbleToScale,
// ScalingActive and ScalingLimited conditions). Then come back after the sync period: readings change without
// any object changing, so the upstream controller resyncs on a timer too.
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerCondition, HorizontalPodAutoscalerStatus, MetricSpec, MetricStatus, MetricValueStatus, Pod, Scale } from '../../apimachinery/api/index.ts';
import { matchesLabels, parseLabelSelector } from '../../apimachinery/label-selector.ts';
import { milliValue } from '../../apimachinery/quantity.ts';
import { nowTime } from '../../apimachinery/time.ts';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { Action, EventRecorder, Informer, ReconcileContext, StatusWriter } from '../../runtime/index.ts';
import { action, messageOf, setCondition } from '../../runtime/index.ts';
import type { ConditionChange, ReplicaNormalizer } from './normalize.ts';
import { averageValueReplicas, utilizationReplicas, type ReplicaCalculatorOptions } from './replica-calculator.ts';
import { getScale, podResourceMetrics, updateScale } from './target.ts';

export interface HpaControllerData {
  client: KubeClient;
  recorder: EventRecorder;
  pods: Informer<Pod>;
  status: StatusWriter<HorizontalPodAutoscaler>;
  normalizer: ReplicaNormalizer;
  calculator: ReplicaCalculatorOptions;
  syncPeriodMs: number;
  now(): Date;
}

type ConditionType = HorizontalPodAutoscalerCondition['type'];
type Conditions = Map<ConditionType, ConditionChange>;

/** A quantity of thousandths as resource.NewMilliQuantity(v, DecimalSI) prints it. */
export function milliQuantity(milli: number): string {
  if (milli % 1000 !== 0) return `${milli}m`;
  let value = milli / 1000;
  for (const suffix of ['', 'k', 'M', 'G', 'T', 'P']) {
    if (value % 1000 !== 0 || value === 0) return `${value}${suffix}`;
    value /= 1000;
  }
  return `${value}E`;
}

interface MetricResult {
  replicas: number;
  status: MetricStatus;
}

/** computeReplicasForMetric for a Resource or ContainerResource metric. */
async function resourceMetric(d: HpaControllerData, hpa: HorizontalPodAutoscaler, spec: MetricSpec, currentReplicas: number, selector: string, signal: AbortSignal): Promise<MetricResult> {
  const source = spec.type === 'ContainerResource' ? spec.containerResource : spec.resource;
  if (source === undefined) throw new Error(`invalid metric source: no ${spec.type === 'ContainerResource' ? 'containerResource' : 'resource'} given`);
  const container = spec.type === 'ContainerResource' ? spec.containerResource?.container : undefined;
  const namespace = hpa.metadata.namespace ?? '';
  const requirements = parseLabelSelector(selector);
  const pods = d.pods.list(namespace).filter((p) => matchesLabels(requirements, p.metadata.labels));
  const metrics = await podResourceMetrics(d.client, namespace, selector, source.name, container, signal);
  const input = { currentReplicas, pods, metrics, resource: source.name, ...(container !== undefined ? { container } : {}), now: d.now() };
  const wrap = (current: MetricValueStatus): MetricStatus =>
    container !== undefined ? { type: 'ContainerResource', containerResource: { name: source.name, container, current } } : { type: 'Resource', resource: { name: source.name, current } };
  const target = source.target;
  if (target.type === 'Utilization' && target.averageUtilization !== undefined) {
    const result = utilizationReplicas(input, target.averageUtilization, d.calculator);
    return { replicas: result.replicas, status: wrap({ averageValue: milliQuantity(result.rawAverage), averageUtilization: result.utilization }) };
  }
  if (target.type === 'AverageValue' && target.averageValue !== undefined) {
    const result = averageValueReplicas(input, milliValue(String(target.averageValue)), d.calculator);
    return { replicas: result.replicas, status: wrap({ averageValue: milliQuantity(result.rawAverage) }) };
  }
  throw new Error('invalid resource metric source: neither a utilization target nor a value target was set');
}

interface MetricsOutcome {
  replicas: number;
  metricName: string;
  statuses: MetricStatus[];
  errors: string[];
}

/** computeReplicasForMetrics: the largest recommendation; ScalingActive False only when no metric could be computed. */
async function computeReplicas(d: HpaControllerData, hpa: HorizontalPodAutoscaler, currentReplicas: number, selector: string, conditions: Conditions, signal: AbortSignal): Promise<MetricsOutcome> {
  const outcome: MetricsOutcome = { replicas: -1, metricName: '', statuses: [], errors: [] };
  let invalid: ConditionChange | undefined;
  for (const spec of hpa.spec.metrics ?? []) {
    if (spec.type !== 'Resource' && spec.type !== 'ContainerResource') {
      const message = `the HPA was unable to compute the replica count: ${spec.type} metrics are not served (no custom or external metrics API)`;
      outcome.errors.push(message);
      invalid = { status: 'False', reason: 'InvalidMetricSourceType', message };
      outcome.statuses.push({ type: spec.type });
      continue;
    }
    try {
      const result = await resourceMetric(d, hpa, spec, currentReplicas, selector, signal);
      outcome.statuses.push(result.status);
      if (result.replicas > outcome.replicas) {
        outcome.replicas = result.replicas;
        const source = spec.resource ?? spec.containerResource;
        outcome.metricName = `${spec.type === 'ContainerResource' ? 'container ' : ''}${source?.name ?? ''} resource${source?.target.type === 'Utilization' ? ' utilization (percentage of request)' : ''}`;
      }
    } catch (error) {
      if (signal.aborted) throw error;
      const reason = spec.type === 'ContainerResource' ? 'FailedGetContainerResourceMetric' : 'FailedGetResourceMetric';
      const message = `the HPA was unable to compute the replica count: ${messageOf(error)}`;
      outcome.errors.push(messageOf(error));
      invalid = { status: 'False', reason, message };
      outcome.statuses.push({ type: spec.type });
      void d.recorder.event(hpa, 'Warning', reason, messageOf(error));
    }
  }
  if (outcome.replicas === -1 && invalid !== undefined) conditions.set('ScalingActive', invalid);
  else conditions.set('ScalingActive', { status: 'True', reason: 'ValidMetricFound', message: `the HPA was able to successfully calculate a replica count from ${outcome.metricName}` });
  return outcome;
}

async function writeStatus(d: HpaControllerData, hpa: HorizontalPodAutoscaler, status: Omit<HorizontalPodAutoscalerStatus, 'conditions'>, conditions: Conditions, signal: AbortSignal): Promise<HorizontalPodAutoscaler | undefined> {
  const now = d.now();
  try {
    return await d.status.write(
      hpa,
      (draft) => {
        const list = [...(draft.status?.conditions ?? [])];
        for (const [type, change] of conditions) setCondition(list, { type, ...change }, now);
        draft.status = { ...draft.status, ...status, conditions: list };
        if (status.currentMetrics === undefined) delete draft.status.currentMetrics;
        if (draft.metadata.generation !== undefined) draft.status.observedGeneration = draft.metadata.generation;
      },
      { signal },
    );
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

export async function syncHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler, ctx: ReconcileContext<HpaControllerData>): Promise<Action> {
  const d = ctx.data;
  const signal = ctx.signal;
  const ref = hpa.spec.scaleTargetRef;
  const reference = `${ref.kind}/${ref.name}`;
  const conditions: Conditions = new Map();
  const namespace = hpa.metadata.namespace ?? '';
  let scale: Scale;
  try {
    scale = await getScale(d.client, ref, namespace, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    conditions.set('AbleToScale', { status: 'False', reason: 'FailedGetScale', message: `the HPA controller was unable to get the target's current scale: ${messageOf(error)}` });
    void d.recorder.event(hpa, 'Warning', 'FailedGetScale', messageOf(error));
    await writeStatus(d, hpa, { currentReplicas: hpa.status?.currentReplicas ?? 0, desiredReplicas: hpa.status?.desiredReplicas ?? 0 }, conditions, signal);
    return action.requeueAfter(d.syncPeriodMs);
  }
  conditions.set('AbleToScale', { status: 'True', reason: 'SucceededGetScale', message: "the HPA controller was able to get the target's current scale" });
  const currentReplicas = scale.spec.replicas ?? 0;
  const nowMs = d.now().getTime();
  d.normalizer.recordInitial(ctx.key, currentReplicas, nowMs);
  const minReplicas = hpa.spec.minReplicas ?? 1;
  let desiredReplicas = 0;
  let rescaleReason = '';
  let rescale = true;
  let metricStatuses: MetricStatus[] | undefined;
  let failure: string | undefined;
  if (currentReplicas === 0 && minReplicas !== 0) {
    rescale = false;
    conditions.set('ScalingActive', { status: 'False', reason: 'ScalingDisabled', message: 'scaling is disabled since the replica count of the target is zero' });
  } else if (currentReplicas > hpa.spec.maxReplicas) {
    rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
    desiredReplicas = hpa.spec.maxReplicas;
  } else if (currentReplicas < minReplicas) {
    rescaleReason = 'Current number of replicas below Spec.MinReplicas';
    desiredReplicas = minReplicas;
  } else {
    const selector = scale.status?.selector ?? '';
    if (selector === '') {
      const message = `selector is required`;
      conditions.set('ScalingActive', { status: 'False', reason: 'InvalidSelector', message: `the HPA target's scale is missing a selector` });
      void d.recorder.event(hpa, 'Warning', 'SelectorRequired', message);
      await writeStatus(d, hpa, { currentReplicas, desiredReplicas: hpa.status?.desiredReplicas ?? 0 }, conditions, signal);
      return action.requeueAfter(d.syncPeriodMs);
    }
    const outcome = await computeReplicas(d, hpa, currentReplicas, selector, conditions, signal);
    metricStatuses = outcome.statuses;
    if (outcome.replicas === -1) {
      const message = outcome.errors.join('; ');
      void d.recorder.event(hpa, 'Warning', 'FailedComputeMetricsReplicas', `invalid metrics (${outcome.errors.length} invalid out of ${hpa.spec.metrics?.length ?? 0}), first error is: ${outcome.errors[0] ?? ''}`);
      await writeStatus(d, hpa, { currentReplicas, desiredReplicas: hpa.status?.desiredReplicas ?? 0, currentMetrics: metricStatuses }, conditions, signal);
      ctx.log.info({ reference, error: message }, 'failed to compute desired number of replicas');
      return action.requeueAfter(d.syncPeriodMs);
    }
    if (outcome.errors.length > 0) failure = outcome.errors.join('; ');
    desiredReplicas = outcome.replicas;
    if (desiredReplicas > currentReplicas) rescaleReason = `${outcome.metricName} above target`;
    if (desiredReplicas < currentReplicas) rescaleReason = 'All metrics below target';
    const normalized = d.normalizer.normalize({ key: ctx.key, currentReplicas, desiredReplicas, minReplicas, maxReplicas: hpa.spec.maxReplicas, behavior: hpa.spec.behavior, nowMs });
    conditions.set('AbleToScale', normalized.ableToScale);
    conditions.set('ScalingLimited', normalized.scalingLimited);
    desiredReplicas = normalized.replicas;
    rescale = desiredReplicas !== currentReplicas;
  }
  let lastScaleTime = hpa.status?.lastScaleTime;
  if (rescale) {
    try {
      await updateScale(d.client, ref, scale, desiredReplicas, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      void d.recorder.event(hpa, 'Warning', 'FailedRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}; error: ${messageOf(error)}`);
      conditions.set('AbleToScale', { status: 'False', reason: 'FailedUpdateScale', message: `the HPA controller was unable to update the target scale: ${messageOf(error)}` });
      await writeStatus(d, hpa, { currentReplicas, desiredReplicas: hpa.status?.desiredReplicas ?? 0, ...(metricStatuses ? { currentMetrics: metricStatuses } : {}) }, conditions, signal);
      throw error;
    }
    conditions.set('AbleToScale', { status: 'True', reason: 'SucceededRescale', message: `the HPA controller was able to update the target scale to ${desiredReplicas}` });
    void d.recorder.event(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}`);
    d.normalizer.recordScale(ctx.key, hpa.spec.behavior, currentReplicas, desiredReplicas, nowMs);
    lastScaleTime = nowTime(d.now());
  } else {
    desiredReplicas = currentReplicas;
  }
  await writeStatus(d, hpa, { currentReplicas, desiredReplicas, ...(metricStatuses ? { currentMetrics: metricStatuses } : {}), ...(lastScaleTime ? { lastScaleTime } : {}) }, conditions, signal);
  if (failure !== undefined) ctx.log.info({ reference, error: failure }, 'some metrics could not be computed');
  return action.requeueAfter(d.syncPeriodMs);
}
