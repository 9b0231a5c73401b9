// Structural defaulting, pruning and OpenAPI validation of custom resources, worded like apiextensions-apiserver.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatGoValue } from '../../../src/apimachinery/field-error.ts';
import { compileCustomResourceSchema, type JSONSchemaProps } from '../../../src/apiserver/crd/custom-resource-schema.ts';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'integer', minimum: 1, maximum: 10 },
        ratio: { type: 'number', exclusiveMinimum: true, minimum: 0 },
        color: { type: 'string', enum: ['red', 'blue'], default: 'red' },
        name: { type: 'string', pattern: '^[a-z]+$', maxLength: 5, minLength: 2 },
        tags: { type: 'array', maxItems: 2, minItems: 1, items: { type: 'string' } },
        items: { type: 'array', items: { type: 'object', properties: { n: { type: 'string' }, mode: { type: 'string', default: 'auto' } } } },
        port: { 'x-kubernetes-int-or-string': true },
        when: { type: 'string', format: 'date-time' },
        ip: { type: 'string', format: 'ipv4' },
        count: { type: 'integer', format: 'int32' },
        qty: { type: 'string', format: 'quantity' },
        note: { type: 'string', nullable: true, default: 'n/a' },
        strict: { type: 'string', default: 'on' },
        plain: { type: 'string' },
        nested: { type: 'object', default: {}, properties: { level: { type: 'integer', default: 1 } } },
        optional: { type: 'object', properties: { inner: { type: 'string', default: 'x' } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'object', properties: { a: { type: 'string' } } } } },
        anything: { 'x-kubernetes-preserve-unknown-fields': true },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        strictTemplate: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } } },
        choice: { type: 'string', anyOf: [{ pattern: '^a' }, { pattern: '^b' }] },
      },
    },
    status: { type: 'object', properties: { phase: { type: 'string' } } },
  },
};

function cr(spec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' }, spec, ...extra };
}

const compiled = compileCustomResourceSchema(schema);

test('compilation is cached by identity and by content', () => {
  assert.equal(compileCustomResourceSchema(schema), compiled);
  assert.equal(compileCustomResourceSchema(structuredClone(schema)), compiled);
});

test('a valid object has no causes', () => {
  assert.deepEqual(compiled.validate(cr({ size: 3, color: 'blue', name: 'abc', tags: ['x'], port: 8080, when: '2026-01-01T00:00:00Z', ip: '10.0.0.1', qty: '1Gi', count: 5 })), []);
  assert.deepEqual(compiled.validate(cr({ size: 3, port: 'http', note: null })), []);
});

test('type errors use the kube-openapi wording and the field path', () => {
  assert.deepEqual(compiled.validate(cr({ size: 'string' })), [
    { reason: 'FieldValueTypeInvalid', message: 'Invalid value: "string": spec.size in body must be of type integer: "string"', field: 'spec.size' },
  ]);
  assert.deepEqual(compiled.validate(cr({ size: 1.5 })), [
    { reason: 'FieldValueTypeInvalid', message: 'Invalid value: "number": spec.size in body must be of type integer: "number"', field: 'spec.size' },
  ]);
  assert.deepEqual(compiled.validate(cr({ size: 1, port: true })), [
    { reason: 'FieldValueTypeInvalid', message: 'Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"', field: 'spec.port' },
  ]);
  assert.deepEqual(compiled.validate(cr({ size: 1, plain: null })), [
    { reason: 'FieldValueTypeInvalid', message: 'Invalid value: "null": spec.plain in body must be of type string: "null"', field: 'spec.plain' },
  ]);
  assert.deepEqual(compiled.validate(cr({ size: 1, items: [{ n: 1 }] })), [
    { reason: 'FieldValueTypeInvalid', message: 'Invalid value: "integer": spec.items[0].n in body must be of type string: "integer"', field: 'spec.items[0].n' },
  ]);
});

