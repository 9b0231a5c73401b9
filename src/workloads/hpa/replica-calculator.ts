// The replica count a metric asks for, after kube-controller-manager's ReplicaCalculator (GetResourceReplicas,
// GetRawResourceReplicas): desired = ceil(ready pods × current/target), no change within the tolerance; pods
// being deleted or failed are ignored; pending or not-yet-ready pods (CPU only) and pods without a reading count
// conservatively: as 0 when scaling up, as the target (or 100% of their request) when scaling down, and a
// direction the conservative reading reverses means no change.
import type { Container, Pod } from '../../apimachinery/api/index.ts';
import { milliValue } from '../../apimachinery/quantity.ts';

/** One pod's reading in thousandths of the resource's unit (millicores, millibytes), as MilliValue gives it. */
export interface PodMetric {
  value: number;
  timestampMs: number;
  windowMs: number;
}

export interface ReplicaCalculatorOptions {
  /** The ratio band around 1.0 that means "close enough" (--horizontal-pod-autoscaler-tolerance). */
  tolerance: number;
  /** A CPU reading is only trusted once the pod has been ready for a full window during this period after start. */
  cpuInitializationPeriodMs: number;
  /** A pod that turned unready within this long of starting has never been ready. */
  delayOfInitialReadinessStatusMs: number;
}

export const defaultReplicaCalculatorOptions: ReplicaCalculatorOptions = { tolerance: 0.1, cpuInitializationPeriodMs: 5 * 60_000, delayOfInitialReadinessStatusMs: 30_000 };

export interface MetricInput {
  currentReplicas: number;
  pods: readonly Pod[];
  /** Readings by pod name. */
  metrics: ReadonlyMap<string, PodMetric>;
  resource: string;
  /** Only this container's requests and usage (a ContainerResource metric). */
  container?: string;
  now: Date;
}

export interface UtilizationResult {
  replicas: number;
  /** Percent of the requests in use. */
  utilization: number;
  /** Average reading per pod, in thousandths. */
  rawAverage: number;
}

interface PodGroups {
  readyCount: number;
  unready: Set<string>;
  missing: Set<string>;
  ignored: Set<string>;
}

function timeMs(text: string | undefined): number | undefined {
  return text === undefined ? undefined : Date.parse(text);
}

/** groupPods: which pods' readings count, which are left out, and which are conservatively replaced. */
function groupPods(input: MetricInput, options: ReplicaCalculatorOptions): PodGroups {
  const groups: PodGroups = { readyCount: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of input.pods) {
    const name = pod.metadata.name ?? '';
    if (pod.metadata.deletionTimestamp || pod.status?.phase === 'Failed') {
      groups.ignored.add(name);
      continue;
    }
    if (pod.status?.phase === 'Pending') {
      groups.unready.add(name);
      continue;
    }
    const metric = input.metrics.get(name);
    if (metric === undefined) {
      groups.missing.add(name);
      continue;
    }
    if (input.resource === 'cpu' && cpuUnready(pod, metric, input.now.getTime(), options)) {
      groups.unready.add(name);
      continue;
    }
    groups.readyCount++;
  }
  return groups;
}

function cpuUnready(pod: Pod, metric: PodMetric, nowMs: number, options: ReplicaCalculatorOptions): boolean {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  const startMs = timeMs(pod.status?.startTime);
  if (ready === undefined || startMs === undefined) return true;
  const transitionMs = timeMs(ready.lastTransitionTime) ?? 0;
  // Within the initialization period a reading must postdate a full window of readiness.
  if (startMs + options.cpuInitializationPeriodMs > nowMs) return ready.status === 'False' || metric.timestampMs < transitionMs + metric.windowMs;
  // Afterwards only a pod that has never been ready is left out.
  return ready.status === 'False' && startMs + options.delayOfInitialReadinessStatusMs > transitionMs;
}

function requestedContainers(pod: Pod): Container[] {
  const sidecars = (pod.spec.initContainers ?? []).filter((c) => (c as { restartPolicy?: string }).restartPolicy === 'Always');
  return [...pod.spec.containers, ...sidecars];
}

