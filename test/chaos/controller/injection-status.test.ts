// The injection status machine (§2.7): every transition, then the sequences upstream's e2e tests pin (§4 items
// 12 and 16), played as the controller would feed them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InjectionStatus } from '../../../src/chaos/api/constants.ts';
import type { TargetInjection } from '../../../src/chaos/api/types.ts';
import { nextInjection, notFullyInjected, terminationStatus, type TerminationStatus } from '../../../src/chaos/controller/injection-status.ts';
import type { Pod } from '../../../src/apimachinery/api/index.ts';
import { podFixture } from './pod-fixture.ts';

const now = new Date('2026-01-01T00:00:00Z');
const chaosPod = (target: string, kind: string, state: 'pending' | 'running' | 'ready' | 'succeeded' | 'failed'): Pod =>
  podFixture({
  metadata: { name: `chaos-${target}-${kind}`, labels: { 'chaos.datadoghq.com/target': target, 'chaos.datadoghq.com/disruption-kind': kind } },
  status:
    state === 'pending'
      ? { phase: 'Pending' }
      : state === 'succeeded' || state === 'failed'
        ? { phase: state === 'succeeded' ? 'Succeeded' : 'Failed', containerStatuses: [{ name: 'injector', state: { terminated: { exitCode: state === 'succeeded' ? 0 : 1 } } }] }
        : {
            phase: 'Running',
            containerStatuses: [{ name: 'injector', state: { running: {} } }],
            conditions: [{ type: 'Ready', status: state === 'ready' ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:05Z' }],
          },
  });

test('terminationStatus: definitive when expired or deleting; temporary when every pod exited 0 or all are gone after an injection', () => {
  const t = (expiredOrDeleting: boolean, status: InjectionStatus, pods: Pod[]) => terminationStatus({ expiredOrDeleting, status, chaosPods: pods });
  assert.equal(t(true, 'Injected', [chaosPod('a', 'k', 'ready')]), 'DefinitivelyTerminated');
  assert.equal(t(false, '', []), 'NotTerminated');
  assert.equal(t(false, 'NotInjected', []), 'NotTerminated');
  assert.equal(t(false, 'PreviouslyNotInjected', []), 'NotTerminated');
  assert.equal(t(false, 'PartiallyInjected', []), 'TemporarilyTerminated');
  assert.equal(t(false, 'Injected', [chaosPod('a', 'k', 'succeeded')]), 'TemporarilyTerminated');
  assert.equal(t(false, 'Injected', [chaosPod('a', 'k', 'succeeded'), chaosPod('b', 'k', 'failed')]), 'NotTerminated');
  assert.equal(t(false, 'Injected', [chaosPod('a', 'k', 'ready')]), 'NotTerminated');
  // Bosun: a Pending chaos pod with no container status is not "terminated".
  assert.equal(t(false, 'PartiallyInjected', [chaosPod('a', 'k', 'pending')]), 'NotTerminated');
});

test('every transition out of a termination', () => {
  const table: Array<[InjectionStatus, TerminationStatus, InjectionStatus]> = [
    ['Injected', 'TemporarilyTerminated', 'PausedInjected'],
    ['PausedInjected', 'TemporarilyTerminated', 'PausedInjected'],
    ['PreviouslyInjected', 'TemporarilyTerminated', 'PausedInjected'],
    ['Injected', 'DefinitivelyTerminated', 'PreviouslyInjected'],
    ['PausedInjected', 'DefinitivelyTerminated', 'PreviouslyInjected'],
    ['PartiallyInjected', 'TemporarilyTerminated', 'PausedPartiallyInjected'],
    ['PausedPartiallyInjected', 'DefinitivelyTerminated', 'PreviouslyPartiallyInjected'],
    ['PreviouslyPartiallyInjected', 'TemporarilyTerminated', 'PausedPartiallyInjected'],
    ['NotInjected', 'TemporarilyTerminated', 'NotInjected'],
    ['', 'DefinitivelyTerminated', 'PreviouslyNotInjected'],
    ['PreviouslyNotInjected', 'DefinitivelyTerminated', 'PreviouslyNotInjected'],
  ];
  for (const [from, termination, to] of table) {
    const r = nextInjection({ status: from, termination, chaosPods: [], desiredTargetsCount: 1, targetInjections: {}, kindCount: 1, now });
    assert.equal(r.status, to, `${from || '""'} + ${termination}`);
  }
  assert.throws(() => nextInjection({ status: 'Bogus' as InjectionStatus, termination: 'TemporarilyTerminated', chaosPods: [], desiredTargetsCount: 1, targetInjections: {}, kindCount: 1, now }), /unknown injection status/);
});

test('chaos pods running: Partially until every target × kind is ready and the targets reach desired; per-kind status and count', () => {
  const injections = (): Record<string, Record<string, TargetInjection>> => ({ a: { 'network-disruption': { injectionStatus: 'NotInjected' }, 'dns-disruption': { injectionStatus: 'NotInjected' } } });
  const step = (pods: Pod[], desired = 1) => nextInjection({ status: 'NotInjected', termination: 'NotTerminated', chaosPods: pods, desiredTargetsCount: desired, targetInjections: injections(), kindCount: 2, now });
  const half = step([chaosPod('a', 'network-disruption', 'ready'), chaosPod('a', 'dns-disruption', 'running')]);
  assert.equal(half.status, 'PartiallyInjected');
  assert.deepEqual(half.targetInjections['a']?.['network-disruption'], { injectorPodName: 'chaos-a-network-disruption', injectionStatus: 'Injected', since: '2026-01-01T00:00:05Z' });
  assert.equal(half.targetInjections['a']?.['dns-disruption']?.injectionStatus, 'NotInjected');
  assert.equal(half.injectedTargetsCount, 0);
  const full = step([chaosPod('a', 'network-disruption', 'ready'), chaosPod('a', 'dns-disruption', 'ready')]);
  // dns counts as a kind (upstream's DisruptionCount left it out): two ready pods of two kinds are one target.
  assert.deepEqual([full.status, full.injectedTargetsCount], ['Injected', 1]);
  assert.equal(step([chaosPod('a', 'network-disruption', 'ready'), chaosPod('a', 'dns-disruption', 'ready')], 2).status, 'PartiallyInjected');
  assert.equal(notFullyInjected('PausedInjected'), true);
  assert.equal(notFullyInjected('Injected'), false);
  assert.equal(notFullyInjected('PreviouslyInjected'), false);
});

/** A disruption's status as the controller carries it from pass to pass (one kind). */
class Play {
  status: InjectionStatus = '';
  injections: Record<string, Record<string, TargetInjection>> = {};
  injected = 0;
  constructor(private readonly kind = 'cpu-pressure') {}

  /** targets: name → its chaos pod's state (undefined: no chaos pod). */
  pass(targets: Record<string, 'pending' | 'running' | 'ready' | 'succeeded' | undefined>, desired: number, expired = false): InjectionStatus {
    for (const name of Object.keys(this.injections)) if (!(name in targets)) delete this.injections[name];
    for (const name of Object.keys(targets)) this.injections[name] ??= { [this.kind]: { injectionStatus: 'NotInjected' } };
    const pods = Object.entries(targets).flatMap(([name, state]) => (state ? [chaosPod(name, this.kind, state)] : []));
    const r = nextInjection({
      status: this.status,
      termination: terminationStatus({ expiredOrDeleting: expired, status: this.status, chaosPods: pods }),
      chaosPods: pods,
      desiredTargetsCount: desired,
      targetInjections: this.injections,
      kindCount: 1,
      now,
    });
    this.status = r.status;
    this.injections = r.targetInjections;
    this.injected = r.injectedTargetsCount;
    return r.status;
  }
}

test('e2e 16: Partially → PausedPartially (targets deleted) → Injected (recreated) → PausedInjected → PreviouslyInjected', () => {
  const p = new Play();
  assert.equal(p.pass({ a: 'pending', b: 'pending' }, 2), 'PartiallyInjected');
  assert.equal(p.pass({ a: 'ready', b: 'running' }, 2), 'PartiallyInjected');
  assert.equal(p.pass({}, 0), 'PausedPartiallyInjected');
  assert.equal(p.pass({ c: 'pending', d: 'pending' }, 2), 'PartiallyInjected');
  assert.equal(p.pass({ c: 'ready', d: 'ready' }, 2), 'Injected');
  assert.equal(p.injected, 2);
  assert.equal(p.pass({}, 0), 'PausedInjected');
  assert.equal(p.pass({}, 0, true), 'PreviouslyInjected');
});

test('e2e 16: Injected then expired → PreviouslyInjected; chaos pods that exited at their deadline stay Previously', () => {
  const p = new Play();
  p.pass({ a: 'ready' }, 1);
  assert.equal(p.status, 'Injected');
  assert.equal(p.pass({ a: 'ready' }, 1, true), 'PreviouslyInjected');
  assert.equal(p.pass({ a: 'succeeded' }, 1, true), 'PreviouslyInjected');
});

test('e2e 16: Injected, every chaos pod ends early → PausedInjected, then expiry → PreviouslyInjected', () => {
  const p = new Play();
  p.pass({ a: 'ready' }, 1);
  assert.equal(p.pass({ a: 'succeeded' }, 1), 'PausedInjected');
  assert.equal(p.pass({ a: 'succeeded' }, 1, true), 'PreviouslyInjected');
});

test('e2e 16: nothing matches → NotInjected, then expiry → PreviouslyNotInjected', () => {
  const p = new Play();
  assert.equal(p.pass({}, 0), 'NotInjected');
  assert.equal(p.pass({}, 0, true), 'PreviouslyNotInjected');
});

test('e2e 16: count 2 with one pod → PartiallyInjected, then expiry → PreviouslyPartiallyInjected', () => {
  const p = new Play();
  assert.equal(p.pass({ a: 'ready' }, 2), 'PartiallyInjected');
  assert.equal(p.pass({ a: 'ready' }, 2, true), 'PreviouslyPartiallyInjected');
});

test('e2e 12: count "3" with 2 pods → Partially; 2 more pods → Injected (3 targets); they go → Partially', () => {
  const p = new Play();
  assert.equal(p.pass({ a: 'ready', b: 'ready' }, 3), 'PartiallyInjected');
  assert.equal(p.injected, 2);
  p.pass({ a: 'ready', b: 'ready', c: 'pending' }, 3);
  assert.equal(p.pass({ a: 'ready', b: 'ready', c: 'ready' }, 3), 'Injected');
  assert.equal(p.injected, 3);
  assert.equal(p.pass({ a: 'ready', b: 'ready' }, 3), 'PartiallyInjected');
});
