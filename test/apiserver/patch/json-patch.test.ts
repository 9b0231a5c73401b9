import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch } from '../../../src/apiserver/patch/json-patch.ts';
import { StatusError } from '../../../src/apimachinery/status-error.ts';

const doc = { metadata: { name: 'w1', labels: { a: '1' } }, spec: { size: 1, items: ['x', 'y'] } };

function statusOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof StatusError, `expected StatusError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected an error');
}

test('json patch: test op success then replace/add/remove', () => {
  const out = applyJsonPatch(doc, [
    { op: 'test', path: '/spec/size', value: 1 },
    { op: 'replace', path: '/spec/size', value: 3 },
    { op: 'add', path: '/spec/items/-', value: 'z' },
    { op: 'add', path: '/metadata/labels/b~1c', value: '2' },
    { op: 'remove', path: '/metadata/labels/a' },
  ]);
  assert.deepEqual(out, { metadata: { name: 'w1', labels: { 'b/c': '2' } }, spec: { size: 3, items: ['x', 'y', 'z'] } });
  assert.equal(doc.spec.size, 1, 'input is not mutated');
});

test('json patch: failed test is 422 Invalid with the upstream cause text', () => {
  const e = statusOf(() => applyJsonPatch(doc, [{ op: 'test', path: '/spec/size', value: 2 }]));
  assert.equal(e.code, 422);
  assert.equal(e.reason, 'Invalid');
  assert.equal(e.message, 'the server rejected our request due to an error in our request');
  assert.deepEqual(e.details?.causes, [{ reason: 'UnexpectedServerResponse', message: 'testing value /spec/size failed: test failed' }]);
});

test('json patch: missing paths are 422', () => {
  const rm = statusOf(() => applyJsonPatch(doc, [{ op: 'remove', path: '/spec/nope' }]));
  assert.equal(rm.code, 422);
  assert.equal(rm.details?.causes?.[0]?.message, "error in remove for path: '/spec/nope': Unable to remove nonexistent key: nope: missing value");
  const add = statusOf(() => applyJsonPatch(doc, [{ op: 'add', path: '/status/phase', value: 'x' }]));
  assert.equal(add.code, 422);
  assert.equal(add.details?.causes?.[0]?.message, 'add operation does not apply: doc is missing path: "/status/phase": missing value');
  const idx = statusOf(() => applyJsonPatch(doc, [{ op: 'replace', path: '/spec/items/5', value: 'q' }]));
  assert.equal(idx.code, 422);
});

test('json patch: a test against an absent value fails, and ops after a failure do not apply', () => {
  const e = statusOf(() => applyJsonPatch(doc, [{ op: 'test', path: '/spec/absent', value: null }]));
  assert.equal(e.code, 422);
});

test('json patch: malformed documents are 400', () => {
  assert.equal(statusOf(() => applyJsonPatch(doc, { op: 'add' })).code, 400);
  assert.equal(statusOf(() => applyJsonPatch(doc, ['x'])).code, 400);
});

test('json patch: move and copy', () => {
  const out = applyJsonPatch(doc, [
    { op: 'copy', from: '/spec/size', path: '/spec/copied' },
    { op: 'move', from: '/spec/items/0', path: '/spec/items/1' },
  ]) as { spec: Record<string, unknown> };
  assert.equal(out.spec['copied'], 1);
  assert.deepEqual(out.spec['items'], ['y', 'x']);
});
