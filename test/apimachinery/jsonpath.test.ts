// The client-go JSONPath subset: fields, indices, slices, wildcards, filters, recursion and Go-style printing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateJsonPath, formatGoNumber, formatJsonPathValue, JsonPathError, parseJsonPath, printJsonPath } from '../../src/apimachinery/jsonpath.ts';

const pod = {
  metadata: { name: 'p1', labels: { app: 'web', 'app.kubernetes.io/name': 'demo' } },
  spec: { items: [{ name: 'a', n: 1 }, { name: 'b', n: 2 }, { name: 'c', n: 3 }] },
  status: {
    phase: 'Running',
    conditions: [
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'False' },
    ],
  },
};

test('plain and braced field paths', () => {
  assert.deepEqual(evaluateJsonPath('.status.phase', pod), ['Running']);
  assert.deepEqual(evaluateJsonPath('{.status.phase}', pod), ['Running']);
  assert.deepEqual(evaluateJsonPath('.metadata.labels.app', pod), ['web']);
  assert.deepEqual(evaluateJsonPath('.metadata.labels.app\\.kubernetes\\.io/name', pod), ['demo']);
  assert.deepEqual(evaluateJsonPath(".metadata.labels['app.kubernetes.io/name']", pod), ['demo']);
});

test('missing keys give no result rather than an error', () => {
  assert.deepEqual(evaluateJsonPath('.status.nothing.deeper', pod), []);
  assert.deepEqual(evaluateJsonPath('.spec.items[7].name', pod), []);
});

test('indices, negative indices, slices and wildcards', () => {
  assert.deepEqual(evaluateJsonPath('.spec.items[0].name', pod), ['a']);
  assert.deepEqual(evaluateJsonPath('.spec.items[-1].name', pod), ['c']);
  assert.deepEqual(evaluateJsonPath('.spec.items[0:2].name', pod), ['a', 'b']);
  assert.deepEqual(evaluateJsonPath('.spec.items[*].name', pod), ['a', 'b', 'c']);
  assert.deepEqual(evaluateJsonPath('.spec.items[0,2].n', pod), [1, 3]);
});

test('filters select list entries', () => {
  assert.deepEqual(evaluateJsonPath('.status.conditions[?(@.type=="Ready")].status', pod), ['False']);
  assert.deepEqual(evaluateJsonPath(".status.conditions[?(@.type=='Initialized')].status", pod), ['True']);
  assert.deepEqual(evaluateJsonPath('.spec.items[?(@.n > 1)].name', pod), ['b', 'c']);
  assert.deepEqual(evaluateJsonPath('.spec.items[?(@.n != 2)].name', pod), ['a', 'c']);
  assert.deepEqual(evaluateJsonPath('.status.conditions[?(@.reason)].type', pod), []);
});

test('recursive descent', () => {
  assert.deepEqual(evaluateJsonPath('..name', { a: { name: 'x' }, b: [{ name: 'y' }] }), ['x', 'y']);
});

test('templates mix text and values; results print like client-go', () => {
  const path = parseJsonPath('name={.metadata.name} phase={.status.phase}');
  assert.equal(printJsonPath(path, pod), 'name=p1 phase=Running');
  assert.equal(printJsonPath(parseJsonPath('{.spec.items[*].name}'), pod), 'a b c');
  assert.equal(formatJsonPathValue({ b: 1, a: '<x>' }), '{"a":"\\u003cx\\u003e","b":1}');
  assert.equal(formatJsonPathValue(true), 'true');
});

test('numbers print the way Go prints int64 and float64', () => {
  assert.equal(formatGoNumber(3), '3');
  assert.equal(formatGoNumber(1.5), '1.5');
  assert.equal(formatGoNumber(1234567.5), '1.2345675e+06');
  assert.equal(formatGoNumber(0.00001), '1e-05');
});

test('malformed expressions throw a typed error', () => {
  assert.throws(() => parseJsonPath('{.a[}'), JsonPathError);
  assert.throws(() => parseJsonPath('{.a'), JsonPathError);
  assert.throws(() => parseJsonPath('{.a[x]}'), JsonPathError);
});
