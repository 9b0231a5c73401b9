// The arithmetic the controllers share with upstream, checked on its own: rolling-update fenceposts and their
// rounding, proportional scaling's shares, completion index intervals, quantities, and template hashing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Deployment, PodTemplateSpec } from '../../src/apimachinery/api/index.ts';
import { maxSurge, maxUnavailable, resolveFenceposts } from '../../src/workloads/deployment/fenceposts.ts';
import { computeHash, equalIgnoringHash, safeEncodeString } from '../../src/workloads/deployment/template-hash.ts';
import { formatIndexes, parseIndexes } from '../../src/workloads/job/indexed.ts';
import { milliValue as milliCpu, integerValue } from '../../src/apimachinery/quantity.ts';

function deployment(replicas: number, strategy: Deployment['spec']['strategy']): Deployment {
  return { metadata: { name: 'd' }, spec: { replicas, strategy, selector: {}, template: { spec: { containers: [] } } } };
}

describe('rolling update fenceposts', () => {
  test('percentages: surge rounds up, unavailability down (10 replicas, 25%: 3 and 2)', () => {
    assert.deepEqual(resolveFenceposts(deployment(10, { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } })), { surge: 3, unavailable: 2 });
  });

  test('one replica at 25%/25%: surge 1, none unavailable', () => {
    const d = deployment(1, { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
    assert.equal(maxSurge(d), 1);
    assert.equal(maxUnavailable(d), 0);
  });

  test('both rounding to 0 would deadlock: one may be unavailable', () => {
    assert.deepEqual(resolveFenceposts(deployment(3, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '10%' } })), { surge: 0, unavailable: 1 });
  });

  test('integers as given; maxUnavailable capped at replicas; Recreate has neither', () => {
    assert.equal(maxUnavailable(deployment(2, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 5 } })), 2);
    assert.equal(maxSurge(deployment(2, { type: 'Recreate' })), 0);
    assert.equal(maxUnavailable(deployment(2, { type: 'Recreate' })), 0);
  });
});

describe('completion index intervals', () => {
  test('format and parse "0-2,4,6-7", dropping what is out of range or malformed', () => {
    assert.equal(formatIndexes(new Set([4, 0, 1, 2, 7, 6])), '0-2,4,6-7');
    assert.deepEqual([...parseIndexes('0-2,4,6-7', 7)].sort(), [0, 1, 2, 4, 6]);
    assert.deepEqual([...parseIndexes('x,3,,1-a', 10)], [3]);
    assert.equal(formatIndexes(new Set()), '');
  });
});

describe('quantities', () => {
  test('CPU in millicores, memory in bytes, as Quantity reads them', () => {
    assert.equal(milliCpu('100m'), 100);
    assert.equal(milliCpu('1.5'), 1500);
    assert.equal(milliCpu('2'), 2000);
    assert.equal(milliCpu('0.0001'), 1);
    assert.equal(integerValue('128Mi'), 128 * 1024 * 1024);
    assert.equal(integerValue('1G'), 1e9);
    assert.equal(integerValue('1e3'), 1000);
    assert.throws(() => milliCpu('lots'), { name: 'QuantityError' });
  });
});

describe('pod template hash', () => {
  const template: PodTemplateSpec = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

  test("rand.SafeEncodeString's alphabet, stable for a template, changed by the collision count", () => {
    assert.equal(safeEncodeString('0123456789'), '456789bcdf');
    assert.equal(computeHash(template, undefined), computeHash(structuredClone(template), undefined));
    assert.notEqual(computeHash(template, undefined), computeHash(template, 1));
    assert.notEqual(computeHash(template, undefined), computeHash({ ...template, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } }, undefined));
  });

  test('templates equal apart from the hash label, and empty fields equal absent ones (semantic equality)', () => {
    const roundTripped = { metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' }, creationTimestamp: null }, spec: { containers: [{ name: 'c', image: 'nginx', resources: {} }] } };
    assert.ok(equalIgnoringHash(template, roundTripped as unknown as PodTemplateSpec));
    assert.equal(computeHash(template, undefined), computeHash({ ...roundTripped, metadata: { labels: { app: 'web' } } } as unknown as PodTemplateSpec, undefined));
    assert.ok(!equalIgnoringHash(template, { ...template, metadata: { labels: { app: 'db' } } }));
  });
});
