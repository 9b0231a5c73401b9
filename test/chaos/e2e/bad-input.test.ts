// Disruptions that cannot do what they ask, through `bosun up`: a selector that matches nothing, a container
// name the target does not have, a target deleted while it is disrupted. Each is reported as upstream reports
// it, leaves nothing behind, and the controller goes on injecting other disruptions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { podsResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { InjectionStatus } from '../../../src/chaos/api/constants.ts';
import {
  chaosPods,
  containerCgroup,
  cpuRate,
  createDisruption,
  createRunningPod,
  deleteDisruptionAndWait,
  deleteRunningPod,
  eventsFor,
  expectChaosPods,
  expectDisruptionEvent,
  expectStatus,
  freshNamespace,
  getDisruption,
  pgrep,
  startChaosUp,
  targetPod,
  until,
  workloadPod,
  type ChaosUp,
} from './chaos-up.ts';

describe('chaos e2e: bad input', { timeout: 600_000 }, () => {
  let c: ChaosUp;
  before(async () => {
    c = await startChaosUp();
  });
  after(async () => {
    await c?.close();
  });

  /** The controller still serves: a good dry-run disruption in a namespace of its own gets Injected, then goes. */
  async function aGoodDisruptionStillInjects(): Promise<void> {
    const ns = await freshNamespace(c, 'good');
    const target = await createRunningPod(c, targetPod(ns, { second: true }));
    await createDisruption(c, ns, { dryRun: true, count: 1, cpuPressure: {} });
    await expectStatus(c, ns, ['Injected']);
    await expectChaosPods(c, ns, 1);
    await deleteDisruptionAndWait(c, ns);
    await deleteRunningPod(c, target);
  }

  it('a selector that matches nothing: NoTargetsFound, NotInjected, no chaos pod', async () => {
    const ns = await freshNamespace(c, 'nomatch');
    const target = await createRunningPod(c, targetPod(ns));
    await createDisruption(c, ns, { dryRun: true, count: 1, selector: { app: 'nothing-has-this' }, cpuPressure: {} });
    const event = await expectDisruptionEvent(c, ns, 'NoTargetsFound');
    assert.equal(event.type, 'Warning');
    console.log(`no match: ${event.reason ?? ''}: ${event.message ?? ''}`);
    await expectStatus(c, ns, ['NotInjected']);
    assert.deepEqual(await chaosPods(c, ns), []);
    await deleteDisruptionAndWait(c, ns);
    await deleteRunningPod(c, target);
    await aGoodDisruptionStillInjects();
  });

  it('an unknown container name: InvalidSpec warning, no chaos pod for that target', async () => {
    const ns = await freshNamespace(c, 'nocontainer');
    const target = await createRunningPod(c, targetPod(ns, { second: true }));
    await createDisruption(c, ns, { dryRun: true, count: 1, containers: ['no-such-container'], cpuPressure: {} });
    const event = await expectDisruptionEvent(c, ns, 'InvalidSpec');
    assert.equal(event.type, 'Warning');
    assert.match(event.message ?? '', /no-such-container/);
    console.log(`unknown container: ${event.reason ?? ''}: ${event.message ?? ''}`);
    const d = await getDisruption(c, ns);
    assert.ok(d?.status?.injectionStatus === undefined || ['', 'NotInjected'].includes(d.status.injectionStatus), `status ${d?.status?.injectionStatus ?? ''}`);
    assert.deepEqual(await chaosPods(c, ns), []);
    await deleteDisruptionAndWait(c, ns);
    await deleteRunningPod(c, target);
    await aGoodDisruptionStillInjects();
  });

  it('a target deleted mid-injection: its chaos pod and stress go, its cgroups go, PausedInjected, deleted cleanly', async () => {
    const ns = await freshNamespace(c, 'gone');
    const target = await createRunningPod(c, workloadPod(ns, { limits: { cpu: '1', memory: '256Mi' } }));
    const stress = `inject cpu-stress.*pod${target.metadata.uid ?? ''}`;
    await createDisruption(c, ns, { count: 1, cpuPressure: { count: '50%' } });
    const seen: InjectionStatus[] = [];
    await expectStatus(c, ns, ['Injected'], seen);
    await expectChaosPods(c, ns, 1);
    await until('the stress child burning', async () => ((await cpuRate(target, 'ctn1', 1000)) > 0.2 ? true : undefined));

    await deleteRunningPod(c, target);
    await until('its chaos pod gone', async () => ((await chaosPods(c, ns)).length === 0 ? true : undefined));
    await until('no cpu-stress process left', async () => ((await pgrep(stress)).length === 0 ? true : undefined));
    for (const controller of ['cpu', 'cpuacct', 'memory', 'blkio', 'pids']) assert.equal(containerCgroup(controller, target, 'ctn1'), undefined, `${controller} cgroup of the deleted target gone`);
    await expectStatus(c, ns, ['PausedInjected'], seen);
    console.log(`target deleted: statuses ${seen.filter(Boolean).join(' → ')}`);
    const reasons = (await eventsFor(c, ns, 'Disruption', 'dis')).map((e) => e.reason);
    assert.ok(!reasons.includes('StuckOnRemoval'), `events: ${reasons.join(', ')}`);
    await deleteDisruptionAndWait(c, ns);
    await assert.rejects(c.client.get(podsResource, target.metadata.name ?? '', { namespace: ns }));
    await aGoodDisruptionStillInjects();
  });
});