test('required, enum and bounds', () => {
  assert.deepEqual(compiled.validate(cr({})), [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.size' }]);
  assert.deepEqual(compiled.validate(cr({ size: 11, color: 'green', ratio: 0 })), [
    { reason: 'FieldValueInvalid', message: 'Invalid value: 11: spec.size in body should be less than or equal to 10', field: 'spec.size' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: 0: spec.ratio in body should be greater than 0', field: 'spec.ratio' },
    { reason: 'FieldValueNotSupported', message: 'Unsupported value: "green": supported values: "red", "blue"', field: 'spec.color' },
  ]);
  assert.deepEqual(compiled.validate(cr({ size: 0 })), [
    { reason: 'FieldValueInvalid', message: 'Invalid value: 0: spec.size in body should be greater than or equal to 1', field: 'spec.size' },
  ]);
});

test('strings, arrays and formats', () => {
  const causes = compiled.validate(cr({ size: 1, name: 'ABCDEFG', tags: ['a', 'b', 'c'], when: 'yesterday', ip: '300.1.1.1' }));
  assert.deepEqual(causes, [
    // kube-openapi stops at the first string failure, so the pattern is not reported alongside the length.
    { reason: 'FieldValueTooLong', message: 'Too long: may not be more than 5 bytes', field: 'spec.name' },
    { reason: 'FieldValueTooMany', message: 'Too many: 3: must have at most 2 items', field: 'spec.tags' },
    { reason: 'FieldValueTypeInvalid', message: 'Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"', field: 'spec.when' },
    { reason: 'FieldValueTypeInvalid', message: 'Invalid value: "300.1.1.1": spec.ip in body must be of type ipv4: "300.1.1.1"', field: 'spec.ip' },
  ]);
  assert.deepEqual(compiled.validate(cr({ size: 1, name: 'ABC' })), [
    { reason: 'FieldValueInvalid', message: `Invalid value: "ABC": spec.name in body should match '^[a-z]+$'`, field: 'spec.name' },
  ]);
  assert.deepEqual(compiled.validate(cr({ size: 1, name: 'a', tags: [] })), [
    { reason: 'FieldValueInvalid', message: 'Invalid value: "a": spec.name in body should be at least 2 chars long', field: 'spec.name' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: []interface {}{}: spec.tags in body should have at least 1 items', field: 'spec.tags' },
  ]);
});

test('anyOf failures are summarised, not itemised', () => {
  assert.deepEqual(compiled.validate(cr({ size: 1, choice: 'c' })), [
    { reason: 'FieldValueInvalid', message: 'Invalid value: "c": spec.choice in body must validate at least one schema (anyOf)', field: 'spec.choice' },
  ]);
});

test('embedded resources need apiVersion and kind', () => {
  assert.deepEqual(compiled.validate(cr({ size: 1, template: { metadata: { name: 'x' } } })), [
    { reason: 'FieldValueRequired', message: 'Required value: must not be empty', field: 'spec.template.apiVersion' },
    { reason: 'FieldValueRequired', message: 'Required value: must not be empty', field: 'spec.template.kind' },
  ]);
  assert.deepEqual(compiled.validate(cr({ size: 1, template: { apiVersion: 'v1', kind: 'ConfigMap' } })), []);
});

test('defaulting fills missing fields, recurses into new defaults, and only where the parent exists', () => {
  const obj = cr({ size: 1, items: [{ n: 'a' }, { n: 'b', mode: 'manual' }] });
  compiled.applyDefaults(obj);
  const spec = obj['spec'] as Record<string, unknown>;
  assert.equal(spec['color'], 'red');
  assert.equal(spec['note'], 'n/a');
  assert.deepEqual(spec['nested'], { level: 1 });
  assert.equal(spec['optional'], undefined, 'no parent object, no nested default');
  assert.deepEqual(spec['items'], [
    { n: 'a', mode: 'auto' },
    { n: 'b', mode: 'manual' },
  ]);
  assert.equal(obj['status'], undefined);
});

test('defaulting: null on a non-nullable field takes the default; nullable null stays; null without default is dropped', () => {
  const obj = cr({ size: 1, strict: null, note: null, plain: null, optional: {} });
  compiled.applyDefaults(obj);
  const spec = obj['spec'] as Record<string, unknown>;
  assert.equal(spec['strict'], 'on');
  assert.equal(spec['note'], null);
  assert.equal('plain' in spec, false);
  assert.deepEqual(spec['optional'], { inner: 'x' });
  assert.deepEqual(compiled.validate(obj), []);
});

test('defaults are copies, not shared references', () => {
  const a = cr({ size: 1 });
  const b = cr({ size: 1 });
  compiled.applyDefaults(a);
  compiled.applyDefaults(b);
  ((a['spec'] as Record<string, unknown>)['nested'] as Record<string, unknown>)['level'] = 99;
  assert.deepEqual((b['spec'] as Record<string, unknown>)['nested'], { level: 1 });
});

test('pruning drops unknown fields, keeps root and embedded apiVersion/kind/metadata, honours preserve-unknown-fields', () => {
  const obj = cr(
    {
      size: 1,
      foo: 1,
      items: [{ n: 'a', zap: true }],
      labels: { a: 'b' },
      free: { anything: { deep: 1 }, known: { a: 'x', b: 'y' } },
      anything: { x: [1, { y: 2 }] },
      template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', bogus: 1 }, spec: { whatever: 1 } },
      strictTemplate: { apiVersion: 'v1', kind: 'X', metadata: { name: 'q' }, spec: { x: 'ok', y: 'gone' }, extra: 1 },
    },
    { status: { phase: 'Ready', other: 1 }, topLevel: 1 },
  );
  (obj['metadata'] as Record<string, unknown>)['weird'] = 1;
  const expected = [
    'metadata.weird',
    'spec.foo',
    'spec.free.known.b',
    'spec.items[0].zap',
    'spec.strictTemplate.extra',
    'spec.strictTemplate.spec.y',
    'spec.template.metadata.bogus',
    'status.other',
    'topLevel',
  ];
  assert.deepEqual(compiled.unknownFields(obj), expected);
  assert.equal((obj['spec'] as Record<string, unknown>)['foo'], 1, 'unknownFields does not mutate');
  assert.deepEqual(compiled.prune(obj), expected);
  assert.deepEqual(obj, {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w1', namespace: 'default' },
    spec: {
      size: 1,
      items: [{ n: 'a' }],
      labels: { a: 'b' },
      free: { anything: { deep: 1 }, known: { a: 'x' } },
      anything: { x: [1, { y: 2 }] },
      template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { whatever: 1 } },
      strictTemplate: { apiVersion: 'v1', kind: 'X', metadata: { name: 'q' }, spec: { x: 'ok' } },
    },
    status: { phase: 'Ready' },
  });
  assert.deepEqual(compiled.unknownFields(obj), []);
});

test('additionalProperties: true keeps scalar values but, like upstream, empties nested objects', () => {
  const s = compileCustomResourceSchema({ type: 'object', properties: { m: { type: 'object', additionalProperties: true } } });
  const obj = { m: { a: 1, b: { c: 2 } } };
  assert.deepEqual(s.prune(obj), ['m.b.c']);
  assert.deepEqual(obj, { m: { a: 1, b: {} } });
});

test('no schema preserves everything and validates nothing', () => {
  const open = compileCustomResourceSchema(undefined);
  const obj = cr({ anything: 1 });
  assert.deepEqual(open.prune(obj), []);
  assert.deepEqual(open.validate(obj), []);
});

test('Go inline regexp flags are accepted in patterns', () => {
  const s = compileCustomResourceSchema({ type: 'object', properties: { a: { type: 'string', pattern: '(?i)^abc$' } } });
  assert.deepEqual(s.validate({ a: 'ABC' }), []);
  assert.equal(s.validate({ a: 'abd' }).length, 1);
});

test('formatGoValue renders like Go %v/%q/%#v', () => {
  assert.equal(formatGoValue('x'), '"x"');
  assert.equal(formatGoValue(3), '3');
  assert.equal(formatGoValue(1.25), '1.25');
  assert.equal(formatGoValue(null), 'null');
  assert.equal(formatGoValue({ b: 1, a: ['x'] }), 'map[string]interface {}{"a":[]interface {}{"x"}, "b":1}');
});
