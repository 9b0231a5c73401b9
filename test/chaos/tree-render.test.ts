// `bosun tree disruption`: the tree built from plain objects and rendered without colour.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { CHAOS_POD_FINALIZER } from '../../src/chaos/api/constants.ts';
import type { Disruption } from '../../src/chaos/api/types.ts';
import { buildDisruptionTree, type DisruptionTreeObjects } from '../../src/chaos/tree/build.ts';
import { renderDisruptionTree } from '../../src/chaos/tree/render.ts';

const now = new Date('2026-11-25T10:05:00Z');

function disruption(extra: Partial<Disruption['metadata']> = {}, status: Partial<NonNullable<Disruption['status']>> = {}): Disruption {
  return {
    apiVersion: 'chaos.datadoghq.com/v1beta1',
    kind: 'Disruption',
    metadata: { name: 'burn', namespace: 'shop', creationTimestamp: '2026-11-25T10:00:00Z', ...extra },
    spec: { count: '100%', selector: { app: 'web' }, duration: '10m', cpuPressure: { count: '50%' }, diskPressure: { path: '/', throttling: { writeBytesPerSec: 1024 } } },
    status: {
      injectionStatus: 'PartiallyInjected',
      selectedTargetsCount: 2,
      desiredTargetsCount: 2,
      injectedTargetsCount: 1,
      ignoredTargetsCount: 0,
      targetInjections: {
        'web-a': { 'cpu-pressure': { injectorPodName: 'chaos-burn-1', injectionStatus: 'Injected' }, 'disk-pressure': { injectorPodName: 'chaos-burn-2', injectionStatus: 'Injected' } },
        'web-b': { 'cpu-pressure': { injectorPodName: 'chaos-burn-3', injectionStatus: 'NotInjected' } },
      },
      ...status,
    },
  };
}

function chaosPod(name: string, target: string, kind: string, phase: string, ready: boolean, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'chaos-engineering',
      labels: { 'chaos.datadoghq.com/target': target, 'chaos.datadoghq.com/disruption-kind': kind, 'chaos.datadoghq.com/disruption-name': 'burn', 'chaos.datadoghq.com/disruption-namespace': 'shop' },
      finalizers: [CHAOS_POD_FINALIZER],
      ...extra,
    },
    spec: { nodeName: 'node-1' },
    status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

const target = (name: string, phase: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'shop' }, spec: { nodeName: 'node-1' }, status: { phase } });

function objects(d: Disruption, chaosPods: KubeObject[]): DisruptionTreeObjects {
  return { disruptions: [d], pods: [target('web-a', 'Running')], chaosPods, nodes: [] };
}

describe('bosun tree disruption', () => {
  it('shows each target with one line per kind, its status and chaos pod', () => {
    const pods = [chaosPod('chaos-burn-1', 'web-a', 'cpu-pressure', 'Running', true), chaosPod('chaos-burn-2', 'web-a', 'disk-pressure', 'Running', true), chaosPod('chaos-burn-3', 'web-b', 'cpu-pressure', 'Pending', false)];
    const text = renderDisruptionTree(buildDisruptionTree('shop', 'burn', objects(disruption(), pods)), { color: false, now });
    assert.equal(
      text,
      [
        '[PartiallyInjected]  Disruption shop/burn  pod level: cpu-pressure, disk-pressure  targets 1/2 injected, 2 selected, 0 ignored  5m00s of 10m',
        '├── Target web-a  Running  on node-1',
        '│   ├── [Injected]  cpu-pressure  pod chaos-burn-1  Running  ready',
        '│   └── [Injected]  disk-pressure  pod chaos-burn-2  Running  ready',
        '└── Target web-b  gone',
        '    ├── [NotInjected]  cpu-pressure  pod chaos-burn-3  Pending',
        '    └── [NotInjected]  disk-pressure  no chaos pod',
        '',
      ].join('\n'),
    );
  });

  it('says what cleanup waits for, and which pods are stuck', () => {
    const deleting = { deletionTimestamp: '2026-11-25T10:04:00Z' };
    const failed = { ...chaosPod('chaos-burn-2', 'web-a', 'disk-pressure', 'Failed', false, deleting), status: { phase: 'Failed', containerStatuses: [{ state: { terminated: { reason: 'Error', exitCode: 1 } } }] } };
    const waiting = renderDisruptionTree(buildDisruptionTree('shop', 'burn', objects(disruption(deleting), [failed])), { color: false, now });
    assert.match(waiting, /cleanup waits for: 1 chaos pod to clean and go \(chaos-burn-2\)/);
    assert.match(waiting, /pod chaos-burn-2 {2}Failed {2}Error \(exit 1\) {2}deleting, injector cleaning/);
    const stuck = renderDisruptionTree(buildDisruptionTree('shop', 'burn', objects(disruption(deleting, { isStuckOnRemoval: true }), [failed])), { color: false, now });
    assert.match(stuck, /stuck on removal: chaos pods chaos-burn-2 \(Failed, Error \(exit 1\)\) did not clean/);
  });

  it('lists chaos pods whose target left the status, and says when a disruption is not there', () => {
    const stray = chaosPod('chaos-burn-9', 'web-z', 'cpu-pressure', 'Running', true, { deletionTimestamp: '2026-11-25T10:04:00Z' });
    const text = renderDisruptionTree(buildDisruptionTree('shop', 'burn', objects(disruption(), [stray])), { color: false, now });
    assert.match(text, /└── \(no longer a target\) {2}pod chaos-burn-9/);
    assert.equal(renderDisruptionTree(buildDisruptionTree('shop', 'other', objects(disruption(), [])), { color: false, now }), 'not found: Disruption shop/other\n');
  });
});
