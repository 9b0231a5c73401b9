// CustomResourceDefinition defaulting and validation, with apiextensions-apiserver's field paths and messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { defaultCrd, prepareCrdForCreate, storageVersionOf, validateCrd } from '../../../src/apiserver/crd/crd-validation.ts';

function crd(overrides: { spec?: Record<string, unknown>; name?: string; version?: Record<string, unknown> } = {}): KubeObject {
  const version = {
    name: 'v1',
    served: true,
    storage: true,
    schema: {
      openAPIV3Schema: {
        type: 'object',
        properties: {
          spec: { type: 'object', properties: { size: { type: 'integer', default: 1 }, any: { 'x-kubernetes-preserve-unknown-fields': true } } },
          status: { type: 'object', properties: { phase: { type: 'string' } } },
        },
      },
    },
    subresources: { status: {} },
    additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
    ...overrides.version,
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: overrides.name ?? 'widgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd'] }, versions: [version], ...overrides.spec },
  };
}

function fields(o: KubeObject, old?: KubeObject): string[] {
  const prepared = old ? defaultCrd(o) : prepareCrdForCreate(defaultCrd(o));
  return validateCrd(prepared, old).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);
}

test('defaultCrd fills singular, listKind, conversion and storedVersions', () => {
  const o = defaultCrd(crd());
  const spec = o['spec'] as Record<string, Record<string, unknown>>;
  assert.equal(spec['names']?.['singular'], 'widget');
  assert.equal(spec['names']?.['listKind'], 'WidgetList');
  assert.deepEqual(spec['conversion'], { strategy: 'None' });
  assert.deepEqual(o['status'], { storedVersions: ['v1'] });
  assert.equal(storageVersionOf(o), 'v1');
  const keep = defaultCrd(crd({ spec: { names: { plural: 'widgets', kind: 'Widget', singular: 'wdg', listKind: 'Widgets' } } }));
  assert.equal((keep['spec'] as Record<string, Record<string, unknown>>)['names']?.['singular'], 'wdg');
});

test('a well-formed CRD is valid', () => {
  assert.deepEqual(fields(crd()), []);
});

