// x-kubernetes-validations through an injected CEL engine: a table-driven fake here, the real library when installed.
import { celEngine } from '../../../src/apiserver/crd/cel-engine.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileCustomResourceSchema, type CelEngine, type JSONSchemaProps } from '../../../src/apiserver/crd/custom-resource-schema.ts';
import { defaultCrd, prepareCrdForCreate, validateCrd } from '../../../src/apiserver/crd/crd-validation.ts';

type Act = Record<string, unknown>;
const self = (a: Act): Record<string, unknown> => a['self'] as Record<string, unknown>;

// Each expression the schema uses, evaluated by hand; anything else is a "syntax error".
const programs: Record<string, (a: Act) => unknown> = {
  'self.min <= self.max': (a) => (self(a)['min'] as bigint) <= (self(a)['max'] as bigint),
  'self == oldSelf': (a) => a['self'] === a['oldSelf'],
  'self.startsWith("a")': (a) => String(a['self']).startsWith('a'),
  '"name must start with a, got " + self': (a) => `name must start with a, got ${String(a['self'])}`,
  'size(self) <= 2': (a) => (a['self'] as unknown[]).length <= 2,
  'typeof self.min': (a) => typeof self(a)['min'],
};
const fake: CelEngine = {
  compile(expression) {
    const p = programs[expression];
    if (!p) throw new Error(`ERROR: <input>:1:1: Syntax error: ${expression}`);
    return p;
  },
  optional: (value) => ({ optional: value }),
};

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min must not exceed max', fieldPath: '.min' }],
      properties: {
        min: { type: 'integer' },
        max: { type: 'integer' },
        id: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'id is immutable' }] },
        name: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.startsWith("a")', messageExpression: '"name must start with a, got " + self' }] },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'size(self) <= 2', reason: 'FieldValueForbidden' }] },
      },
    },
  },
};

test('rules run with self, integers as CEL ints, and report message, fieldPath and reason', () => {
  const s = compileCustomResourceSchema(schema, { cel: fake });
  assert.deepEqual(s.validate({ spec: { min: 1, max: 2, name: 'abc', tags: ['x'] } }), []);
  assert.deepEqual(s.validate({ spec: { min: 3, max: 2, name: 'bcd', tags: ['x', 'y', 'z'] } }), [
    { reason: 'FieldValueInvalid', message: 'Invalid value: "object": min must not exceed max', field: 'spec.min' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "string": name must start with a, got bcd', field: 'spec.name' },
    { reason: 'FieldValueForbidden', message: 'Forbidden: failed rule: size(self) <= 2', field: 'spec.tags' },
  ]);
});

test('transition rules need the old object', () => {
  const s = compileCustomResourceSchema(schema, { cel: fake });
  const obj = { spec: { min: 1, max: 2, id: 'b' } };
  assert.deepEqual(s.validate(obj), [], 'no oldSelf on create');
  assert.deepEqual(s.validate(obj, { spec: { id: 'b' } }), []);
  assert.deepEqual(s.validate(obj, { spec: { id: 'a' } }), [{ reason: 'FieldValueInvalid', message: 'Invalid value: "string": id is immutable', field: 'spec.id' }]);
});

test('without an engine, rules are ignored; caches are per engine', () => {
  const plain = compileCustomResourceSchema(schema);
  assert.notEqual(plain, compileCustomResourceSchema(schema, { cel: fake }));
  assert.deepEqual(plain.validate({ spec: { min: 3, max: 2 } }), []);
});

test('CRD validation reports rules that do not compile', () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.' }, { rule: '' }] } },
        },
      ],
    },
  };
  const out = validateCrd(prepareCrdForCreate(defaultCrd(crd)), undefined, { cel: fake }).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);
  assert.deepEqual(out, [
    'spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.", Message:"", ...}: compilation failed: ERROR: <input>:1:1: Syntax error: self.',
    'spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[1].rule: Required value: rule is not specified',
  ]);
});

test('the real CEL library plugs in unchanged', () => {
  const s = compileCustomResourceSchema(schema, { cel: celEngine });
  assert.deepEqual(s.validate({ spec: { min: 1, max: 2, name: 'abc' } }), []);
  assert.equal(s.validate({ spec: { min: 3, max: 2, name: 'abc' } })[0]?.message, 'Invalid value: "object": min must not exceed max');
});
