// A Disruption survives a restart of `bosun up` (issue 19): the node agent cannot adopt a chaos pod across its
// own restart, so the chaos pod ends; the controller must then inject the target again with a new chaos pod (or
// say in a Warning Event why it cannot), instead of staying PartiallyInjected with nothing injected.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chaosPods, createDisruption, createRunningPod, deleteDisruptionAndWait, deleteRunningPod, eventsFor, expectChaosPods, expectStatus, freshNamespace, getDisruption, startChaosUp, until, workloadPod, type ChaosUp } from './chaos-up.ts';

describe('chaos e2e: restart of bosun up', { timeout: 600_000 }, () => {
  let c: ChaosUp;
  before(async () => {
    c = await startChaosUp();
  });
  after(async () => {
    await c?.close();
  });

  it('an injected disruption gets a new chaos pod for its target after the restart', async () => {
    const ns = await freshNamespace(c, 'restart');
    const target = await createRunningPod(c, workloadPod(ns));
    await createDisruption(c, ns, { dryRun: true, count: 1, unsafeMode: { disableAll: true }, cpuPressure: {} });
    await expectStatus(c, ns, ['Injected']);
    const [first] = await expectChaosPods(c, ns, 1);
    assert.ok(first?.metadata.name);

    await c.up.restart();

    // A chaos pod other than the first one runs for the target, and the disruption is injected again.
    await until('a chaos pod other than the first one', async () => ((await chaosPods(c, ns)).some((p) => p.metadata.name !== first.metadata.name) ? true : undefined));
    const [second] = await expectChaosPods(c, ns, 1);
    assert.notEqual(second?.metadata.name, first.metadata.name);
    const d = await expectStatus(c, ns, ['Injected']);
    assert.equal(d.status?.injectedTargetsCount, 1);
    const events = await eventsFor(c, ns, 'Disruption', 'dis');
    const created = events.filter((e) => e.reason === 'ChaosPodCreated').map((e) => e.message ?? '');
    assert.ok(created.some((m) => m.includes(second?.metadata.name ?? '?')), `an Event names the new chaos pod: ${created.join(' | ')}`);
    assert.ok((await getDisruption(c, ns))?.status?.targetInjections?.[target.metadata.name ?? '']?.['cpu-pressure']?.injectorPodName === second?.metadata.name);

    await deleteDisruptionAndWait(c, ns);
    await deleteRunningPod(c, target);
  });
});
