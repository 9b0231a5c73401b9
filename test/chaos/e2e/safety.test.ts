// What keeps a disruption safe when things go wrong, through `bosun up` with the chaos controllers (and their
// webhooks) in a process of their own and safemode on: the injector ends the disruption at its deadline with
// no controller alive; the webhook refuses to drop the disruption's finalizer while chaos pods exist; a clean
// that fails; and upstream's initial safety nets on create.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import {
  chaosPods,
  containerCgroup,
  cpuRate,
  createDisruption,
  createRunningPod,
  deleteDisruptionAndWait,
  deleteRunningPod,
  expectDisruptionEvent,
  expectChaosPods,
  expectStatus,
  freshNamespace,
  getDisruption,
  pgrep,
  startChaosUpApart,
  until,
  workloadPod,
  type ChaosUpApart,
} from './chaos-up.ts';

/** Upstream's chart values with safemode on (its default namespace and cluster thresholds: 80 % and 66 %). */
const SAFEMODE_CONFIG = {
  controller: { finalizerDeletionDelay: '1s', expiredDisruptionGCDelay: '-1m', defaultDuration: '10m', deleteOnly: false, enableSafeguards: false, safeMode: { enable: true } },
};

interface PodStatus {
  phase?: string;
  containerStatuses?: { name: string; started?: boolean; state?: { terminated?: { exitCode?: number; reason?: string } } }[];
}

const podStatus = (pod: KubeObject): PodStatus => (pod['status'] ?? {}) as PodStatus;

/** A disruption as a YAML-free kubectl manifest (kubectl reads JSON). */
function manifest(namespace: string, name: string, spec: object): string {
  return JSON.stringify({ apiVersion: 'chaos.datadoghq.com/v1beta1', kind: 'Disruption', metadata: { name, namespace }, spec });
}

