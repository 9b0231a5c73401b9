// Leader election on Leases against the embedded API server: one leader, fast handover, loss stops controllers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { leasesResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { action } from '../../src/runtime/controller/action.ts';
import type { Lease } from '../../src/apimachinery/api/index.ts';
import { LeaderElector } from '../../src/runtime/leader-election.ts';
import { LeaderElectionLostError, Manager } from '../../src/runtime/manager.ts';
import { eventually, startHarness, widget, widgets, type Harness } from './harness.ts';

// Short timings keep the suite quick; the ratios match the defaults (15 s / 10 s / 2 s).
const timing = { leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 200 };
const quiet = pino({ enabled: false });

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

function elector(name: string, identity: string, extra: Partial<ConstructorParameters<typeof LeaderElector>[0]> = {}) {
  const events: string[] = [];
  const e = new LeaderElector({
    client: h.newClient(),
    namespace: 'default',
    name,
    identity,
    ...timing,
    logger: quiet,
    onStartedLeading: () => events.push('started'),
    onStoppedLeading: (reason) => events.push(`stopped:${reason}`),
    ...extra,
  });
  return { e, events };
}

test('defaults are 15 s / 10 s / 2 s and inconsistent timings are refused', () => {
  const e = new LeaderElector({ client: h.client, namespace: 'default', name: 'x' });
  assert.match(e.identity, /_[0-9a-f-]{36}$/);
  assert.throws(() => new LeaderElector({ client: h.client, namespace: 'default', name: 'x', leaseDurationMs: 10_000 }), { name: 'LeaderElectionError' });
  assert.throws(() => new LeaderElector({ client: h.client, namespace: 'default', name: 'x', retryPeriodMs: 9_000 }), { name: 'LeaderElectionError' });
});

test('of two candidates racing for a new lease exactly one leads', async () => {
  const a = elector('race', 'a');
  const b = elector('race', 'b');
  a.e.start();
  b.e.start();
  await eventually(() => a.e.isLeader || b.e.isLeader, 'a leader');
  // Several renew periods later, still exactly one.
  await new Promise((r) => setTimeout(r, 3 * timing.retryPeriodMs));
  assert.equal(Number(a.e.isLeader) + Number(b.e.isLeader), 1);
  const lease = await h.client.get<Lease>(leasesResource, 'race', { namespace: 'default' });
  assert.equal(lease.spec?.holderIdentity, a.e.isLeader ? 'a' : 'b');
  assert.equal(lease.spec?.leaseDurationSeconds, 2);
  await Promise.all([a.e.stop(), b.e.stop()]);
});

test('a crashed leader (no release) is replaced within one lease duration plus retries', async () => {
  const a = elector('crash', 'a', { releaseOnStop: false });
  a.e.start();
  await eventually(() => a.e.isLeader, 'a leads');
  const b = elector('crash', 'b');
  b.e.start();
  await eventually(() => b.e.leader === 'a', 'b sees a');
  await a.e.stop(); // stops renewing; the lease still names a
  const stoppedAt = Date.now();
  await eventually(() => b.e.isLeader, 'b takes over', 10_000);
  const took = Date.now() - stoppedAt;
  assert.ok(took <= 2000 + 2 * timing.retryPeriodMs * 1.2 + 300, `took ${took} ms (lease 2 s as stored, rounded up)`);
  const lease = await h.client.get<Lease>(leasesResource, 'crash', { namespace: 'default' });
  assert.equal(lease.spec?.holderIdentity, 'b');
  assert.equal(lease.spec?.leaseTransitions, 1);
  await b.e.stop();
});

test('two managers: graceful stop releases the lease and the standby runs the controllers within one lease duration', async () => {
  await h.client.create(widgets, widget('handover'));
  const runs: string[] = [];
  const managers = ['m1', 'm2'].map((id) => {
    const mgr = new Manager({ client: h.newClient(), logger: quiet, leaderElection: { name: 'handover', namespace: 'default', identity: id, ...timing } });
    mgr.controller<KubeObject, null>({
      name: 'widgets',
      for: widgets,
      data: null,
      reconcile: async (obj) => {
        runs.push(`${id}:${obj.metadata.name ?? ''}`);
        return action.awaitChange();
      },
    });
    return mgr;
  });
  const [m1, m2] = managers as [Manager, Manager];
  await m1.start();
  await eventually(() => m1.isLeader && runs.includes('m1:handover'), 'm1 leads and reconciles');
  await m2.start();
  await eventually(() => m2.cachesSynced(), 'standby caches warm');
  await new Promise((r) => setTimeout(r, 2 * timing.retryPeriodMs));
  assert.equal(m2.isLeader, false);
  assert.ok(!runs.some((r) => r.startsWith('m2:')), 'the standby runs no controller');

  const stoppedAt = Date.now();
  await m1.stop();
  await m1.done;
  await eventually(() => runs.includes('m2:handover'), 'm2 reconciles', timing.leaseDurationMs);
  const took = Date.now() - stoppedAt;
  assert.ok(took < timing.leaseDurationMs, `handover took ${took} ms`);
  await m2.stop();
});

test('losing the lease stops the controllers and fails the manager', async () => {
  const mgr = new Manager({ client: h.newClient(), logger: quiet, leaderElection: { name: 'stolen', namespace: 'default', identity: 'victim', ...timing } });
  let signal: AbortSignal | undefined;
  mgr.controller<KubeObject, null>({
    name: 'widgets',
    for: widgets,
    data: null,
    reconcile: async (_obj, ctx) => {
      signal = ctx.signal;
      return action.awaitChange();
    },
  });
  await mgr.start();
  await eventually(() => mgr.isLeader && signal !== undefined, 'leading and reconciling');
  // An intruder overwrites the lease (what a partition followed by expiry looks like).
  const lease = await h.client.get<Lease>(leasesResource, 'stolen', { namespace: 'default' });
  await h.client.update(leasesResource, { ...lease, spec: { ...lease.spec, holderIdentity: 'intruder', leaseDurationSeconds: 60 } });
  await assert.rejects(mgr.done, LeaderElectionLostError);
  assert.equal(mgr.isLeader, false);
  assert.equal(signal?.aborted, true, 'reconciles see the abort');
});
