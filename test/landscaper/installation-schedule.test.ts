// Pure parts of the installation controller: Go durations, cron specs, the lastError update rule, sibling edges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGoDuration } from '../../src/apimachinery/duration.ts';
import { dueTime, nextCronTime } from '../../src/landscaper/schedule.ts';
import { installationMachine } from '../../src/landscaper/installation/phase-machine.ts';
import type { Deps } from '../../src/landscaper/installation/types.ts';
import { updatedLsError } from '../../src/landscaper/status-helpers.ts';
import { predecessors, successors } from '../../src/landscaper/installation/siblings.ts';
import type { Installation, InstallationStatus } from '../../src/landscaper/api/installation.ts';
import type { LsError } from '../../src/landscaper/api/shared.ts';
import { ConfigurationError, LandscaperError } from '../../src/landscaper/ls-error.ts';

test('Go durations', () => {
  assert.equal(parseGoDuration('24h'), 86_400_000);
  assert.equal(parseGoDuration('1h30m'), 5_400_000);
  assert.equal(parseGoDuration('1.5s'), 1500);
  assert.throws(() => parseGoDuration('5 minutes'), { name: 'DurationError' });
  assert.throws(() => dueTime(new Date(0), '5 minutes', undefined, '1h'), { name: 'ScheduleError' });
});

test('cron specs: 5 fields, descriptors, @every; interval fallback', () => {
  const from = new Date('2025-01-01T10:07:00Z');
  assert.equal(nextCronTime('*/15 * * * *', from).toISOString(), '2025-01-01T10:15:00.000Z');
  assert.equal(nextCronTime('@daily', from).toISOString(), '2025-01-02T00:00:00.000Z');
  assert.equal(nextCronTime('@every 2h', from).toISOString(), '2025-01-01T12:07:00.000Z');
  assert.throws(() => nextCronTime('* * *', from), { name: 'ScheduleError' });
  assert.equal(dueTime(from, undefined, undefined, '5m').toISOString(), '2025-01-01T10:12:00.000Z');
});

test('lastError keeps timestamps for a repeated error and moves lastTransitionTime only with the operation', () => {
  const t1 = new Date('2025-01-01T00:00:00Z');
  const t2 = new Date('2025-01-01T00:01:00Z');
  const lastError = (old: LsError | undefined, e: LandscaperError, now: Date): LsError => updatedLsError(old, e.operation, e.reason, e.message, [...e.codes], now);
  const a = lastError(undefined, new LandscaperError('Init', 'R', 'm'), t1);
  assert.equal(lastError(a, new LandscaperError('Init', 'R', 'm'), t2), a);
  const b = lastError(a, new LandscaperError('Init', 'R', 'other'), t2);
  assert.equal(b.lastTransitionTime, a.lastTransitionTime);
  assert.equal(b.lastUpdateTime, '2025-01-01T00:01:00Z');
  const c = lastError(b, new ConfigurationError('Completing', 'R', 'x'), t2);
  assert.equal(c.lastTransitionTime, '2025-01-01T00:01:00Z');
  // A phase entered without an error (a step that succeeded) clears lastError.
  const status: InstallationStatus = { observedGeneration: 1, phase: 'Completing', lastError: c };
  installationMachine({ now: () => t2 } as Deps).status.enter(status, 'Progressing', inst('x', [], []));
  assert.equal(status.lastError, undefined);
});

const inst = (name: string, imports: string[], exports: string[]): Installation => ({
  apiVersion: 'landscaper.gardener.cloud/v1alpha1',
  kind: 'Installation',
  metadata: { name, namespace: 'ns' },
  spec: {
    blueprint: {},
    imports: { data: imports.map((d) => ({ name: d, dataRef: d })), targets: [{ name: 't', targetMap: { k: `${name}-tgt` } }] },
    exports: { data: exports.map((d) => ({ name: d, dataRef: d })) },
  },
});

test('predecessors, successors and duplicate exporters', () => {
  const a = inst('a', [], ['x']);
  const b = inst('b', ['x'], ['y']);
  const c = inst('c', ['y', 'x'], []);
  assert.deepEqual(predecessors(c, [a, b]).map((i) => i.metadata.name).sort(), ['a', 'b']);
  assert.deepEqual(successors(a, [b, c]).map((i) => i.metadata.name).sort(), ['b', 'c']);
  assert.throws(() => predecessors(c, [a, b, inst('a2', [], ['x'])]), /exported by more than one sibling: a, a2/);
});