test('name must be plural.group; group needs a dot; scope is an enum', () => {
  assert.deepEqual(fields(crd({ name: 'gadgets.example.com' })), ['metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group']);
  assert.deepEqual(fields(crd({ name: 'widgets.example', spec: { group: 'example' } })), ['spec.group: Invalid value: "example": should be a domain with at least one dot']);
  assert.deepEqual(fields(crd({ spec: { scope: 'Global' } })), ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"']);
  assert.deepEqual(fields(crd({ spec: { scope: '' } })), ['spec.scope: Required value']);
});

test('names follow the DNS-1035 rules; kind may be mixed case', () => {
  const out = fields(crd({ name: 'Widgets.example.com', spec: { names: { plural: 'Widgets', kind: 'Wid_get', shortNames: ['W'] } } }));
  assert.ok(out.some((l) => l.startsWith('spec.names.plural: Invalid value: "Widgets": a DNS-1035 label must consist of lower case')), out.join('\n'));
  assert.ok(out.some((l) => l.startsWith('spec.names.kind: Invalid value: "Wid_get": may have mixed case, but should otherwise match: a DNS-1035 label')));
  assert.ok(out.some((l) => l.startsWith('spec.names.shortNames[0]: Invalid value: "W"')));
  assert.ok(out.some((l) => l.startsWith('metadata.name: Invalid value: "Widgets.example.com": a lowercase RFC 1123 subdomain')));
  assert.deepEqual(fields(crd({ spec: { names: { plural: 'widgets', kind: 'Widget', listKind: 'Widget' } } })), [
    'spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same',
  ]);
  // With no kind, neither singular nor listKind can be defaulted.
  assert.deepEqual(fields(crd({ spec: { names: { plural: 'widgets' } } })), [
    'spec.names.singular: Required value',
    'spec.names.kind: Required value',
    'spec.names.listKind: Required value',
  ]);
});

test('exactly one storage version, unique version names', () => {
  const two = crd();
  const spec = two['spec'] as Record<string, unknown[]>;
  spec['versions'] = [{ ...(spec['versions']?.[0] as object), name: 'v1' }, { ...(spec['versions']?.[0] as object), name: 'v2' }];
  const out = fields(two);
  assert.equal(out.length, 1);
  assert.match(out[0] ?? '', /^spec\.versions: Invalid value: \[\]apiextensions\.CustomResourceDefinitionVersion\{.*\}: must have exactly one version marked as storage version$/);
  assert.deepEqual(fields(crd({ spec: { versions: [] } })), [
    'spec.versions: Required value: must have exactly one version marked as storage version',
    'status.storedVersions: Invalid value: []string{}: must have at least one stored version',
  ]);
  const dup = crd();
  const dspec = dup['spec'] as Record<string, unknown[]>;
  dspec['versions'] = [dspec['versions']?.[0], { ...(dspec['versions']?.[0] as object), storage: false }];
  assert.ok(fields(dup).some((l) => l.endsWith('must contain unique version names')));
  assert.deepEqual(fields(crd({ version: { name: 'V1' } })).map((l) => l.slice(0, 40)), ['spec.versions[0].name: Invalid value: "V']);
});

const root = 'spec.versions[0].schema.openAPIV3Schema';

test('structural schema: types, additionalProperties with properties, metadata constraints', () => {
  const schema = {
    type: 'object',
    properties: {
      metadata: { type: 'object', properties: { labels: { type: 'object' } } },
      spec: {
        type: 'object',
        properties: {
          untyped: {},
          list: { type: 'array' },
          both: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
          weird: { type: 'float' },
          ios: { 'x-kubernetes-int-or-string': true },
          any: { 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    },
  };
  // Structural errors come first, sorted by text; the OpenAPI rules follow.
  assert.deepEqual(fields(crd({ version: { schema: { openAPIV3Schema: schema } } })), [
    `${root}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    `${root}.properties[spec].properties[list].items: Required value: must be specified`,
    `${root}.properties[spec].properties[untyped].type: Required value: must not be empty for specified object fields`,
    `${root}.properties[spec].properties[both].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    `${root}.properties[spec].properties[weird].type: Unsupported value: "float": supported values: "array", "boolean", "integer", "number", "object", "string"`,
  ]);
});

test('structural schema: nested value validations may not change the structure; int-or-string patterns are allowed', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          bad: { type: 'string', anyOf: [{ type: 'string', description: 'x' }, { maxLength: 3 }] },
          list: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] },
        },
      },
      metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } },
    },
  };
  assert.deepEqual(fields(crd({ version: { schema: { openAPIV3Schema: schema } } })), [
    `${root}.properties[spec].properties[bad].anyOf[0].description: Forbidden: must be empty to be structural`,
    `${root}.properties[spec].properties[bad].anyOf[0].type: Forbidden: must be empty to be structural`,
    `${root}.properties[spec].properties[list].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
  ]);
});

test('defaults are forbidden in top-level metadata', () => {
  const schema = { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', default: 'x' } } } } };
  assert.deepEqual(fields(crd({ version: { schema: { openAPIV3Schema: schema } } })), [
    `${root}.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata`,
  ]);
});

test('schema required, object at the root, and other forbidden keywords', () => {
  assert.deepEqual(fields(crd({ version: { schema: undefined } })), [`${root}: Required value: schemas are required`]);
  assert.deepEqual(fields(crd({ version: { schema: { openAPIV3Schema: { type: 'string' } } } })), [
    `${root}.type: Invalid value: "string": only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
    `${root}.type: Invalid value: "string": must be object at the root`,
  ]);
  const out = fields(crd({ version: { schema: { openAPIV3Schema: { type: 'object', properties: { a: { type: 'array', uniqueItems: true, items: { type: 'string' } }, b: { $ref: '#/x' } } } } } }));
  assert.ok(out.includes(`${root}.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`), out.join('\n'));
  assert.ok(out.includes(`${root}.properties[b].$ref: Forbidden: $ref is not supported`));
});

