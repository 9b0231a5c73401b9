// The pure parts of the pod lifecycle: phase and conditions from container states, kubelet's /etc files,
// the security context merge, and the back-off message's duration.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { effectiveSecurityContext } from '../../src/node/agent/pods/container-spec.ts';
import { etcHosts } from '../../src/node/agent/pods/pod-etc-files.ts';
import { mergeConditions, podPhase, renderStatus, type ContainerProgress, type ContainerStateOneOf as ContainerState } from '../../src/node/agent/pods/pod-status.ts';
import type { Pod } from '../../src/apimachinery/api/index.ts';
import { formatGoDuration } from '../../src/apimachinery/duration.ts';

function progress(name: string, state: ContainerState, more: Partial<{ done: boolean; ready: boolean; restartCount: number }> = {}): ContainerProgress {
  return { done: more.done ?? false, status: { name, image: 'busybox', imageID: '', state, lastState: {}, ready: more.ready ?? false, restartCount: more.restartCount ?? 0 } };
}

const running: ContainerState = { running: { startedAt: '2026-01-01T00:00:00Z' } };
const exited = (exitCode: number): ContainerState => ({ terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', finishedAt: '2026-01-01T00:00:01Z' } });
const waiting: ContainerState = { waiting: { reason: 'ContainerCreating' } };

test('the phase follows kubelet: Pending, Running, Succeeded, Failed', () => {
  const base = { init: [], initialized: true, sandboxReady: true };
  assert.equal(podPhase({ ...base, containers: [progress('a', waiting)] }), 'Pending');
  assert.equal(podPhase({ ...base, initialized: false, containers: [progress('a', running)] }), 'Pending');
  assert.equal(podPhase({ ...base, containers: [progress('a', running), progress('b', exited(0), { done: true })] }), 'Running');
  // Waiting to restart after a run is still Running.
  assert.equal(podPhase({ ...base, containers: [progress('a', { waiting: { reason: 'CrashLoopBackOff' } }, { restartCount: 1 })] }), 'Running');
  assert.equal(podPhase({ ...base, containers: [progress('a', exited(0), { done: true }), progress('b', exited(0), { done: true })] }), 'Succeeded');
  assert.equal(podPhase({ ...base, containers: [progress('a', exited(0), { done: true }), progress('b', exited(2), { done: true })] }), 'Failed');
  assert.equal(podPhase({ ...base, containers: [progress('a', running)], failure: { reason: 'DeadlineExceeded' } }), 'Failed');
});

test('conditions carry kubelet\'s reasons and keep their transition time while unchanged', () => {
  const status = renderStatus(undefined, { init: [progress('setup', running)], containers: [progress('a', waiting)], initialized: false, sandboxReady: true }, { hostIP: '10.0.0.1', podIP: '10.0.0.2', startTime: 'T' });
  const byType = new Map(status.conditions?.map((c) => [c.type, c]));
  assert.equal(byType.get('PodReadyToStartContainers')?.status, 'True');
  assert.equal(byType.get('Initialized')?.reason, 'ContainersNotInitialized');
  assert.equal(byType.get('Initialized')?.message, 'containers with incomplete status: [setup]');
  assert.equal(byType.get('Ready')?.message, 'containers with unready status: [a]');
  assert.deepEqual(status.podIPs, [{ ip: '10.0.0.2' }]);
  const kept = mergeConditions([{ type: 'PodScheduled', status: 'True', lastTransitionTime: 'A' }, { type: 'Ready', status: 'False', lastTransitionTime: 'B' }], [{ type: 'Ready', status: 'False' }], 'NOW');
  assert.deepEqual(kept.map((c) => [c.type, c.lastTransitionTime]), [['PodScheduled', 'A'], ['Ready', 'B']]);
  assert.equal(mergeConditions([{ type: 'Ready', status: 'False', lastTransitionTime: 'B' }], [{ type: 'Ready', status: 'True' }], 'NOW')[0]?.lastTransitionTime, 'NOW');
  const done = renderStatus(undefined, { init: [], containers: [progress('a', exited(0), { done: true })], initialized: true, sandboxReady: false }, { hostIP: 'h', startTime: 'T' });
  assert.equal(done.conditions?.find((c) => c.type === 'Ready')?.reason, 'PodCompleted');
});

const pod = (spec: Partial<Pod['spec']> = {}): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'shop', uid: 'u' }, spec: { containers: [], ...spec } });

test('/etc/hosts is kubelet\'s managed file with the pod\'s address, FQDN and host aliases', async () => {
  const hosts = await etcHosts(pod({ hostname: 'web', subdomain: 'svc', hostAliases: [{ ip: '10.1.1.1', hostnames: ['db', 'db.local'] }] }), '10.0.0.2');
  assert.ok(hosts.startsWith('# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n'));
  assert.match(hosts, /\n10\.0\.0\.2\tweb\.svc\.shop\.svc\.cluster\.local\tweb\n/);
  assert.match(hosts, /# Entries added by HostAliases\.\n10\.1\.1\.1\tdb\tdb\.local\n/);
});

test('the container security context overrides the pod\'s field by field', () => {
  const merged = effectiveSecurityContext(pod({ securityContext: { runAsUser: 1000, runAsGroup: 3000, runAsNonRoot: true } }), { name: 'c', securityContext: { runAsUser: 2000, privileged: false } });
  assert.deepEqual(merged, { runAsUser: 2000, runAsGroup: 3000, runAsNonRoot: true, privileged: false });
});

test('back-off delays print as Go durations', () => {
  assert.deepEqual([300, 10_000, 300_000, 90_000, 3_600_000].map((ms) => formatGoDuration(ms)), ['300ms', '10s', '5m0s', '1m30s', '1h0m0s']);
});
