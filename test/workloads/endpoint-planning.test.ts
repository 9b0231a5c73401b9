// The planning the endpoint controllers do, checked on its own (no server): how the slice reconciler packs,
// keeps and reuses slices, and how Endpoints subsets are repacked and truncated.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EndpointSlice, Node, Pod, Service } from '../../src/apimachinery/api/index.ts';
import { planSlices } from '../../src/workloads/endpointslice/reconciler.ts';
import { TriggerTimeTracker } from '../../src/workloads/endpointslice/trigger-time.ts';
import { desiredSubsets, truncateSubsets } from '../../src/workloads/endpoints/subsets.ts';

const node: Node = { metadata: { name: 'n' } };
const service: Service = { metadata: { name: 's', namespace: 'ns', uid: 'svc-uid' }, spec: { clusterIP: '10.96.0.20', selector: { app: 's' }, ports: [{ port: 80 }] } };

function pod(i: number, ready = true): Pod {
  return {
    metadata: { name: `p${i}`, namespace: 'ns', uid: `uid-${i}`, labels: { app: 's' } },
    spec: { nodeName: 'n', containers: [{ name: 'c' }] },
    status: { phase: 'Running', podIP: `10.0.${Math.floor(i / 200)}.${i % 200}`, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

/** Applies a plan as the API server would (names for creates), giving the next sync's existing slices. */
function apply(existing: EndpointSlice[], plan: ReturnType<typeof planSlices>): EndpointSlice[] {
  let n = existing.length;
  const gone = new Set([...plan.delete, ...plan.update].map((s) => s.metadata.name));
  return [...existing.filter((s) => !gone.has(s.metadata.name)), ...plan.update, ...plan.create.map((s) => ({ ...s, metadata: { ...s.metadata, name: `s-${n++}` } }))];
}

const plan = (pods: Pod[], existing: EndpointSlice[]) => planSlices({ service, pods, existing, node: () => node, maxEndpointsPerSlice: 100 });

describe('slice planning', () => {
  test('250 pods in 3 slices; a second sync writes nothing', () => {
    const pods = Array.from({ length: 250 }, (_, i) => pod(i));
    const first = plan(pods, []);
    assert.deepEqual(first.create.map((s) => s.endpoints.length), [100, 100, 50]);
    const slices = apply([], first);
    assert.deepEqual(plan(pods, slices), { create: [], update: [], delete: [], skipped: [] });
  });

  test('removed endpoints leave room that new ones fill, in place, without a new slice', () => {
    const pods = Array.from({ length: 200 }, (_, i) => pod(i));
    const slices = apply([], plan(pods, []));
    const fewer = pods.filter((_, i) => i % 2 === 1 || i >= 100);
    const more = [...fewer, ...Array.from({ length: 30 }, (_, i) => pod(300 + i))];
    const next = plan(more, slices);
    assert.equal(next.create.length, 0);
    assert.equal(next.delete.length, 0);
    assert.deepEqual(next.update.map((s) => s.endpoints.length), [80]);
  });

  test('a readiness change updates that endpoint in place', () => {
    const pods = [pod(1), pod(2)];
    const slices = apply([], plan(pods, []));
    const next = plan([pod(1), pod(2, false)], slices);
    assert.equal(next.update.length, 1);
    assert.deepEqual(next.update[0]?.endpoints.map((e) => e.conditions?.ready), [true, false]);
  });

  test('no pods: one placeholder, kept as it is on the next sync; a slice of another Service UID goes', () => {
    const first = plan([], []);
    assert.equal(first.create.length, 1);
    assert.deepEqual(first.create[0]?.endpoints, []);
    const slices = apply([], first);
    assert.deepEqual(plan([], slices), { create: [], update: [], delete: [], skipped: [] });
    const foreign = { ...slices[0]!, metadata: { ...slices[0]!.metadata, name: 'old', ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: 's', uid: 'earlier', controller: true }] } };
    const next = plan([pod(1)], [foreign]);
    assert.deepEqual(next.delete.map((s) => s.metadata.name), ['old']);
    assert.equal(next.create.length, 1);
  });
});

describe('Endpoints subsets', () => {
  test('ready and not-ready addresses of one port set share a subset, sorted', () => {
    const subsets = desiredSubsets(service, [pod(3), pod(1, false), pod(2)]);
    assert.deepEqual(subsets.map((s) => [s.addresses?.map((a) => a.ip), s.notReadyAddresses?.map((a) => a.ip), s.ports]), [
      [['10.0.0.2', '10.0.0.3'], ['10.0.0.1'], [{ name: '', port: 80, protocol: 'TCP' }]],
    ]);
  });

  test('over 1000 addresses are truncated, ready ones first', () => {
    const pods = [...Array.from({ length: 900 }, (_, i) => pod(i)), ...Array.from({ length: 300 }, (_, i) => pod(1000 + i, false))];
    const subsets = desiredSubsets(service, pods);
    assert.equal(truncateSubsets(subsets), true);
    assert.equal(subsets[0]?.addresses?.length, 900);
    assert.equal(subsets[0]?.notReadyAddresses?.length, 100);
    assert.equal(truncateSubsets(desiredSubsets(service, pods.slice(0, 1000))), false);
  });
});

describe('last-change trigger time', () => {
  const at = (p: Pod, status: 'True' | 'False', time: string): Pod => ({ ...p, status: { ...p.status, conditions: [{ type: 'Ready', status, lastTransitionTime: time }] } });
  const created = { ...service, metadata: { ...service.metadata, creationTimestamp: '2026-01-01T00:00:00Z' } };

  test('the Service creation first, then the earliest changed pod transition, nothing when nothing changed', () => {
    const tracker = new TriggerTimeTracker();
    const a = at(pod(1), 'False', '2026-01-01T00:00:05Z');
    const b = at(pod(2), 'True', '2026-01-01T00:00:06Z');
    assert.equal(tracker.compute(created, [a, b])?.toISOString(), '2026-01-01T00:00:00.000Z');
    assert.equal(tracker.compute(created, [a, b]), undefined);
    const c = at(pod(3), 'True', '2026-01-01T00:00:09Z');
    assert.equal(tracker.compute(created, [at(a, 'True', '2026-01-01T00:00:08Z'), b, c])?.toISOString(), '2026-01-01T00:00:08.000Z');
  });

  test('a Ready flip within the same second still counts', () => {
    const tracker = new TriggerTimeTracker();
    tracker.compute(created, [at(pod(1), 'False', '2026-01-01T00:00:05Z')]);
    assert.equal(tracker.compute(created, [at(pod(1), 'True', '2026-01-01T00:00:05Z')])?.toISOString(), '2026-01-01T00:00:05.000Z');
  });
});
