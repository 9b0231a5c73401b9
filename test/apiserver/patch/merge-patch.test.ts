import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyMergePatch } from '../../../src/apiserver/patch/merge-patch.ts';
import { StatusError } from '../../../src/apimachinery/status-error.ts';

test('merge patch: null deletes, objects merge, arrays replace', () => {
  const doc = { metadata: { name: 'a', labels: { x: '1', y: '2' } }, spec: { list: [1, 2, 3], keep: true } };
  const out = applyMergePatch(doc, { metadata: { labels: { x: null, z: '3' } }, spec: { list: [9] } });
  assert.deepEqual(out, { metadata: { name: 'a', labels: { y: '2', z: '3' } }, spec: { list: [9], keep: true } });
  assert.deepEqual(doc.metadata.labels, { x: '1', y: '2' });
});

test('merge patch: nulls inside newly added objects are dropped (RFC 7386)', () => {
  const out = applyMergePatch({ a: 1 }, { b: { c: null, d: 1 }, e: null });
  assert.deepEqual(out, { a: 1, b: { d: 1 } });
});

test('merge patch: a non-object patch is 400', () => {
  assert.throws(() => applyMergePatch({}, [1]), (e: unknown) => e instanceof StatusError && e.code === 400);
  assert.throws(() => applyMergePatch({}, null), (e: unknown) => e instanceof StatusError && e.code === 400);
});