test('with the status subresource the root schema may only be a plain object', () => {
  const out = fields(crd({ version: { schema: { openAPIV3Schema: { type: 'object', nullable: false, anyOf: [{ required: ['spec'] }] } } } }));
  assert.equal(out.length, 1);
  assert.match(out[0] ?? '', /^spec\.versions\[0\]\.schema\.openAPIV3Schema: Invalid value: .*: only \[Description Type .* XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/);
  assert.deepEqual(fields(crd({ version: { subresources: {}, schema: { openAPIV3Schema: { type: 'object', anyOf: [{ required: ['spec'] }] } } } })), []);
});

test('defaults must validate against their schema', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: 'big' } } } } };
  assert.deepEqual(fields(crd({ version: { schema: { openAPIV3Schema: schema } } })), [
    `${root}.properties[spec].properties[size].default: Invalid value: "string":  in body must be of type integer: "string"`,
  ]);
});

test('printer columns: required fields, supported types, simple JSONPath', () => {
  const out = fields(
    crd({
      version: {
        additionalPrinterColumns: [
          { name: 'Size', type: 'int', jsonPath: 'spec.size' },
          { name: '', type: 'string', jsonPath: '' },
          { name: 'Age', type: 'date', format: 'weird', jsonPath: '.metadata.creationTimestamp' },
        ],
      },
    }),
  );
  assert.deepEqual(out, [
    'spec.versions[0].additionalPrinterColumns[0].type: Unsupported value: "int": supported values: "boolean", "date", "integer", "number", "string"',
    'spec.versions[0].additionalPrinterColumns[0].jsonPath: Invalid value: "spec.size": must be a simple json path starting with .',
    'spec.versions[0].additionalPrinterColumns[1].name: Required value',
    'spec.versions[0].additionalPrinterColumns[1].jsonPath: Required value',
    'spec.versions[0].additionalPrinterColumns[2].format: Unsupported value: "weird": supported values: "byte", "date", "date-time", "double", "float", "int32", "int64", "password"',
  ]);
});

test('scale subresource paths', () => {
  const out = fields(crd({ version: { subresources: { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: '' } } } }));
  assert.deepEqual(out, [
    'spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
    'spec.versions[0].subresources.scale.statusReplicasPath: Required value',
  ]);
});

test('prepareCrdForCreate resets status to the storage versions', () => {
  const o = defaultCrd(crd());
  o['status'] = { conditions: [{ type: 'Established', status: 'True' }], storedVersions: ['v0'] };
  assert.deepEqual(prepareCrdForCreate(o)['status'], { storedVersions: ['v1'] });
});

test('updates: group and plural are immutable; scope too once established', () => {
  const old = defaultCrd(crd());
  old['status'] = { storedVersions: ['v1'], conditions: [{ type: 'Established', status: 'True' }] };
  const changed = crd({ name: 'gizmos.example.com', spec: { names: { plural: 'gizmos', kind: 'Widget' }, scope: 'Cluster' } });
  assert.deepEqual(fields(changed, old), [
    'spec.names.plural: Invalid value: "gizmos": field is immutable',
    'spec.scope: Invalid value: "Cluster": field is immutable',
  ]);
});

test('storedVersions must include the storage version and only known versions', () => {
  const o = defaultCrd(crd());
  o['status'] = { storedVersions: ['v0'] };
  const out = validateCrd(o).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);
  assert.equal(out.length, 2);
  assert.match(out[0] ?? '', /^status\.storedVersions: Invalid value: .*: must have the storage version v1$/);
  assert.equal(out[1], 'status.storedVersions[0]: Invalid value: "v0": must appear in spec.versions');
});
