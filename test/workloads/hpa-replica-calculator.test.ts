// The HorizontalPodAutoscaler's replica calculation as a table, cases ported from kube-controller-manager's
// replica_calculator_test.go (same pods, readings, targets and expectations; its testing periods: CPU
// initialization 2 min, initial readiness delay 10 s; "cool" pods started 3 min ago, "hot" ones 30 s ago), plus
// the stabilization and rate limits of normalize.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Pod } from '../../src/apimachinery/api/index.ts';
import { ReplicaNormalizer } from '../../src/workloads/hpa/normalize.ts';
import { averageValueReplicas, utilizationReplicas, type PodMetric } from '../../src/workloads/hpa/replica-calculator.ts';

const NOW = new Date('2026-01-01T12:00:00Z');
const COOL = new Date(NOW.getTime() - 3 * 60_000).toISOString();
const HOT = new Date(NOW.getTime() - 30_000).toISOString();
const options = { tolerance: 0.1, cpuInitializationPeriodMs: 2 * 60_000, delayOfInitialReadinessStatusMs: 10_000 };

interface Case {
  name: string;
  current: number;
  /** CPU requests in millicores, one per pod. */
  requests: number[];
  /** Readings in millicores of the first pods; a pod beyond the list has none. */
  levels: number[];
  target: number;
  expected: number;
  utilization: number;
  value: number;
  ready?: ('True' | 'False')[];
  phase?: Pod['status'] extends infer S ? (S extends { phase?: infer P } ? P : never)[] : never;
  started?: string[];
  deleting?: boolean[];
}

function pods(c: Case): { pods: Pod[]; metrics: Map<string, PodMetric> } {
  const list = c.requests.map((request, i): Pod => {
    const started = c.started?.[i] ?? COOL;
    return {
      metadata: { name: `pod-${i}`, ...(c.deleting?.[i] ? { deletionTimestamp: NOW.toISOString() } : {}) },
      spec: { containers: [{ name: 'c', resources: { requests: { cpu: `${request}m` } } }] },
      status: { phase: c.phase?.[i] ?? 'Running', startTime: started, conditions: [{ type: 'Ready', status: c.ready?.[i] ?? 'True', lastTransitionTime: started }] },
    };
  });
  const metrics = new Map(c.levels.map((level, i) => [`pod-${i}`, { value: level, timestampMs: NOW.getTime() - 10_000, windowMs: 30_000 }]));
  return { pods: list, metrics };
}

const cases: Case[] = [
  { name: 'ScaleUp', current: 3, requests: [1000, 1000, 1000], levels: [300, 500, 700], target: 30, expected: 5, utilization: 50, value: 500 },
  { name: 'ScaleUpUnreadyLessScale', current: 3, requests: [1000, 1000, 1000], levels: [300, 500, 700], ready: ['False', 'True', 'True'], target: 30, expected: 4, utilization: 60, value: 600 },
  { name: 'ScaleUpHotCpuLessScale', current: 3, requests: [1000, 1000, 1000], levels: [300, 500, 700], started: [HOT, COOL, COOL], target: 30, expected: 4, utilization: 60, value: 600 },
  { name: 'ScaleUpUnreadyNoScale', current: 3, requests: [1000, 1000, 1000], levels: [400, 500, 700], ready: ['True', 'False', 'False'], target: 30, expected: 3, utilization: 40, value: 400 },
  { name: 'ScaleUpIgnoresFailedPods', current: 2, requests: [1000, 1000, 1000, 1000], levels: [500, 700], ready: ['True', 'True', 'False', 'False'], phase: ['Running', 'Running', 'Failed', 'Failed'], target: 30, expected: 4, utilization: 60, value: 600 },
  { name: 'ScaleUpIgnoresDeletionPods', current: 2, requests: [1000, 1000, 1000, 1000], levels: [500, 700], ready: ['True', 'True', 'False', 'False'], deleting: [false, false, true, true], target: 30, expected: 4, utilization: 60, value: 600 },
  { name: 'ScaleDown', current: 5, requests: [1000, 1000, 1000, 1000, 1000], levels: [100, 300, 500, 250, 250], target: 50, expected: 3, utilization: 28, value: 280 },
  { name: 'ScaleDownIgnoresUnreadyPods', current: 5, requests: [1000, 1000, 1000, 1000, 1000], levels: [100, 300, 500, 250, 250], ready: ['True', 'True', 'True', 'False', 'False'], target: 50, expected: 2, utilization: 30, value: 300 },
  { name: 'ScaleDownIgnoresFailedPods', current: 5, requests: [1000, 1000, 1000, 1000, 1000, 1000, 1000], levels: [100, 300, 500, 250, 250], phase: ['Running', 'Running', 'Running', 'Running', 'Running', 'Failed', 'Failed'], target: 50, expected: 3, utilization: 28, value: 280 },
  { name: 'Tolerance', current: 3, requests: [900, 1000, 1100], levels: [1010, 1030, 1020], target: 100, expected: 3, utilization: 102, value: 1020 },
  { name: 'MissingMetricsNoChangeEq', current: 2, requests: [1000, 1000], levels: [1000], target: 100, expected: 2, utilization: 100, value: 1000 },
  { name: 'MissingMetricsNoChangeGt', current: 2, requests: [1000, 1000], levels: [1900], target: 100, expected: 2, utilization: 190, value: 1900 },
  { name: 'MissingMetricsNoChangeLt', current: 2, requests: [1000, 1000], levels: [600], target: 100, expected: 2, utilization: 60, value: 600 },
  { name: 'MissingMetrics (scale up treats the missing pod as idle)', current: 4, requests: [1000, 1000, 1000, 1000], levels: [900, 900, 900], target: 50, expected: 6, utilization: 90, value: 900 },
  { name: 'MissingMetricsScaleDown (a missing pod counts as its whole request)', current: 4, requests: [1000, 1000, 1000, 1000], levels: [100, 100, 100], target: 50, expected: 3, utilization: 10, value: 100 },
];

