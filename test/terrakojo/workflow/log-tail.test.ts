// A completed check run shows the tail of the Job's log, read through the API server's pods/log, which
// proxies to the node's kubelet. No node agent runs here: a stand-in kubelet on loopback serves the log file
// of one container as the kubelet's containerLogs endpoint does (tailLines, limitBytes), so the path from
// controller through API server to kubelet is real HTTP all the way.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { nodesResource, podsResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { Job } from '../../../src/apimachinery/api/index.ts';
import { startStandInKubelet, type StandInKubelet } from '../../helpers/stand-in-kubelet.ts';
import { startHarness, type Harness } from './harness.ts';

const WF = 'plan-0123456789';
const LOG = ['Initializing...', 'Planning...', 'Error: invalid provider', '  on main.tf line 3', 'exit status 1'].join('\n') + '\n';

let h: Harness;
let kubelet: StandInKubelet;
const kubeletRequests: string[] = [];
before(async () => {
  h = await startHarness({ logTail: { tailLines: 3, limitBytes: 4096 } });
  kubelet = await startStandInKubelet((req, res) => {
    kubeletRequests.push(req.url ?? '');
    const url = new URL(req.url ?? '', 'http://kubelet');
    const tail = Number(url.searchParams.get('tailLines') ?? '0');
    const lines = LOG.split('\n').slice(0, -1);
    const body = `${lines.slice(tail > 0 ? -tail : 0).join('\n')}\n`;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(body.slice(0, Number(url.searchParams.get('limitBytes') ?? body.length)));
  });
  const port = kubelet.port;
  await h.client.create(nodesResource, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'stand-in' } });
  await h.client.patchStatus(nodesResource, 'stand-in', { status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: port } } } }, { type: 'merge' });
});
after(async () => {
  await h.close();
  await kubelet.close();
});

/** The pod the Job controller would have made, on the stand-in node when given, its container exited. */
async function podOf(job: Job, nodeName?: string): Promise<void> {
  const ns = job.metadata.namespace ?? '';
  const name = `${job.metadata.name ?? ''}-abcde`;
  const labels = { 'batch.kubernetes.io/job-name': job.metadata.name ?? '', 'job-name': job.metadata.name ?? '' };
  const owner = { apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name ?? '', uid: job.metadata.uid ?? '', controller: true };
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels, ownerReferences: [owner] },
    spec: { ...(nodeName ? { nodeName } : {}), restartPolicy: 'Never', containers: [{ name: 'plan', image: 'busybox' }] },
  };
  await h.client.create(podsResource, pod);
  if (nodeName) {
    await h.client.patchStatus(podsResource, name, { status: { phase: 'Failed', containerStatuses: [{ name: 'plan', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error' } } }] } }, { type: 'merge', namespace: ns });
  }
}

test('a failed Job: the check run output carries the last lines of its pod\'s log, as the options ask', async () => {
  const ns = await h.namespace();
  await h.createWorkflow(ns);
  const wf = await h.untilWorkflow(ns, WF, 'phase Pending', (w) => w.status?.phase === 'Pending');
  const job = await h.getJob(ns, WF);
  assert.ok(job);
  await podOf(job, 'stand-in');
  await h.setJobStatus(ns, WF, { failed: 1 });
  await h.untilWorkflow(ns, WF, 'phase Failed', (w) => w.status?.phase === 'Failed');
  const run = h.checkRuns().find((r) => r.id === wf.status?.checkRunID);
  assert.equal(run?.conclusion, 'failure');
  assert.equal(run?.output?.summary, `Job ${WF} failed. The last lines of container plan of pod ${WF}-abcde are below.`);
  assert.equal(run?.output?.text, '```\nError: invalid provider\n  on main.tf line 3\nexit status 1\n```');
  assert.deepEqual(kubeletRequests, [`/containerLogs/${ns}/${WF}-abcde/plan?tailLines=3&limitBytes=4096`]);
});

test('a pod not yet on a node logs nothing; the summary says so', async () => {
  const ns = await h.namespace();
  await h.createWorkflow(ns);
  const wf = await h.untilWorkflow(ns, WF, 'phase Pending', (w) => w.status?.phase === 'Pending');
  const job = await h.getJob(ns, WF);
  assert.ok(job);
  await podOf(job);
  await h.setJobStatus(ns, WF, { succeeded: 1 });
  await h.untilWorkflow(ns, WF, 'phase Succeeded', (w) => w.status?.phase === 'Succeeded');
  const run = h.checkRuns().find((r) => r.id === wf.status?.checkRunID);
  assert.equal(run?.output?.summary, `Job ${WF} succeeded. Container plan of pod ${WF}-abcde logged nothing.`);
  assert.equal(run?.output?.text ?? null, null);
});
