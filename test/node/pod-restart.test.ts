// Restart safety: an agent stopped without killing its pods leaves them running; the next agent kills what
// it cannot drive, restarts the containers per restartPolicy, and cleans up pods deleted meanwhile.
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { podsResource } from '../../src/apimachinery/builtin-resources.ts';
import { isAlive } from './harness.ts';
import { busybox, startPodHarness, type PodHarness } from './pod-harness.ts';

let h: PodHarness;
before(async () => {
  h = await startPodHarness();
});
after(async () => {
  await h.close();
});

const running = (name: string) => {
  const state = h.container(name, 'main')?.state;
  return state !== undefined && 'running' in state;
};

test('a restarted agent leaves no orphans and its pods converge', { timeout: 60_000 }, async () => {
  const always = await h.create('keeps-running', { terminationGracePeriodSeconds: 1, containers: [busybox('main', 'sleep 600')] });
  const never = await h.create('runs-once', { restartPolicy: 'Never', containers: [busybox('main', 'sleep 600')] });
  const doomed = await h.create('deleted-meanwhile', { containers: [busybox('main', 'sleep 600')] });
  await h.until(() => ['keeps-running', 'runs-once', 'deleted-meanwhile'].every(running), 'all three running');
  const uids = [always, never, doomed].map((p) => p.metadata.uid ?? '');

  await h.agent.stop();
  const before = await h.agent.sandbox.listPods();
  const pids = before.filter((p) => uids.includes(p.podUid)).flatMap((p) => p.pids);
  assert.ok(pids.length >= 3, 'a plain stop leaves the processes running');
  assert.ok((await Promise.all(pids.map(isAlive))).every(Boolean));
  await h.client.delete(podsResource, 'deleted-meanwhile', { namespace: 'default', gracePeriodSeconds: 0 });
  await h.until(() => h.pod('deleted-meanwhile') === undefined, 'deleted-meanwhile gone from the API');

  await h.restartAgent();
  assert.deepEqual((await Promise.all(pids.map(isAlive))).filter(Boolean), [], 'the old processes are gone');
  await h.until(() => running('keeps-running') && h.container('keeps-running', 'main')?.restartCount === 1, 'keeps-running restarted');
  const restarted = h.container('keeps-running', 'main');
  assert.ok(restarted?.lastState?.terminated);
  assert.equal(restarted.lastState.terminated.exitCode, 137);
  assert.match(restarted.lastState.terminated.message ?? '', /node agent restarted/);

  await h.until(() => h.pod('runs-once')?.status?.phase === 'Failed', 'runs-once Failed');
  const once = h.container('runs-once', 'main');
  assert.ok(once?.state?.terminated);
  assert.equal(once.state.terminated.reason, 'Error');
  assert.equal(once.state.terminated.exitCode, 137);

  const left = (await h.agent.sandbox.listPods()).map((p) => p.podUid);
  assert.ok(!left.includes(never.metadata.uid ?? ''));
  assert.ok(!left.includes(doomed.metadata.uid ?? ''));
  await assert.rejects(access(join(h.dataDir, 'pods', doomed.metadata.uid ?? '')));
  await assert.rejects(access(join(h.dataDir, 'logs', 'pods', `default_deleted-meanwhile_${doomed.metadata.uid ?? ''}`)));
});