describe('utilizationReplicas (GetResourceReplicas)', () => {
  for (const c of cases) {
    test(c.name, () => {
      const { pods: list, metrics } = pods(c);
      const result = utilizationReplicas({ currentReplicas: c.current, pods: list, metrics, resource: 'cpu', now: NOW }, c.target, options);
      assert.deepEqual(result, { replicas: c.expected, utilization: c.utilization, rawAverage: c.value });
    });
  }

  test('a container without a request is an error naming it', () => {
    const { pods: list, metrics } = pods({ ...cases[0]!, requests: [1000] });
    list[0]!.spec.containers[0]!.resources = {};
    assert.throws(() => utilizationReplicas({ currentReplicas: 1, pods: list, metrics, resource: 'cpu', now: NOW }, 50, options), /missing request for cpu in container c of Pod pod-0/);
  });

  test('no pods and no usable readings are errors', () => {
    assert.throws(() => utilizationReplicas({ currentReplicas: 1, pods: [], metrics: new Map(), resource: 'cpu', now: NOW }, 50, options), /no pods returned by selector/);
    const { pods: list, metrics } = pods({ ...cases[0]!, ready: ['False', 'False', 'False'] });
    assert.throws(() => utilizationReplicas({ currentReplicas: 3, pods: list, metrics, resource: 'cpu', now: NOW }, 50, options), /did not receive metrics for targeted pods/);
  });

  test('memory readings of unready pods count (readiness only matters for CPU)', () => {
    const { pods: list, metrics } = pods({ ...cases[1]! });
    for (const pod of list) pod.spec.containers[0]!.resources = { requests: { memory: '1000m' } };
    const result = utilizationReplicas({ currentReplicas: 3, pods: list, metrics, resource: 'memory', now: NOW }, 30, options);
    assert.deepEqual(result, { replicas: 5, utilization: 50, rawAverage: 500 });
  });
});

describe('averageValueReplicas (GetRawResourceReplicas)', () => {
  test('scales on the average reading against the target average', () => {
    const { pods: list, metrics } = pods(cases[0]!);
    assert.deepEqual(averageValueReplicas({ currentReplicas: 3, pods: list, metrics, resource: 'cpu', now: NOW }, 250, options), { replicas: 6, rawAverage: 500 });
  });
  test('a missing pod counts as the target when scaling down', () => {
    const { pods: list, metrics } = pods({ ...cases[0]!, levels: [100, 100] });
    assert.deepEqual(averageValueReplicas({ currentReplicas: 3, pods: list, metrics, resource: 'cpu', now: NOW }, 400, options), { replicas: 2, rawAverage: 100 });
  });
});

