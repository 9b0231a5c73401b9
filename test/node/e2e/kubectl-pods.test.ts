// Issue 10's "Must show" for single pods, with real kubectl against `bosun up`: the security context, a
// configMap volume, memory and CPU limits, readiness and liveness probes, graceful deletion and exec; and
// issue 19's `kubectl logs` of containers that never started.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

function pod(name: string, container: Record<string, unknown>, spec: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { restartPolicy: 'Never', terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'busybox', ...container }], ...spec },
  });
}

describe('pods on bosun up with real kubectl', () => {
  let up: BosunUp;
  const ok = (args: string[], input?: string): Promise<string> => up.ok(args, input);
  const field = (name: string, path: string) => ok(['get', 'pod', name, '-o', `jsonpath=${path}`]);
  const finished = (name: string) => ok(['wait', '--for=jsonpath={.status.phase}=Succeeded', `pod/${name}`, '--timeout=60s']);

  before(async () => {
    up = await startBosunUp();
  });
  after(async () => {
    await up.close();
  });

  test('runAsUser 1000 really runs as uid 1000; a configMap volume is readable at its mountPath', async () => {
    await ok(['create', 'configmap', 'settings', '--from-literal=greeting=hello from a configmap']);
    await ok(['apply', '-f', '-'], pod('whoami', { command: ['sh', '-c', 'id -u; cat /etc/settings/greeting'], securityContext: { runAsUser: 1000 }, volumeMounts: [{ name: 'cfg', mountPath: '/etc/settings' }] }, { volumes: [{ name: 'cfg', configMap: { name: 'settings' } }] }));
    await finished('whoami');
    // The last line had no newline; like containerd, the CRI log ends it as a full line.
    assert.equal(await ok(['logs', 'whoami']), '1000\nhello from a configmap\n');
  });

  test('a memory limit makes a hungry process OOMKilled; a CPU limit is a cgroup quota', async () => {
    await ok(['apply', '-f', '-'], pod('hungry', { command: ['sh', '-c', 'x=$(head -c 300000000 /dev/zero | tr "\\0" a); echo survived ${#x}'], resources: { limits: { memory: '64Mi' } } }));
    await ok(['wait', '--for=jsonpath={.status.phase}=Failed', 'pod/hungry', '--timeout=60s']);
    assert.equal(await field('hungry', '{.status.containerStatuses[0].state.terminated.reason}'), 'OOMKilled');
    await ok(['apply', '-f', '-'], pod('quota', { command: ['sh', '-c', 'cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us /sys/fs/cgroup/cpu/cpu.cfs_period_us 2>/dev/null || cat /sys/fs/cgroup/cpu.max'], resources: { limits: { cpu: '250m' } } }));
    await finished('quota');
    assert.match(await ok(['logs', 'quota']), /^(25000\n100000|25000 100000)\n$/);
  });

  test('a readiness exec probe flips Ready when its file appears; a liveness failure restarts the container', async () => {
    const probe = (command: string[]) => ({ exec: { command }, periodSeconds: 1, failureThreshold: 1 });
    await ok(['apply', '-f', '-'], pod('becomes-ready', { command: ['sh', '-c', 'sleep 2; touch /tmp/ready; exec sleep 3600'], readinessProbe: probe(['test', '-f', '/tmp/ready']) }));
    await ok(['wait', '--for=condition=Ready=false', 'pod/becomes-ready', '--timeout=30s']);
    await ok(['wait', '--for=condition=Ready', 'pod/becomes-ready', '--timeout=60s']);
    await ok(['apply', '-f', '-'], pod('dies-inside', { command: ['sh', '-c', 'touch /tmp/alive; sleep 2; rm /tmp/alive; exec sleep 3600'], livenessProbe: probe(['test', '-f', '/tmp/alive']) }, { restartPolicy: 'Always' }));
    await ok(['wait', '--for=jsonpath={.status.containerStatuses[0].restartCount}=1', 'pod/dies-inside', '--timeout=60s']);
    const events = await ok(['get', 'events', '--field-selector', 'involvedObject.name=dies-inside', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
    assert.match(events, /Unhealthy: Liveness probe failed/);
    assert.match(events, /Killing: Container c failed liveness probe, will be restarted/);
    await ok(['delete', 'pod', 'becomes-ready', 'dies-inside', '--wait=true', '--timeout=60s']);
  });

  test('kubectl logs of a container that never started answers as kube-apiserver does', async () => {
    const logs = (name: string, ...more: string[]) => up.kubectl(['logs', name, ...more]);
    // Waiting, never run: kubelet's validateContainerLogStatus answers 400 with the waiting reason.
    await ok(['apply', '-f', '-'], pod('cannot-create', { image: 'registry.example.com/team/app:1.0' }));
    await ok(['wait', '--for=jsonpath={.status.containerStatuses[0].state.waiting.reason}=CreateContainerError', 'pod/cannot-create', '--timeout=60s']);
    const waiting = await logs('cannot-create');
    assert.notEqual(waiting.code, 0);
    assert.match(waiting.stderr, /Error from server \(BadRequest\): container "c" in pod "cannot-create" is waiting to start: CreateContainerError/);
    // Behind an init container that runs: PodInitializing.
    await ok(['apply', '-f', '-'], pod('initializing', { command: ['true'] }, { initContainers: [{ name: 'first', image: 'busybox', command: ['sleep', '3600'] }] }));
    await ok(['wait', '--for=jsonpath={.status.initContainerStatuses[0].started}=true', 'pod/initializing', '--timeout=60s']);
    const initializing = await logs('initializing', '-c', 'c');
    assert.notEqual(initializing.code, 0);
    assert.match(initializing.stderr, /Error from server \(BadRequest\): container "c" in pod "initializing" is waiting to start: PodInitializing/);
    // A run that failed to start wrote no output: its log is empty, now and while it waits to be restarted.
    await ok(['apply', '-f', '-'], pod('start-error', { command: ['definitely-not-a-command'] }));
    await ok(['wait', '--for=jsonpath={.status.containerStatuses[0].state.terminated.reason}=StartError', 'pod/start-error', '--timeout=60s']);
    assert.equal(await ok(['logs', 'start-error']), '');
    await ok(['apply', '-f', '-'], pod('start-loop', { command: ['definitely-not-a-command'] }, { restartPolicy: 'Always' }));
    await ok(['wait', '--for=jsonpath={.status.containerStatuses[0].state.waiting.reason}=CrashLoopBackOff', 'pod/start-loop', '--timeout=60s']);
    assert.equal(await ok(['logs', 'start-loop']), '');
    assert.equal(await ok(['logs', 'start-loop', '--previous']), '');
    await ok(['delete', 'pod', 'cannot-create', 'initializing', 'start-error', 'start-loop', '--wait=true', '--timeout=60s']);
  });

  test('kubectl exec runs in the pod (its hostname); kubectl delete sends SIGTERM and waits for the grace period', async () => {
    const marks = mkdtempSync(join(tmpdir(), 'bosun-e2e-marks-'));
    chmodSync(marks, 0o777); // the containers run as an unprivileged user
    const volume = { volumes: [{ name: 'marks', hostPath: { path: marks } }], terminationGracePeriodSeconds: 30 };
    // A hostPath volume needs a trusted namespace: Pod Security baseline (the default) refuses it elsewhere.
    await ok(['create', 'namespace', 'marks']);
    await ok(['label', 'namespace', 'marks', 'pod-security.kubernetes.io/enforce=privileged']);
    const n = ['-n', 'marks'];
    await ok(['apply', '-f', '-', ...n], pod('polite', { command: ['sh', '-c', 'trap "echo TERM > /marks/polite; exit 0" TERM; while true; do sleep 0.1; done'], volumeMounts: [{ name: 'marks', mountPath: '/marks' }] }, volume));
    await ok(['wait', '--for=condition=Ready', 'pod/polite', '--timeout=60s', ...n]);
    assert.equal(await ok(['exec', 'polite', ...n, '--', 'cat', '/etc/hostname']), 'polite\n');
    await ok(['delete', 'pod', 'polite', '--timeout=60s', ...n]);
    assert.equal(readFileSync(join(marks, 'polite'), 'utf8'), 'TERM\n');

    await ok(['apply', '-f', '-', ...n], pod('stubborn', { command: ['sh', '-c', 'trap "echo ignored > /marks/stubborn" TERM; while true; do sleep 0.1; done'], volumeMounts: [{ name: 'marks', mountPath: '/marks' }] }, { ...volume, terminationGracePeriodSeconds: 3 }));
    await ok(['wait', '--for=condition=Ready', 'pod/stubborn', '--timeout=60s', ...n]);
    const started = Date.now();
    await ok(['delete', 'pod', 'stubborn', '--timeout=60s', ...n]);
    assert.ok(Date.now() - started >= 3000, 'the pod stayed for its grace period before SIGKILL');
    assert.ok(existsSync(join(marks, 'stubborn')), 'it got SIGTERM first');
    rmSync(marks, { recursive: true, force: true });
  });
});
