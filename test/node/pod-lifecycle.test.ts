// The pod lifecycle on a real node agent: pods bound to the node run as sandboxed processes, and their
// status, logs and Events are what kubelet would write.
import assert from 'node:assert/strict';
import { access, readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { podsResource } from '../../src/apimachinery/builtin-resources.ts';
import { logContents } from './harness.ts';
import { busybox, startPodHarness, type PodHarness } from './pod-harness.ts';

let h: PodHarness;
before(async () => {
  // The cluster's default Pod Security level is privileged here, so that a privileged pod in an unlabelled
  // (untrusted) namespace reaches the node, whose own refusal one test shows.
  h = await startPodHarness({ imageMap: { myapp: { entrypoint: ['sh', '-c'], cmd: ['echo mapped image'] } } }, { podSecurity: 'privileged' });
});
after(async () => {
  await h.close();
});

const phase = (name: string) => h.pod(name)?.status?.phase;
const condition = (name: string, type: string) => h.pod(name)?.status?.conditions?.find((c) => c.type === type)?.status;

test('a one-shot pod succeeds, with a Completed container status and its output in the log', { timeout: 20_000 }, async () => {
  await h.create('one-shot', { restartPolicy: 'Never', containers: [busybox('main', 'echo hello from the pod')] });
  await h.until(() => phase('one-shot') === 'Succeeded', 'one-shot Succeeded');
  const status = h.pod('one-shot')?.status;
  const main = h.container('one-shot', 'main');
  assert.ok(main?.state?.terminated);
  assert.equal(main.state.terminated.exitCode, 0);
  assert.equal(main.state.terminated.reason, 'Completed');
  assert.match(main.containerID ?? '', /^bosun:\/\/[0-9a-f]{64}$/);
  assert.equal(main.state.terminated.containerID, main.containerID);
  assert.equal(main.restartCount, 0);
  assert.equal(main.ready, false);
  assert.equal(status?.podIP, '127.0.0.1');
  assert.equal(status?.hostIP, '127.0.0.1');
  assert.deepEqual(status?.podIPs, [{ ip: '127.0.0.1' }]);
  assert.ok(status?.startTime);
  assert.equal(condition('one-shot', 'Ready'), 'False');
  assert.equal(status?.conditions?.find((c) => c.type === 'Ready')?.reason, 'PodCompleted');
  assert.equal(condition('one-shot', 'Initialized'), 'True');
  const logPath = h.agent.containers.logPath({ namespace: 'default', pod: 'one-shot', container: 'main' }, false);
  assert.ok(logPath);
  assert.deepEqual(await logContents(logPath), ['hello from the pod']);
  assert.equal(h.agent.containers.logPath({ namespace: 'default', pod: 'one-shot', container: 'main' }, true), undefined);
  await h.until(() => ['Pulled', 'Created', 'Started'].every((r) => h.events('one-shot').some((e) => e.reason === r)), 'kubelet Events');
  const events = h.events('one-shot');
  assert.equal(events.find((e) => e.reason === 'Created')?.message, 'Created container: main');
  assert.equal(events.find((e) => e.reason === 'Started')?.message, 'Started container main');
  assert.equal(events.find((e) => e.reason === 'Pulled')?.message, 'Container image "busybox" already present on machine');
  assert.deepEqual(events.find((e) => e.reason === 'Started')?.source, { component: 'kubelet', host: 'node-test' });
});

test('a failing pod with restartPolicy Never fails with reason Error', { timeout: 20_000 }, async () => {
  await h.create('fails', { restartPolicy: 'Never', containers: [busybox('main', 'exit 3')] });
  await h.until(() => phase('fails') === 'Failed', 'fails Failed');
  const main = h.container('fails', 'main');
  assert.ok(main?.state?.terminated);
  assert.equal(main.state.terminated.exitCode, 3);
  assert.equal(main.state.terminated.reason, 'Error');
});

test('OnFailure restarts a failing container, counting restarts and keeping the last state', { timeout: 20_000 }, async () => {
  // Fails twice, then succeeds: the emptyDir keeps the count across runs.
  const script = 'n=$(cat /work/n 2>/dev/null || echo 0); n=$((n+1)); echo $n > /work/n; echo run $n; [ $n -ge 3 ]';
  await h.create('retries', {
    restartPolicy: 'OnFailure',
    volumes: [{ name: 'work', emptyDir: {} }],
    containers: [busybox('main', script, { volumeMounts: [{ name: 'work', mountPath: '/work' }] })],
  });
  await h.until(() => phase('retries') === 'Succeeded', 'retries Succeeded');
  const main = h.container('retries', 'main');
  assert.equal(main?.restartCount, 2);
  assert.ok(main?.state?.terminated && main.lastState?.terminated);
  assert.equal(main.lastState.terminated.exitCode, 1);
  assert.equal(main.state.terminated.exitCode, 0);
  const ref = { namespace: 'default', pod: 'retries', container: 'main' };
  assert.deepEqual(await logContents(h.agent.containers.logPath(ref, false) ?? ''), ['run 3']);
  assert.deepEqual(await logContents(h.agent.containers.logPath(ref, true) ?? ''), ['run 2']);
  assert.ok(h.events('retries').some((e) => e.reason === 'BackOff' && e.message?.startsWith('Back-off restarting failed container main in pod retries_default(')));
});

test('init containers run in order before the containers', { timeout: 20_000 }, async () => {
  await h.create('inits', {
    restartPolicy: 'Never',
    volumes: [{ name: 'work', emptyDir: {} }],
    initContainers: [
      busybox('first', 'echo first >> /work/order', { volumeMounts: [{ name: 'work', mountPath: '/work' }] }),
      busybox('second', 'sleep 0.2; echo second >> /work/order', { volumeMounts: [{ name: 'work', mountPath: '/work' }] }),
    ],
    containers: [busybox('main', 'echo main >> /work/order; cat /work/order', { volumeMounts: [{ name: 'work', mountPath: '/work' }] })],
  });
  await h.until(() => phase('inits') === 'Succeeded', 'inits Succeeded');
  const logPath = h.agent.containers.logPath({ namespace: 'default', pod: 'inits', container: 'main' }, false);
  assert.deepEqual(await logContents(logPath ?? ''), ['first', 'second', 'main']);
  for (const name of ['first', 'second']) {
    const init = h.container('inits', name, true);
    assert.ok(init?.state?.terminated);
    assert.equal(init.state.terminated.reason, 'Completed');
  }
});

test('a failing init container under Never fails the pod and never runs the containers', { timeout: 20_000 }, async () => {
  await h.create('init-fails', { restartPolicy: 'Never', initContainers: [busybox('setup', 'exit 2')], containers: [busybox('main', 'echo never')] });
  await h.until(() => phase('init-fails') === 'Failed', 'init-fails Failed');
  const main = h.container('init-fails', 'main');
  assert.ok(main?.state?.waiting);
  assert.equal(main.state.waiting.reason, 'PodInitializing');
  assert.equal(condition('init-fails', 'Initialized'), 'False');
});

test('a container that keeps failing goes into CrashLoopBackOff', { timeout: 20_000 }, async () => {
  await h.create('crashes', { containers: [busybox('main', 'exit 1')] });
  await h.until(() => {
    const main = h.container('crashes', 'main');
    return main?.state?.waiting !== undefined && main.state.waiting.reason === 'CrashLoopBackOff';
  }, 'CrashLoopBackOff');
  const main = h.container('crashes', 'main');
  assert.ok(main?.state?.waiting);
  assert.match(main.state.waiting.message ?? '', /^back-off \d+(ms|s) restarting failed container=main pod=crashes_default\([0-9a-f-]+\)$/);
  assert.ok(main.lastState?.terminated);
  assert.equal(phase('crashes'), 'Running');
  assert.equal(condition('crashes', 'Ready'), 'False');
});

test('runAsUser from the pod security context sets the process uid', { timeout: 20_000 }, async () => {
  await h.create('uid', { restartPolicy: 'Never', securityContext: { runAsUser: 1000 }, containers: [busybox('main', 'id -u')] });
  await h.until(() => phase('uid') === 'Succeeded', 'uid Succeeded');
  assert.deepEqual(await logContents(h.agent.containers.logPath({ namespace: 'default', pod: 'uid', container: 'main' }, false) ?? ''), ['1000']);
});

test('a container over its memory limit is OOMKilled', { timeout: 30_000 }, async () => {
  await h.create('hungry', {
    restartPolicy: 'Never',
    containers: [busybox('main', 'x=$(head -c 100000000 /dev/zero | tr "\\0" a); echo $x | wc -c', { resources: { limits: { memory: '16Mi' } } })],
  });
  await h.until(() => phase('hungry') === 'Failed', 'hungry Failed', 25_000);
  const main = h.container('hungry', 'main');
  assert.ok(main?.state?.terminated);
  assert.equal(main.state.terminated.reason, 'OOMKilled');
});

test('an image the node cannot map waits with CreateContainerError while another pod runs', { timeout: 20_000 }, async () => {
  await h.create('unknown-image', { containers: [{ name: 'main', image: 'example.com/app:1' }] });
  await h.create('neighbour', { restartPolicy: 'Never', containers: [busybox('main', 'echo fine')] });
  await h.until(() => {
    const main = h.container('unknown-image', 'main');
    return phase('neighbour') === 'Succeeded' && main?.state?.waiting !== undefined && main.state.waiting.reason === 'CreateContainerError';
  }, 'unknown image waiting, neighbour Succeeded');
  const main = h.container('unknown-image', 'main');
  assert.ok(main?.state?.waiting);
  assert.match(main.state.waiting.message ?? '', /has no known entrypoint on this node, which runs no images; set command .* install the Debian packages runc and conmon/);
  assert.equal(phase('unknown-image'), 'Pending');
});

test('the agent\'s image map gives an image its entrypoint', { timeout: 20_000 }, async () => {
  await h.create('mapped', { restartPolicy: 'Never', containers: [{ name: 'main', image: 'registry.example.com/team/myapp:2' }] });
  await h.until(() => phase('mapped') === 'Succeeded', 'mapped Succeeded');
  assert.deepEqual(await logContents(h.agent.containers.logPath({ namespace: 'default', pod: 'mapped', container: 'main' }, false) ?? ''), ['mapped image']);
});

test('privileged pods outside trusted namespaces are refused with a clear reason', { timeout: 20_000 }, async () => {
  await h.create('privileged', { containers: [busybox('main', 'sleep 60', { securityContext: { privileged: true } })] });
  await h.until(() => {
    const main = h.container('privileged', 'main');
    return main?.state?.waiting !== undefined && main.state.waiting.reason === 'CreateContainerConfigError';
  }, 'privileged refused');
  const main = h.container('privileged', 'main');
  assert.ok(main?.state?.waiting);
  assert.match(main.state.waiting.message ?? '', /privileged.*trusted namespaces \(kube-system, chaos-engineering\)/);
});

test('runAsNonRoot with runAsUser 0 is refused with kubelet\'s message', { timeout: 20_000 }, async () => {
  await h.create('nonroot', { containers: [busybox('main', 'true', { securityContext: { runAsNonRoot: true, runAsUser: 0 } })] });
  await h.until(() => {
    const main = h.container('nonroot', 'main');
    return main?.state?.waiting !== undefined && main.state.waiting.reason === 'CreateContainerConfigError';
  }, 'runAsNonRoot refused');
  const main = h.container('nonroot', 'main');
  assert.ok(main?.state?.waiting);
  assert.match(main.state.waiting.message ?? '', /runAsUser breaks non-root policy/);
});

test('the pod gets kubelet\'s /etc/hosts with its address and hostname', { timeout: 20_000 }, async () => {
  await h.create('hosts', { restartPolicy: 'Never', hostname: 'box', containers: [busybox('main', 'cat /etc/hosts; hostname')] });
  await h.until(() => phase('hosts') === 'Succeeded', 'hosts Succeeded');
  const lines = await logContents(h.agent.containers.logPath({ namespace: 'default', pod: 'hosts', container: 'main' }, false) ?? '');
  assert.equal(lines[0], '# Kubernetes-managed hosts file.');
  assert.ok(lines.includes('127.0.0.1\tbox'));
  assert.equal(lines.at(-1), 'box');
  assert.ok((await readFile(h.agent.containers.logPath({ namespace: 'default', pod: 'hosts', container: 'main' }, false) ?? '', 'utf8')).length > 0);
});

test('bad input gets kubelet\'s reasons and the agent keeps going', { timeout: 20_000 }, async () => {
  await h.create('no-such-command', { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['no-such-command'] }] });
  await h.create('bad-mount', { volumes: [{ name: 'cfg', configMap: { name: 'absent' } }], containers: [busybox('main', 'true', { volumeMounts: [{ name: 'cfg', mountPath: '/data' }] })] });
  // A negative limit never reaches the node: the API server refuses it, as kube-apiserver does.
  await assert.rejects(h.create('negative-limit', { containers: [busybox('main', 'true', { resources: { limits: { memory: '-1Mi' } } })] }), /must be greater than or equal to 0/);
  const waitingReason = (name: string) => {
    const state = h.container(name, 'main')?.state;
    return state?.waiting?.reason;
  };
  await h.until(
    () => phase('no-such-command') === 'Failed' && waitingReason('bad-mount') === 'CreateContainerConfigError',
    'each bad pod reported',
  );
  const missing = h.container('no-such-command', 'main');
  assert.ok(missing?.state?.terminated);
  assert.equal(missing.state.terminated.reason, 'StartError');
  assert.equal(missing.state.terminated.exitCode, 128);
  assert.match(missing.state.terminated.message ?? '', /executable file not found/);
  const badMount = h.container('bad-mount', 'main');
  assert.ok(badMount?.state?.waiting);
  assert.match(badMount.state.waiting.message ?? '', /configmap "absent" not found/);
  assert.ok(h.events('bad-mount').some((e) => e.reason === 'Failed' && e.type === 'Warning'));
  // The agent still runs pods.
  await h.create('after-bad-input', { restartPolicy: 'Never', containers: [busybox('main', 'true')] });
  await h.until(() => phase('after-bad-input') === 'Succeeded', 'after-bad-input Succeeded');
});

