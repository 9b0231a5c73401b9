// Issue 10's "Must show", with real kubectl against `bosun up` (its node agent runs pods as sandboxed
// processes): K26's one-shot Job, a Job that runs out of retries, a Deployment that heals, rolls out and rolls
// back, and the bad input a kubelet reports in pod status while the rest keeps running.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

const yaml = (object: unknown) => JSON.stringify(object);

describe('workloads on bosun up with real kubectl', () => {
  let up: BosunUp;
  const ok = (args: string[], input?: string): Promise<string> => up.ok(args, input);
  const jsonpath = async (resource: string, path: string): Promise<string> => ok(['get', ...resource.split(' '), '-o', `jsonpath=${path}`]);

  before(async () => {
    up = await startBosunUp();
  });
  after(async () => {
    await up.close();
  });

  test('K26: kubectl create job runs its pod; wait, logs job/j and get pods show it done', async () => {
    await ok(['create', 'job', 'j', '--image=busybox', '--', 'sh', '-c', 'echo hi; exit 0']);
    await ok(['wait', '--for=condition=complete', 'job/j', '--timeout=60s']);
    assert.equal(await ok(['logs', 'job/j']), 'hi\n');
    assert.match(await ok(['get', 'pods', '-l', 'job-name=j', '--no-headers']), /^j-\w+\s+0\/1\s+Completed\s+0\s/);
  });

  test('a failing Job with backoffLimit 2 makes 3 pods and fails with BackoffLimitExceeded', async () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'fails' },
      spec: { backoffLimit: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'echo trying; exit 3'] }] } } },
    };
    await ok(['apply', '-f', '-'], yaml(job));
    await ok(['wait', '--for=condition=failed', 'job/fails', '--timeout=120s']);
    assert.equal(await jsonpath('job/fails', '{.status.conditions[?(@.type=="Failed")].reason}'), 'BackoffLimitExceeded');
    const pods = (await ok(['get', 'pods', '-l', 'job-name=fails', '-o', 'jsonpath={range .items[*]}{.status.phase} {.status.containerStatuses[0].state.terminated.exitCode}{"\\n"}{end}'])).trim().split('\n');
    assert.deepEqual(pods, ['Failed 3', 'Failed 3', 'Failed 3']);
  });

  test('a Deployment of 3 becomes available, replaces a deleted pod, rolls out a change and rolls back', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { terminationGracePeriodSeconds: 2, containers: [{ name: 'main', image: 'busybox:1.36', command: ['sh', '-c', 'echo started with $GREETING; exec sleep 3600'], env: [{ name: 'GREETING', value: 'hello' }] }] },
        },
      },
    };
    await ok(['apply', '-f', '-'], yaml(deployment));
    await ok(['rollout', 'status', 'deployment/web', '--timeout=90s']);
    assert.equal(await jsonpath('deployment/web', '{.status.availableReplicas}'), '3');
    assert.equal(await ok(['logs', 'deploy/web']), 'started with hello\n');
    const before = (await jsonpath('pods -l app=web', '{.items[*].metadata.name}')).split(' ');
    const victim = before[0] ?? '';
    await ok(['delete', 'pod', victim, '--wait=true', '--timeout=60s']);
    await ok(['wait', '--for=jsonpath={.status.availableReplicas}=3', 'deployment/web', '--timeout=60s']);
    const after = (await jsonpath('pods -l app=web', '{.items[*].metadata.name}')).split(' ');
    assert.equal(after.length, 3);
    assert.ok(!after.includes(victim), 'the deleted pod is gone and a new one took its place');

    await ok(['set', 'env', 'deployment/web', 'GREETING=bonjour']);
    await ok(['rollout', 'status', 'deployment/web', '--timeout=90s']);
    assert.equal(await jsonpath('deployment/web', '{.metadata.annotations.deployment\\.kubernetes\\.io/revision}'), '2');
    // A pod of the new revision (old ones may still be terminating).
    const pod = (await jsonpath('pods -l app=web', '{range .items[?(@.spec.containers[0].env[0].value=="bonjour")]}{.metadata.name}{" "}{end}')).split(' ')[0] ?? '';
    await ok(['wait', '--for=condition=Ready', `pod/${pod}`, '--timeout=60s']);
    assert.equal(await ok(['logs', pod]), 'started with bonjour\n');

    await ok(['set', 'image', 'deployment/web', 'main=busybox:1.37']);
    await ok(['rollout', 'status', 'deployment/web', '--timeout=90s']);
    await ok(['rollout', 'undo', 'deployment/web']);
    await ok(['rollout', 'status', 'deployment/web', '--timeout=90s']);
    assert.equal(await jsonpath('deployment/web', '{.spec.template.spec.containers[0].image}'), 'busybox:1.36');
    // The undo took revision 2 back, which becomes revision 4, as kube-controller-manager renumbers it.
    assert.match(await ok(['rollout', 'history', 'deployment/web']), /\n1\s+<none>\n3\s+<none>\n4\s+<none>\n/);
    await ok(['delete', 'deployment', 'web', '--wait=true', '--timeout=60s']);
  });

  test('bad input gets kubelet\'s reasons in status or the API server\'s 422; other pods keep running', async () => {
    const pod = (name: string, container: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { restartPolicy: 'Never', terminationGracePeriodSeconds: 1, containers: [{ name: 'c', ...container }], ...extra },
    });
    await ok(['apply', '-f', '-'], yaml(pod('steady', { image: 'busybox', command: ['sleep', '3600'] })));
    await ok(['apply', '-f', '-'], yaml(pod('unknown-image', { image: 'registry.example.com/team/app:1.0' })));
    await ok(['apply', '-f', '-'], yaml(pod('no-such-command', { image: 'busybox', command: ['definitely-not-a-command'] })));
    await ok(['wait', '--for=jsonpath={.status.containerStatuses[0].state.waiting.reason}=CreateContainerError', 'pod/unknown-image', '--timeout=60s']);
    assert.match(await jsonpath('pod/unknown-image', '{.status.containerStatuses[0].state.waiting.message}'), /set command/);
    await ok(['wait', '--for=jsonpath={.status.phase}=Failed', 'pod/no-such-command', '--timeout=60s']);
    assert.equal(await jsonpath('pod/no-such-command', '{.status.containerStatuses[0].state.terminated.reason}'), 'StartError');
    assert.match(await jsonpath('pod/no-such-command', '{.status.containerStatuses[0].state.terminated.message}'), /executable file not found in \$PATH/);

    const badVolume = await up.kubectl(['apply', '-f', '-'], yaml(pod('bad-volume', { image: 'busybox', command: ['true'], volumeMounts: [{ name: 'missing', mountPath: '/m' }] })));
    assert.notEqual(badVolume.code, 0);
    assert.match(badVolume.stderr, /spec\.containers\[0\]\.volumeMounts\[0\]\.name: Not found: "missing"/);
    const negative = await up.kubectl(['apply', '-f', '-'], yaml(pod('negative', { image: 'busybox', command: ['true'], resources: { limits: { memory: '-64Mi' } } })));
    assert.notEqual(negative.code, 0);
    assert.match(negative.stderr, /resources\.limits\[memory\]: Invalid value: "-64Mi": must be greater than or equal to 0/);
    const missingConfigMap = pod('missing-configmap', { image: 'busybox', command: ['true'], volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }] }, { volumes: [{ name: 'cfg', configMap: { name: 'nowhere' } }] });
    await ok(['apply', '-f', '-'], yaml(missingConfigMap));
    await ok(['wait', '--for=jsonpath={.status.containerStatuses[0].state.waiting.reason}=CreateContainerConfigError', 'pod/missing-configmap', '--timeout=60s']);

    assert.equal(await jsonpath('pod/steady', '{.status.phase}'), 'Running');
    await ok(['delete', 'pod', 'steady', 'unknown-image', 'no-such-command', 'missing-configmap', '--wait=true', '--timeout=60s']);
  });
});
