// batch/v1 CronJob as kube-apiserver serves it, through real kubectl: `kubectl create cronjob` with the server's
// defaults, `kubectl get cj` with kubectl's columns, `kubectl create job --from=cronjob/…`, and the schedule and
// time zone refused with kube-apiserver's messages.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';

const cronJobs = '/apis/batch/v1/namespaces/default/cronjobs';

function cronJob(name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name },
    spec: { jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } }, ...spec },
  };
}

describe('batch/v1 CronJob: kubectl create cronjob, get cj, create job --from, validation', () => {
  let server: TestServer;
  let kubectl: Kubectl;
  before(async () => {
    server = await startTestServer();
    kubectl = kubectlFor(server.kubeconfigFile);
  });
  after(async () => {
    await server.close();
  });

  test('discovery serves cronjobs with status, short name cj and category all', async () => {
    const batch = await server.json<{ resources: Record<string, unknown>[] }>('/apis/batch/v1');
    const cronjobs = batch.resources.find((r) => r['name'] === 'cronjobs');
    assert.deepEqual(cronjobs?.['shortNames'], ['cj']);
    assert.deepEqual(cronjobs?.['categories'], ['all']);
    assert.equal(cronjobs?.['kind'], 'CronJob');
    assert.ok(batch.resources.some((r) => r['name'] === 'cronjobs/status'));
    const resources = await kubectl(['api-resources', '--api-group=batch', '--no-headers']);
    assert.match(resources.stdout, /^cronjobs\s+cj\s+batch\/v1\s+true\s+CronJob$/m);
  });

  test('kubectl create cronjob gets the defaults; get cj prints kubectl columns; create job --from=cronjob', async () => {
    const created = await kubectl(['create', 'cronjob', 'hello', '--image=busybox', '--schedule=*/5 * * * *', '--', 'echo', 'hi']);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trim(), 'cronjob.batch/hello created');
    const stored = JSON.parse((await kubectl(['get', 'cronjob', 'hello', '-o', 'json'])).stdout) as { spec: Record<string, any> };
    const { concurrencyPolicy, suspend, successfulJobsHistoryLimit, failedJobsHistoryLimit } = stored.spec;
    assert.deepEqual({ concurrencyPolicy, suspend, successfulJobsHistoryLimit, failedJobsHistoryLimit }, { concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    assert.equal(stored.spec['jobTemplate'].spec.template.spec.dnsPolicy, 'ClusterFirst', 'the pod template is defaulted as a pod spec');

    const table = await kubectl(['get', 'cj']);
    assert.equal(table.code, 0, table.stderr);
    const [header, row] = table.stdout.trim().split('\n');
    assert.deepEqual(header?.split(/\s{2,}/), ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE']);
    assert.match(row ?? '', /^hello\s+\*\/5 \* \* \* \*\s+<none>\s+False\s+0\s+<none>\s+\d+s$/);
    const wide = await kubectl(['get', 'cj', 'hello', '-o', 'wide', '--no-headers']);
    assert.match(wide.stdout, /\s+hello\s+busybox\s+<none>\s*$/);

    const job = await kubectl(['create', 'job', 'manual', '--from=cronjob/hello']);
    assert.equal(job.code, 0, job.stderr);
    assert.equal(job.stdout.trim(), 'job.batch/manual created');
    const manual = JSON.parse((await kubectl(['get', 'job', 'manual', '-o', 'json'])).stdout) as { metadata: Record<string, any>; spec: Record<string, any> };
    assert.equal(manual.metadata['annotations']['cronjob.kubernetes.io/instantiate'], 'manual');
    assert.equal(manual.metadata['ownerReferences'][0].kind, 'CronJob');
    assert.equal(manual.metadata['ownerReferences'][0].name, 'hello');
    assert.deepEqual(manual.spec['template'].spec.containers[0].command, ['echo', 'hi']);
  });

  test('a schedule robfig/cron cannot parse is 422 with its message; kubectl says so', async () => {
    const res = await server.api(cronJobs, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(cronJob('bad', { schedule: '61 * * * *' })) });
    assert.equal(res.status, 422);
    const status = (await res.json()) as { message: string; details: { causes: unknown[] } };
    assert.equal(status.message, 'CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61');
    const fields = await kubectl(['create', 'cronjob', 'bad', '--image=busybox', '--schedule=* * *']);
    assert.notEqual(fields.code, 0);
    assert.match(fields.stderr, /spec\.schedule: Invalid value: "\* \* \*": expected exactly 5 fields, found 3: \[\* \* \*\]/);
  });

  test('CRON_TZ= in the schedule and an unknown timeZone are refused as kube-apiserver refuses them', async () => {
    const tz = await server.api(cronJobs, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(cronJob('tz', { schedule: 'CRON_TZ=UTC 0 * * * *' })) });
    assert.equal(tz.status, 422);
    assert.equal(((await tz.json()) as { message: string }).message, 'CronJob.batch "tz" is invalid: spec.schedule: Invalid value: "CRON_TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead');
    const zone = await server.api(cronJobs, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(cronJob('zone', { schedule: '0 * * * *', timeZone: 'Mars/Olympus' })) });
    assert.equal(zone.status, 422);
    assert.equal(((await zone.json()) as { message: string }).message, 'CronJob.batch "zone" is invalid: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus');
    const ok = await kubectl(['apply', '-f', '-'], JSON.stringify(cronJob('berlin', { schedule: '30 6 * * MON-FRI', timeZone: 'Europe/Berlin' })));
    assert.equal(ok.code, 0, ok.stderr);
    const row = await kubectl(['get', 'cj', 'berlin', '--no-headers']);
    assert.match(row.stdout, /^berlin\s+30 6 \* \* MON-FRI\s+Europe\/Berlin\s+False\s+0\s+<none>\s+/);
    // A second apply merges: the containers by name, the rest as given.
    const changed = cronJob('berlin', { schedule: '0 7 * * *', timeZone: 'Europe/Berlin' }) as { spec: { jobTemplate: { spec: { template: { spec: { containers: { image: string }[] } } } } } };
    changed.spec.jobTemplate.spec.template.spec.containers[0]!.image = 'busybox:1.36';
    const again = await kubectl(['apply', '-f', '-'], JSON.stringify(changed));
    assert.equal(again.code, 0, again.stderr);
    const wide = await kubectl(['get', 'cj', 'berlin', '-o', 'wide', '--no-headers']);
    assert.match(wide.stdout, /^berlin\s+0 7 \* \* \*\s+Europe\/Berlin\s+False\s+0\s+<none>\s+\S+\s+c\s+busybox:1\.36\s+<none>$/m);
  });

  test('a name longer than 52 characters, a policy kube does not know and a job template selector are refused', async () => {
    const res = await server.api(cronJobs, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(cronJob('n'.repeat(53), { schedule: '@hourly', concurrencyPolicy: 'Sometimes' })),
    });
    assert.equal(res.status, 422);
    const { message } = (await res.json()) as { message: string };
    assert.match(message, /metadata\.name: Invalid value: "n{53}": must be no more than 52 characters/);
    assert.match(message, /spec\.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"/);
  });
});
