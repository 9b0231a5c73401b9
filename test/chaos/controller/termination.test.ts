// The chaos pod termination table (§2.8), with the cases of upstream's services/chaospod_test.go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../../src/apimachinery/api/index.ts';
import { decideTermination, type TerminationDecision } from '../../../src/chaos/controller/termination.ts';
import { podFixture, type PodStatusFixture } from './pod-fixture.ts';

const deleting = (status: PodStatusFixture): Pod => podFixture({ metadata: { name: 'chaos-x', deletionTimestamp: '2026-01-01T00:00:00Z' }, status });

const cases: Array<[string, { pod: Pod; kind?: string; healthy?: boolean; hasFinalizer?: boolean; dryRun?: boolean }, TerminationDecision]> = [
  ['not being deleted', { pod: podFixture({ metadata: { name: 'p' }, status: { phase: 'Failed' } }) }, 'ignore'],
  ['without the finalizer', { pod: deleting({ phase: 'Failed' }), hasFinalizer: false }, 'ignore'],
  ['target unhealthy (gone, not running, node not ready)', { pod: deleting({ phase: 'Failed', containerStatuses: [{ name: 'injector' }] }), healthy: false }, 'removeFinalizer'],
  ['a success pod', { pod: deleting({ phase: 'Succeeded' }) }, 'removeFinalizer'],
  ['a pending pod', { pod: deleting({ phase: 'Pending' }) }, 'removeFinalizer'],
  ['a failed pod (no container statuses)', { pod: deleting({ phase: 'Failed' }) }, 'removeFinalizer'],
  [
    'a failed pod that never started',
    { pod: deleting({ phase: 'Failed', reason: 'PodFailed', containerStatuses: [{ name: 'injector', started: false, state: { terminated: { reason: 'ContainerStatusUnknown', exitCode: 137 } } }] }) },
    'removeFinalizer',
  ],
  ['a failed pod exceeding its activeDeadlineSeconds', { pod: deleting({ phase: 'Failed', reason: 'DeadlineExceeded', containerStatuses: [{ name: '' }] }) }, 'removeFinalizer'],
  ['a failed pod with the injector in StartError', { pod: deleting({ phase: 'Failed', containerStatuses: [{ name: 'injector', state: { terminated: { reason: 'StartError' } } }] }) }, 'removeFinalizer'],
  ['a running node-failure chaos pod (no side effects)', { pod: deleting({ phase: 'Running' }), kind: 'node-failure' }, 'removeFinalizer'],
  ['a running container-failure chaos pod', { pod: deleting({ phase: 'Running' }), kind: 'container-failure' }, 'removeFinalizer'],
  ['a running pod-replacement chaos pod', { pod: deleting({ phase: 'Running' }), kind: 'pod-replacement' }, 'removeFinalizer'],
  ['a running pod: still cleaning', { pod: deleting({ phase: 'Running' }) }, 'wait'],
  ['a failed pod with containers', { pod: deleting({ phase: 'Failed', containerStatuses: [{ name: 'test-1' }] }) }, 'stuck'],
  ['a failed pod with a running injector', { pod: deleting({ phase: 'Failed', containerStatuses: [{ name: 'injector' }] }) }, 'stuck'],
  ['a failed pod whose injector exited 1 without ever running', { pod: deleting({ phase: 'Failed', containerStatuses: [{ name: 'injector', started: false, state: { terminated: { exitCode: 1, reason: 'Error' } } }] }) }, 'removeFinalizer'],
  // What kubelet (and Bosun's node agent) report for an injector whose clean failed: started is false once terminated.
  [
    'a failed pod whose injector ran and exited 1 (its clean failed)',
    { pod: deleting({ phase: 'Failed', containerStatuses: [{ name: 'injector', started: false, state: { terminated: { exitCode: 1, reason: 'Error', startedAt: '2026-11-25T00:00:00Z' } } }] }) },
    'stuck',
  ],
  // A dry run changed nothing on its target: whatever ended its injector left nothing to clean.
  [
    'a dry-run chaos pod whose injector was killed while running',
    { pod: deleting({ phase: 'Failed', containerStatuses: [{ name: 'injector', started: false, state: { terminated: { exitCode: 137, reason: 'Error', startedAt: '2026-11-25T00:00:00Z' } } }] }), dryRun: true },
    'removeFinalizer',
  ],
  ['a failed pod whose started injector exited 1', { pod: deleting({ phase: 'Failed', containerStatuses: [{ name: 'injector', started: true, state: { terminated: { exitCode: 1, reason: 'Error' } } }] }) }, 'stuck'],
];

for (const [name, input, expected] of cases) {
  test(`termination: ${name} → ${expected}`, () => {
    assert.equal(decideTermination({ pod: input.pod, kind: input.kind ?? 'network-disruption', targetHealthy: input.healthy ?? true, hasFinalizer: input.hasFinalizer ?? true, dryRun: input.dryRun ?? false }), expected);
  });
}