describe('ReplicaNormalizer', () => {
  const base = { key: 'ns/web', minReplicas: 1, maxReplicas: 10, nowMs: 1_000_000 };

  test('without a behavior, scale-down waits for the highest recommendation of the window', () => {
    const n = new ReplicaNormalizer(300_000);
    n.recordInitial(base.key, 5, base.nowMs);
    const down = n.normalize({ ...base, currentReplicas: 5, desiredReplicas: 2, behavior: undefined });
    assert.equal(down.replicas, 5);
    assert.equal(down.ableToScale.reason, 'ScaleDownStabilized');
    const later = n.normalize({ ...base, nowMs: base.nowMs + 301_000, currentReplicas: 5, desiredReplicas: 2, behavior: undefined });
    assert.equal(later.replicas, 2);
  });

  test('without a behavior, growth is capped at max(2×current, 4) and clamped to the bounds', () => {
    const n = new ReplicaNormalizer(0);
    const up = n.normalize({ ...base, currentReplicas: 1, desiredReplicas: 9, behavior: undefined });
    assert.deepEqual([up.replicas, up.scalingLimited.status, up.scalingLimited.reason], [4, 'True', 'ScaleUpLimit']);
    const max = n.normalize({ ...base, maxReplicas: 3, currentReplicas: 2, desiredReplicas: 9, behavior: undefined });
    assert.deepEqual([max.replicas, max.scalingLimited.reason], [3, 'TooManyReplicas']);
    const min = n.normalize({ ...base, minReplicas: 2, currentReplicas: 3, desiredReplicas: 1, behavior: undefined });
    assert.deepEqual([min.replicas, min.scalingLimited.reason], [2, 'TooFewReplicas']);
    const within = n.normalize({ ...base, currentReplicas: 3, desiredReplicas: 5, behavior: undefined });
    assert.deepEqual([within.replicas, within.scalingLimited.status, within.scalingLimited.reason], [5, 'False', 'DesiredWithinRange']);
  });

  test('a behavior’s policies limit the change per period, counting recent scale events', () => {
    const behavior = { scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max' as const, policies: [{ type: 'Pods' as const, value: 2, periodSeconds: 60 }] }, scaleDown: { stabilizationWindowSeconds: 0, policies: [{ type: 'Percent' as const, value: 50, periodSeconds: 60 }] } };
    const n = new ReplicaNormalizer(300_000);
    const first = n.normalize({ ...base, currentReplicas: 2, desiredReplicas: 8, behavior });
    assert.deepEqual([first.replicas, first.scalingLimited.reason], [4, 'ScaleUpLimit']);
    n.recordScale(base.key, behavior, 2, 4, base.nowMs);
    // Within the period the two added pods count: the period started at 2, so 4 is already the limit.
    const again = n.normalize({ ...base, nowMs: base.nowMs + 10_000, currentReplicas: 4, desiredReplicas: 8, behavior });
    assert.equal(again.replicas, 4);
    const down = n.normalize({ ...base, nowMs: base.nowMs + 120_000, currentReplicas: 8, desiredReplicas: 1, behavior });
    assert.deepEqual([down.replicas, down.scalingLimited.reason], [4, 'ScaleDownLimit']);
    const disabled = n.normalize({ ...base, currentReplicas: 3, desiredReplicas: 1, behavior: { ...behavior, scaleDown: { selectPolicy: 'Disabled' as const, stabilizationWindowSeconds: 0 } } });
    assert.equal(disabled.replicas, 3);
  });

  test('a scale-up window applies its lowest recent recommendation', () => {
    const behavior = { scaleUp: { stabilizationWindowSeconds: 60, policies: [{ type: 'Percent' as const, value: 100, periodSeconds: 15 }] }, scaleDown: { stabilizationWindowSeconds: 0 } };
    const n = new ReplicaNormalizer(300_000);
    n.recordInitial(base.key, 2, base.nowMs - 1000);
    const up = n.normalize({ ...base, currentReplicas: 2, desiredReplicas: 4, behavior });
    assert.deepEqual([up.replicas, up.ableToScale.reason], [2, 'ScaleUpStabilized']);
  });
});
