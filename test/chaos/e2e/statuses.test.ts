// Upstream's injection status scenarios (controllers/disruption_controller_test.go "Injection Statuses" and
// "disruption expires naturally", the latter skipped upstream as flaky): the exact sequence of statuses as
// targets go and come back, and what a disruption ends in when it expires. Durations are seconds here, not
// upstream's 3 minutes: the controller requeues at the expiry itself, not every 15 s.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectionStatus } from '../../../src/chaos/api/constants.ts';
import {
  chaosPods,
  createDisruption,
  createRunningPod,
  defaultSpec,
  deleteDisruptionAndWait,
  deleteRunningPod,
  expectChaosInjectors,
  expectChaosPods,
  expectStatus,
  freshNamespace,
  getDisruption,
  startChaosUp,
  targetPod,
  twoTargets,
  until,
  type ChaosUp,
} from './chaos-up.ts';

const SHORT = '12s';

/** The statuses a disruption went through, space-separated, without the initial empty one. */
function sequence(seen: InjectionStatus[]): string {
  return seen.filter((s) => s !== '').join(' ');
}

describe('chaos e2e: injection statuses (upstream scenarios)', { timeout: 600_000 }, () => {
  let c: ChaosUp;
  before(async () => {
    c = await startChaosUp({ controller: { finalizerDeletionDelay: '1s', expiredDisruptionGCDelay: '3s', defaultDuration: '10m', enableSafeguards: false, safeMode: { enable: false } } });
  });
  after(async () => {
    await c?.close();
  });

  it('16a. paused statuses: Partially → PausedPartially → Injected → PausedInjected or PausedPartially', async () => {
    const ns = await freshNamespace(c, 'paused');
    let [first, second] = await twoTargets(c, ns);
    await createDisruption(c, ns, { ...defaultSpec(), count: 2 });
    const seen: InjectionStatus[] = [];
    await expectStatus(c, ns, ['Injected'], seen);
    await deleteRunningPod(c, first!);
    await expectStatus(c, ns, ['PartiallyInjected'], seen);
    await deleteRunningPod(c, second!);
    await expectStatus(c, ns, ['PausedPartiallyInjected'], seen);
    [first, second] = await Promise.all([createRunningPod(c, targetPod(ns)), createRunningPod(c, targetPod(ns, { second: true }))]);
    await expectStatus(c, ns, ['Injected'], seen);
    await Promise.all([deleteRunningPod(c, first!), deleteRunningPod(c, second!)]);
    const last = await expectStatus(c, ns, ['PausedInjected', 'PausedPartiallyInjected'], seen);
    // Each status waited for is seen; between them only what the machine allows (pods becoming ready one by one).
    assert.match(
      sequence(seen),
      /^((NotInjected|PartiallyInjected) )*Injected PartiallyInjected PausedPartiallyInjected (PartiallyInjected )*Injected ((PartiallyInjected|PausedPartiallyInjected) )*(PausedInjected|PausedPartiallyInjected)$/,
    );
    assert.ok(['PausedInjected', 'PausedPartiallyInjected'].includes(last.status?.injectionStatus ?? ''));
    await deleteDisruptionAndWait(c, ns);
  });

  it('16b. PreviouslyInjected is the default ending status', async () => {
    const ns = await freshNamespace(c, 'prev');
    await twoTargets(c, ns, { skipSecond: true });
    const seen: InjectionStatus[] = [];
    await createDisruption(c, ns, { ...defaultSpec(), count: 1, duration: SHORT, cpuPressure: undefined, dns: undefined } as never);
    await expectStatus(c, ns, ['PreviouslyInjected'], seen);
    assert.match(sequence(seen), /^((NotInjected|PartiallyInjected) )*Injected PreviouslyInjected$/);
    await staysUntilGone(ns, 'PreviouslyInjected');
  });

  it('16c. PreviouslyInjected is reached after PausedInjected and stays until the disruption goes', async () => {
    const ns = await freshNamespace(c, 'prevpaused');
    const [target] = await twoTargets(c, ns, { skipSecond: true });
    await createDisruption(c, ns, { ...defaultSpec(), count: 1, duration: '20s', cpuPressure: undefined, dns: undefined } as never);
    await expectStatus(c, ns, ['Injected']);
    await deleteRunningPod(c, target!);
    await expectStatus(c, ns, ['PausedInjected']);
    await expectStatus(c, ns, ['PreviouslyInjected']);
    await staysUntilGone(ns, 'PreviouslyInjected');
  });

  it('16d. PreviouslyNotInjected when nothing matches', async () => {
    const ns = await freshNamespace(c, 'prevnot');
    await twoTargets(c, ns, { skipSecond: true });
    await createDisruption(c, ns, { ...defaultSpec(), count: 1, duration: SHORT, selector: { 'anything-that-does-not-exists': 'this-also-should-not-exists' }, cpuPressure: undefined, dns: undefined } as never);
    await expectStatus(c, ns, ['NotInjected']);
    await expectStatus(c, ns, ['PreviouslyNotInjected']);
    await staysUntilGone(ns, 'PreviouslyNotInjected');
  });

  it('16e. PreviouslyPartiallyInjected when only one of two targets exists', async () => {
    const ns = await freshNamespace(c, 'prevpart');
    await twoTargets(c, ns, { skipSecond: true });
    await createDisruption(c, ns, { ...defaultSpec(), count: 2, duration: SHORT, cpuPressure: undefined, dns: undefined } as never);
    await expectStatus(c, ns, ['PartiallyInjected']);
    await expectStatus(c, ns, ['PreviouslyPartiallyInjected']);
    await staysUntilGone(ns, 'PreviouslyPartiallyInjected');
  });

  it('4. a disruption expires naturally: chaos pods end, PreviouslyInjected, cleanedAt, then it is removed', async () => {
    const ns = await freshNamespace(c, 'expire');
    await twoTargets(c, ns);
    await createDisruption(c, ns, { dryRun: true, count: '100%', unsafeMode: { disableAll: true }, containers: ['ctn1'], duration: SHORT, cpuPressure: {} });
    await expectChaosPods(c, ns, 2);
    await expectChaosInjectors(c, ns, 2);
    let cleanedAt: string | undefined;
    await until('the disruption gone after expiry and GC', async () => {
      const d = await getDisruption(c, ns);
      if (d?.status?.cleanedAt) cleanedAt = d.status.cleanedAt;
      return d === undefined ? true : undefined;
    });
    assert.ok(cleanedAt, 'cleanedAt was set during deletion');
    assert.equal((await chaosPods(c, ns)).length, 0);
  });

  /** Upstream's ExpectDisruptionStatusUntilExpired: the final status holds until the disruption is garbage collected. */
  async function staysUntilGone(ns: string, status: InjectionStatus): Promise<void> {
    await until(`disruption ${ns}/dis stays ${status} until it is gone`, async () => {
      const d = await getDisruption(c, ns);
      if (d === undefined) return true;
      assert.equal(d.status?.injectionStatus, status);
      return undefined;
    });
  }
});
