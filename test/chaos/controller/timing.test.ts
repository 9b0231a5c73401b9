// A disruption's clock: triggers (createPods, inject) and the remaining duration (upstream's TimeToCreatePods,
// TimeToInject, RemainingDuration).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Disruption, DisruptionTriggers } from '../../../src/chaos/api/types.ts';
import { remainingMs, timeToCreatePodsMs, timeToInjectMs } from '../../../src/chaos/controller/timing.ts';

const created = Date.parse('2026-01-01T00:00:00Z');
const at = (iso: string) => Date.parse(iso);
const d = (triggers?: DisruptionTriggers, duration = '10m'): Disruption => ({
  metadata: { name: 'd', creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { count: 1, duration, ...(triggers ? { triggers } : {}) },
});

test('triggers: none, createPods and inject by notBefore or offset, never before creation', () => {
  const table: Array<[string, DisruptionTriggers | undefined, number, number]> = [
    ['none', undefined, created, created],
    ['createPods offset', { createPods: { offset: '1m' } }, created + 60_000, created + 60_000],
    ['createPods notBefore', { createPods: { notBefore: '2026-01-01T00:05:00Z' } }, at('2026-01-01T00:05:00Z'), at('2026-01-01T00:05:00Z')],
    ['createPods notBefore in the past', { createPods: { notBefore: '2025-12-31T00:00:00Z' } }, created, created],
    ['inject offset counts from createPods', { createPods: { offset: '1m' }, inject: { offset: '30s' } }, created + 60_000, created + 90_000],
    ['inject notBefore', { inject: { notBefore: '2026-01-01T00:02:00Z' } }, created, at('2026-01-01T00:02:00Z')],
    ['offset wins over notBefore', { inject: { notBefore: '2026-01-01T00:02:00Z', offset: '10s' } }, created, created + 10_000],
  ];
  for (const [name, triggers, pods, inject] of table) {
    assert.equal(timeToCreatePodsMs(d(triggers)), pods, `${name}: createPods`);
    assert.equal(timeToInjectMs(d(triggers)), inject, `${name}: inject`);
  }
});

test('remainingMs: from the injection time, negative once expired', () => {
  assert.equal(remainingMs(d(undefined, '10m'), created + 60_000), 540_000);
  assert.equal(remainingMs(d({ inject: { offset: '1m' } }, '10m'), created + 60_000), 600_000);
  assert.equal(remainingMs(d(undefined, '1s'), created + 3000), -2000);
});