test('a finished pod keeps its status, and deleting it removes it and its logs', { timeout: 20_000 }, async () => {
  const mark = h.server.mark();
  const pod = await h.create('finished', { restartPolicy: 'Never', containers: [busybox('main', 'echo done')] });
  await h.until(() => phase('finished') === 'Succeeded', 'finished Succeeded');
  // Coalesced: a handful of status writes for the whole life of a one-shot pod, not one per change.
  const writes = h.server.since(mark).filter((r) => r.method === 'PUT' && r.url.includes('/pods/finished/status'));
  assert.ok(writes.length <= 4, `${writes.length} status writes`);
  // Its processes are cleaned up; its status stays.
  await retryUntil(async () => !(await h.agent.sandbox.listPods()).some((p) => p.podUid === pod.metadata.uid), 'the pod cgroups removed');
  assert.equal(phase('finished'), 'Succeeded');
  const logPath = h.agent.containers.logPath({ namespace: 'default', pod: 'finished', container: 'main' }, false) ?? '';
  assert.deepEqual(await logContents(logPath), ['done']);
  await h.client.delete(podsResource, 'finished', { namespace: 'default' });
  await h.until(() => h.pod('finished') === undefined, 'finished gone');
  await retryUntil(() => access(logPath).then(() => false, () => true), 'the log removed');
});

/** Re-checks with backoff, for what has no event to wait on (cgroups, files). */
async function retryUntil(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (let delay = 10; !(await check()); delay = Math.min(delay * 2, 500)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