describe('chaos e2e: safety', { timeout: 600_000 }, () => {
  let c: ChaosUpApart;
  before(async () => {
    c = await startChaosUpApart(SAFEMODE_CONFIG);
  });
  after(async () => {
    await c?.close();
  });

  it('a. with its controllers killed, the injector ends the disruption at the deadline; restarted, they finish it', async () => {
    const ns = await freshNamespace(c, 'orphan');
    const target = await createRunningPod(c, workloadPod(ns, { limits: { cpu: '1', memory: '256Mi' } }));
    const stress = `inject cpu-stress.*pod${target.metadata.uid ?? ''}`;
    const baseline = await cpuRate(target, 'ctn1', 2000);
    const created = Date.now();
    await createDisruption(c, ns, { count: 1, duration: '15s', unsafeMode: { disableAll: true }, cpuPressure: { count: '50%' } });
    await expectStatus(c, ns, ['Injected']);
    const [pod] = await expectChaosPods(c, ns, 1);
    await until('the stress child burning', async () => ((await cpuRate(target, 'ctn1', 1000)) > baseline + 0.2 ? true : undefined));
    assert.ok((await pgrep(stress)).length > 0, 'a cpu-stress process while injected');

    await c.killControllers();
    // No controller: only the injector's own --deadline ends it. It cleans, drops its finalizer and exits 0.
    const done = await until(
      'the chaos pod Succeeded with no controller',
      async () => {
        const p = (await chaosPods(c, ns)).find((x) => x.metadata.name === pod?.metadata.name);
        return p && podStatus(p).phase === 'Succeeded' ? p : undefined;
      },
      60_000,
    );
    const ended = (Date.now() - created) / 1000;
    assert.deepEqual(done.metadata.finalizers ?? [], [], 'the injector removed its own finalizer');
    assert.deepEqual(await pgrep(stress), [], 'no cpu-stress process left');
    const afterDeadline = await cpuRate(target, 'ctn1', 2000);
    console.log(`orphaned: chaos pod Succeeded ${ended.toFixed(1)} s after create (duration 15 s); CPU baseline ${baseline.toFixed(3)}, after ${afterDeadline.toFixed(3)}`);
    assert.ok(afterDeadline < baseline + 0.05, `CPU after the deadline ${afterDeadline}, baseline ${baseline}`);
    assert.equal((await getDisruption(c, ns))?.status?.injectionStatus, 'Injected', 'nobody updated the status meanwhile');

    await c.startControllers();
    await expectStatus(c, ns, ['PreviouslyInjected']);
    await deleteDisruptionAndWait(c, ns);
    assert.deepEqual(await chaosPods(c, ns), [], 'no chaos pod left');
    await deleteRunningPod(c, target);
  });

  it("b. removing the disruption's finalizer while chaos pods exist is denied with upstream's message", async () => {
    const ns = await freshNamespace(c, 'finalizer');
    const target = await createRunningPod(c, workloadPod(ns));
    await createDisruption(c, ns, { dryRun: true, count: 1, unsafeMode: { disableAll: true }, cpuPressure: {} });
    await expectStatus(c, ns, ['Injected']);
    const [pod] = await expectChaosPods(c, ns, 1);
    const result = await c.up.kubectl(['patch', 'disruption', 'dis', '-n', ns, '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
    assert.notEqual(result.code, 0, 'the patch is denied');
    console.log(`finalizer patch: ${result.stderr.trim()}`);
    assert.ok(
      result.stderr.includes(`unable to remove disruption finalizer, disruption '${ns}/dis' still has associated pods:\n- chaos-engineering/${pod?.metadata.name ?? ''}\nYou first need to remove those chaos pods`),
      result.stderr,
    );
    assert.ok(((await getDisruption(c, ns))?.metadata.finalizers ?? []).length > 0, 'the finalizer stays');
    await deleteDisruptionAndWait(c, ns);
    await deleteRunningPod(c, target);
  });

  it('c. a clean that really fails (the blkio cgroup gone): the injector exits 1, the disruption is stuck on removal naming the pod', async () => {
    const ns = await freshNamespace(c, 'clean');
    const target = await createRunningPod(c, workloadPod(ns));
    await createDisruption(c, ns, { count: 1, unsafeMode: { disableAll: true }, diskPressure: { path: '/scratch', throttling: { writeBytesPerSec: 4 * 1024 * 1024 } } });
    await expectStatus(c, ns, ['Injected']);
    const [pod] = await expectChaosPods(c, ns, 1);
    const blkio = containerCgroup('blkio', target, 'ctn1');
    assert.ok(blkio, 'blkio cgroup of the target');
    // Take the target's blkio cgroup away from under the injector (its processes to the blkio root, the
    // directory removed): the throttle file the clean writes no longer exists, as in upstream #183/#678.
    const procs = readFileSync(join(blkio, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
    for (const pid of procs) writeFileSync('/sys/fs/cgroup/blkio/cgroup.procs', pid);
    rmdirSync(blkio);
    try {
      const name = pod?.metadata.name ?? '';
      const logs = c.up.kubectl.stream(['logs', '-f', '-n', 'chaos-engineering', name]);
      await logs.waitForLines(1, 30_000);
      // The pod's phase, the injector's exit code and started flag at each change, as the node agent reports them.
      const states = c.up.kubectl.stream(['get', 'pod', name, '-n', 'chaos-engineering', '-w', '-o', 'jsonpath={.status.phase} {.status.containerStatuses[0].state.terminated.exitCode} {.status.containerStatuses[0].started}{"\\n"}']);
      await states.waitForLines(1, 30_000);
      await c.up.ok(['delete', 'disruption', 'dis', '-n', ns, '--wait=false']);
      // The injector tries 1 + 3 times, then exits 1; the node agent reports the pod Failed.
      const failed = await until('the chaos pod Failed', async () => Promise.resolve(states.lines.find((l) => l.startsWith('Failed'))));
      await states.stop();
      await logs.stop();
      const cleanFailed = logs.lines.find((l) => l.includes('clean failed after retries'));
      assert.ok(cleanFailed, `the injector logged its failed clean: ${logs.lines.slice(-5).join('\n')}`);
      assert.match(cleanFailed, /error cleaning disk (read|write)/);
      console.log(`clean failure: ${cleanFailed.slice(0, 160)}… ${/"error":.*/.exec(cleanFailed)?.[0].slice(0, 300) ?? ''}`);
      console.log(`clean failure: chaos pod phase, exit code, started: ${failed}`);
      assert.equal(failed, 'Failed 1 false');
      // The chaos pod keeps its finalizer, the disruption says it is stuck and which pod, until someone who has read
      // the injector's log removes that finalizer (upstream's runbook, docs/faq.md).
      const stuck = await until('the disruption stuck on removal', async () => {
        const d = await getDisruption(c, ns);
        return d?.status?.isStuckOnRemoval === true ? d : undefined;
      });
      assert.equal(Object.values(stuck.status?.targetInjections ?? {})[0]?.['disk-pressure']?.injectionStatus, 'IsStuckOnRemoval');
      const stuckEvent = await expectDisruptionEvent(c, ns, 'StuckOnRemoval');
      assert.ok(stuckEvent?.message?.includes(name), `the StuckOnRemoval event names the pod: ${JSON.stringify(stuckEvent)}`);
      console.log(`clean failure: ${stuckEvent?.message ?? ''}`);
      await c.up.ok(['patch', 'pod', name, '-n', 'chaos-engineering', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
      await until('the disruption gone once the pod is released', async () => ((await getDisruption(c, ns)) === undefined ? true : undefined));
    } finally {
      // Give the target its cgroup back so that the node agent can remove it with the pod.
      mkdirSync(blkio, { recursive: true });
      for (const pid of procs) {
        try {
          writeFileSync(join(blkio, 'cgroup.procs'), pid);
        } catch {
          // gone meanwhile
        }
      }
    }
    await deleteRunningPod(c, target);
  });

  it("d. safemode: a network disruption without hosts and a count too large are refused with upstream's messages", async () => {
    const ns = await freshNamespace(c, 'safemode');
    const targets = [await createRunningPod(c, workloadPod(ns)), await createRunningPod(c, workloadPod(ns))];

    const noHosts = await c.up.kubectl(['apply', '-f', '-'], manifest(ns, 'no-hosts', { count: 1, unsafeMode: { disableCountTooLarge: true }, selector: { foo: 'bar' }, network: { drop: 100 } }));
    console.log(`no hosts: ${noHosts.stderr.trim()}`);
    assert.notEqual(noHosts.code, 0);
    assert.match(noHosts.stderr, /at least one of the initial safety nets caught an issue/);
    assert.match(noHosts.stderr, /the specified disruption either contains no Host or Service filters\. This will result in all network traffic being affected\./);

    const tooMany = await c.up.kubectl(['apply', '-f', '-'], manifest(ns, 'too-many', { count: '100%', selector: { foo: 'bar' }, dryRun: true, cpuPressure: {} }));
    console.log(`count too large: ${tooMany.stderr.trim()}`);
    assert.notEqual(tooMany.code, 0);
    assert.match(tooMany.stderr, /target selection represents 100\.00 % of the total pods in the namespace while the threshold is 80\.00 %/);

    // The same with upstream's opt-outs is accepted: the nets, not the specs, refused them.
    await c.up.ok(['apply', '-f', '-'], manifest(ns, 'too-many', { count: '100%', selector: { foo: 'bar' }, dryRun: true, unsafeMode: { disableCountTooLarge: true }, cpuPressure: {} }));
    await expectStatus(c, ns, ['Injected'], undefined, 'too-many');
    await deleteDisruptionAndWait(c, ns, 'too-many');
    for (const t of targets) await deleteRunningPod(c, t);
  });
});