/** calculatePodRequests: each pod's summed request of the resource, in thousandths; a container without one is an error. */
export function podRequests(pods: readonly Pod[], resource: string, container?: string): Map<string, number> {
  const requests = new Map<string, number>();
  for (const pod of pods) {
    let sum = 0;
    for (const c of requestedContainers(pod)) {
      if (container !== undefined && container !== c.name) continue;
      const request = c.resources?.requests?.[resource];
      if (request === undefined) throw new Error(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata.name ?? ''}`);
      sum += milliValue(String(request));
    }
    requests.set(pod.metadata.name ?? '', sum);
  }
  return requests;
}

/** GetResourceUtilizationRatio: usage over requests of the pods that have both, against the target percentage. */
function utilizationRatio(metrics: ReadonlyMap<string, number>, requests: ReadonlyMap<string, number>, target: number): { ratio: number; utilization: number; rawAverage: number } {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entries = 0;
  for (const [name, value] of metrics) {
    const request = requests.get(name);
    if (request === undefined) continue;
    metricsTotal += value;
    requestsTotal += request;
    entries++;
  }
  if (requestsTotal === 0) throw new Error('no metrics returned matched known pods');
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ratio: utilization / target, utilization, rawAverage: Math.trunc(metricsTotal / entries) };
}

/** GetMetricUsageRatio: the average reading against the target average. */
function usageRatio(metrics: ReadonlyMap<string, number>, target: number): { ratio: number; rawAverage: number } {
  let total = 0;
  for (const value of metrics.values()) total += value;
  const rawAverage = Math.trunc(total / metrics.size);
  return { ratio: rawAverage / target, rawAverage };
}

interface Measure {
  /** The ratio of current to target over the given readings. */
  ratio(metrics: ReadonlyMap<string, number>): number;
  /** What a pod without a reading counts as when scaling down. */
  scaleDownFallback(pod: string): number;
}

/** The shared core of both calculations: the replicas, and the readings that counted before any replacement. */
function replicasFor(input: MetricInput, options: ReplicaCalculatorOptions, measure: Measure): { replicas: number; counted: Map<string, number> } {
  if (input.pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
  const groups = groupPods(input, options);
  const counted = new Map<string, number>();
  for (const [name, metric] of input.metrics) if (!groups.ignored.has(name) && !groups.unready.has(name)) counted.set(name, metric.value);
  if (counted.size === 0) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
  const ratio = measure.ratio(counted);
  const scaleUpWithUnready = groups.unready.size > 0 && ratio > 1.0;
  if (!scaleUpWithUnready && groups.missing.size === 0) {
    const replicas = Math.abs(1.0 - ratio) <= options.tolerance ? input.currentReplicas : Math.ceil(ratio * groups.readyCount);
    return { replicas, counted };
  }
  const metrics = new Map(counted);
  for (const name of groups.missing) {
    if (ratio < 1.0) metrics.set(name, measure.scaleDownFallback(name));
    else if (ratio > 1.0) metrics.set(name, 0);
  }
  if (scaleUpWithUnready) for (const name of groups.unready) metrics.set(name, 0);
  const newRatio = measure.ratio(metrics);
  if (Math.abs(1.0 - newRatio) <= options.tolerance || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0)) return { replicas: input.currentReplicas, counted };
  const replicas = Math.ceil(newRatio * metrics.size);
  // A conservative reading that would move the other way than the measured one changes nothing.
  if ((newRatio < 1.0 && replicas > input.currentReplicas) || (newRatio > 1.0 && replicas < input.currentReplicas)) return { replicas: input.currentReplicas, counted };
  return { replicas, counted };
}

/** GetResourceReplicas: a target percentage of the pods' requests. */
export function utilizationReplicas(input: MetricInput, targetUtilization: number, options: ReplicaCalculatorOptions = defaultReplicaCalculatorOptions): UtilizationResult {
  const requests = podRequests(input.pods, input.resource, input.container);
  const { replicas, counted } = replicasFor(input, options, {
    ratio: (metrics) => utilizationRatio(metrics, requests, targetUtilization).ratio,
    scaleDownFallback: (pod) => Math.trunc(((requests.get(pod) ?? 0) * Math.max(100, targetUtilization)) / 100),
  });
  const { utilization, rawAverage } = utilizationRatio(counted, requests, targetUtilization);
  return { replicas, utilization, rawAverage };
}

/** GetRawResourceReplicas: a target average value per pod, in thousandths. */
export function averageValueReplicas(input: MetricInput, targetAverage: number, options: ReplicaCalculatorOptions = defaultReplicaCalculatorOptions): { replicas: number; rawAverage: number } {
  const { replicas, counted } = replicasFor(input, options, { ratio: (metrics) => usageRatio(metrics, targetAverage).ratio, scaleDownFallback: () => targetAverage });
  return { replicas, rawAverage: usageRatio(counted, targetAverage).rawAverage };
}
