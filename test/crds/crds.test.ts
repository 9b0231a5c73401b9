// Bosun's own CRDs (crds/*.yaml): each manifest is a well-formed, structural apiextensions.k8s.io/v1 CRD, and
// upstream-style objects (test/crds/samples/*.yaml) validate against it with no unknown field, as a Strict
// `kubectl apply` would require. The schema checks here are deliberately self-contained (a small structural-schema
// checker and a value validator) so the manifests are tested independently of the API server's CRD machinery.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { crdGroup, loadBosunCrds, CRD_DIR } from '../../src/crds/index.ts';
import { renderManifests } from '../../src/cli/commands/manifests.ts';
import { bosunFamilies, familyCrds } from '../../src/cli/families.ts';
import type { Family } from '../../src/runtime/family.ts';
import type { KubeObject, StatusCause } from '../../src/apimachinery/object.ts';

type Schema = Record<string, unknown>;
type Json = Record<string, unknown>;

const SAMPLES_DIR = fileURLToPath(new URL('./samples/', import.meta.url));

// ---------------------------------------------------------------------------------------------------------------
// Expectations: what each CRD must be called and print, taken from the upstream manifests.

interface Expected {
  kind: string;
  plural: string;
  /** Default: the kind in lower case. */
  singular?: string;
  shortNames?: string[];
  columns: string[];
  /** False where upstream has none and a status field that is not a subresource (LsHealthCheck). */
  statusSubresource?: false;
}

const EXPECTED: Record<string, Expected> = {
  'installations.landscaper.gardener.cloud': {
    kind: 'Installation',
    plural: 'installations',
    shortNames: ['inst'],
    columns: ['Phase', 'Execution', 'Age'],
  },
  'executions.landscaper.gardener.cloud': {
    kind: 'Execution',
    plural: 'executions',
    shortNames: ['exec'],
    columns: ['Phase', 'ExportRef', 'Age'],
  },
  'deployitems.landscaper.gardener.cloud': {
    kind: 'DeployItem',
    plural: 'deployitems',
    shortNames: ['di'],
    columns: ['Type', 'Phase', 'ExportRef', 'Age'],
  },
  'targets.landscaper.gardener.cloud': {
    kind: 'Target',
    plural: 'targets',
    shortNames: ['tgt', 'tg'],
    columns: ['Type', 'Context', 'Key', 'Idx', 'TMKey', 'Age'],
  },
  'dataobjects.landscaper.gardener.cloud': {
    kind: 'DataObject',
    plural: 'dataobjects',
    shortNames: ['dobj', 'do'],
    columns: ['Context', 'Key', 'Age'],
  },
  'contexts.landscaper.gardener.cloud': {
    kind: 'Context',
    plural: 'contexts',
    shortNames: ['ctx'],
    columns: ['Age'],
  },
  'componentversionoverwrites.landscaper.gardener.cloud': {
    kind: 'ComponentVersionOverwrites',
    plural: 'componentversionoverwrites',
    singular: 'componentversionoverwrite',
    shortNames: ['compveroverwrite', 'cvo'],
    columns: ['Age'],
  },
  'criticalproblems.landscaper.gardener.cloud': { kind: 'CriticalProblems', plural: 'criticalproblems', shortNames: ['cps'], columns: ['Age'] },
  'lshealthchecks.landscaper.gardener.cloud': {
    kind: 'LsHealthCheck',
    plural: 'lshealthchecks',
    shortNames: ['lshc'],
    columns: ['Status', 'LastUpdateTime'],
    statusSubresource: false,
  },
  'syncobjects.landscaper.gardener.cloud': { kind: 'SyncObject', plural: 'syncobjects', shortNames: ['so'], columns: ['PodName', 'Kind', 'Name'] },
  'targetsyncs.landscaper.gardener.cloud': { kind: 'TargetSync', plural: 'targetsyncs', shortNames: ['tgs'], columns: ['Age'] },
  'repositories.terrakojo.io': {
    kind: 'Repository',
    plural: 'repositories',
    columns: ['Owner', 'Repo', 'Type', 'Default', 'Synced', 'LastHead'],
  },
  'branches.terrakojo.io': { kind: 'Branch', plural: 'branches', columns: ['Owner', 'Repo', 'Ref', 'SHA', 'PR'] },
  'workflows.terrakojo.io': { kind: 'Workflow', plural: 'workflows', columns: ['Phase', 'Template', 'Branch', 'SHA'] },
  'workflowtemplates.terrakojo.io': {
    kind: 'WorkflowTemplate',
    plural: 'workflowtemplates',
    columns: ['DisplayName', 'Paths', 'Unit'],
  },
  'disruptions.chaos.datadoghq.com': {
    kind: 'Disruption',
    plural: 'disruptions',
    shortNames: ['dis'],
    columns: ['Injection', 'Desired', 'Injected', 'Duration', 'Age'],
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Small accessors.

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function obj(v: unknown, what: string): Json {
  assert.ok(isObject(v), `${what} is not an object`);
  return v;
}

function str(v: unknown, what: string): string {
  assert.equal(typeof v, 'string', `${what} is not a string`);
  return v as string;
}

function spec(crd: KubeObject): Json {
  return obj(crd['spec'], `${crd.metadata.name}: spec`);
}

function versions(crd: KubeObject): Json[] {
  const vs = spec(crd)['versions'];
  assert.ok(Array.isArray(vs), `${crd.metadata.name}: spec.versions is not a list`);
  return vs.map((v, i) => obj(v, `${crd.metadata.name}: versions[${i}]`));
}

function storageVersion(crd: KubeObject): Json {
  const stored = versions(crd).filter((v) => v['storage'] === true);
  assert.equal(stored.length, 1, `${crd.metadata.name}: expected one storage version`);
  return stored[0]!;
}

function schemaOf(version: Json): Schema {
  return obj(obj(version['schema'], 'schema')['openAPIV3Schema'], 'openAPIV3Schema');
}

function readYamlDocs(path: string): unknown[] {
  return Array.from(parseAllDocuments(readFileSync(path, 'utf8')))
    .filter((d) => d.contents !== null)
    .map((d) => {
      assert.equal(d.errors.length, 0, `${path}: ${d.errors[0]?.message ?? ''}`);
      return d.toJS() as unknown;
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Structural-schema check, after apiextensions-apiserver's rules
// (https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#specifying-a-structural-schema).

const ALLOWED_KEYS = new Set([
  'type', 'format', 'description', 'title', 'default', 'nullable', 'enum', 'pattern',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
  'required', 'properties', 'additionalProperties', 'items', 'allOf', 'anyOf', 'oneOf', 'not', 'example',
  'externalDocs',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-int-or-string', 'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'x-kubernetes-validations',
]);
const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);
// Inside anyOf/allOf/oneOf/not only value validations may appear (no type, no description, no defaults...).
const FORBIDDEN_IN_JUNCTORS = [
  'type', 'description', 'default', 'nullable', 'additionalProperties', 'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string', 'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'x-kubernetes-validations',
];

/** Every violation of the structural-schema rules in `schema`, as `path: message` strings. */
function structuralErrors(schema: Schema): string[] {
  const errors: string[] = [];
  if (schema['type'] !== 'object') errors.push('<root>: type must be object');
  for (const key of ['apiVersion', 'kind']) {
    const prop = isObject(schema['properties']) ? schema['properties'][key] : undefined;
    if (prop !== undefined && (!isObject(prop) || prop['type'] !== 'string')) {
      errors.push(`<root>.${key}: must be type string`);
    }
  }
  const metadata = isObject(schema['properties']) ? schema['properties']['metadata'] : undefined;
  if (metadata !== undefined) {
    const m = obj(metadata, 'metadata schema');
    const extra = Object.keys(m).filter((k) => k !== 'type' && k !== 'description' && k !== 'properties');
    if (m['type'] !== 'object' || extra.length > 0) errors.push('<root>.metadata: only `type: object` is allowed');
    if (isObject(m['properties'])) {
      const keys = Object.keys(m['properties']).filter((k) => k !== 'name' && k !== 'generateName');
      if (keys.length > 0) errors.push(`<root>.metadata: only name and generateName may be restricted`);
    }
  }
  checkNode(schema, '<root>', errors, false);
  return errors;
}

function checkNode(node: Schema, path: string, errors: string[], inJunctor: boolean): void {
  for (const key of Object.keys(node)) {
    if (!ALLOWED_KEYS.has(key)) errors.push(`${path}: unsupported keyword ${key}`);
  }
  const type = node['type'];
  const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  if (inJunctor) {
    for (const key of FORBIDDEN_IN_JUNCTORS) {
      if (key in node) errors.push(`${path}: ${key} is not allowed inside anyOf/allOf/oneOf/not`);
    }
  } else if (type === undefined) {
    if (!preserve && !intOrString) errors.push(`${path}: type is required (or x-kubernetes-preserve-unknown-fields)`);
  } else if (typeof type !== 'string' || !TYPES.has(type)) {
    errors.push(`${path}: invalid type ${JSON.stringify(type)}`);
  }
  if (intOrString) {
    if (type !== undefined) errors.push(`${path}: x-kubernetes-int-or-string must not set type`);
    const anyOf = node['anyOf'];
    const ok =
      anyOf === undefined ||
      (Array.isArray(anyOf) &&
        anyOf.length === 2 &&
        isObject(anyOf[0]) && anyOf[0]['type'] === 'integer' &&
        isObject(anyOf[1]) && anyOf[1]['type'] === 'string');
    if (!ok) errors.push(`${path}: x-kubernetes-int-or-string needs anyOf [integer, string]`);
  }
  if (node['x-kubernetes-embedded-resource'] === true) {
    if (type !== 'object') errors.push(`${path}: x-kubernetes-embedded-resource needs type object`);
    if (!preserve && !isObject(node['properties'])) {
      errors.push(`${path}: x-kubernetes-embedded-resource needs properties or x-kubernetes-preserve-unknown-fields`);
    }
  }
  if ('properties' in node && 'additionalProperties' in node) {
    errors.push(`${path}: properties and additionalProperties are mutually exclusive`);
  }
  if (('properties' in node || 'additionalProperties' in node) && type !== undefined && type !== 'object') {
    errors.push(`${path}: properties need type object`);
  }
  if ('items' in node && type !== undefined && type !== 'array') errors.push(`${path}: items need type array`);
  if (type === 'array' && !inJunctor && !isObject(node['items'])) errors.push(`${path}: array needs one items schema`);
  if ('required' in node) {
    const req = node['required'];
    if (!Array.isArray(req) || !req.every((r) => typeof r === 'string')) errors.push(`${path}: bad required`);
  }
  if ('enum' in node && !Array.isArray(node['enum'])) errors.push(`${path}: enum must be a list`);
  if (typeof node['pattern'] === 'string') {
    try {
      new RegExp(node['pattern'], 'u');
    } catch {
      errors.push(`${path}: pattern does not compile`);
    }
  }
  const listType = node['x-kubernetes-list-type'];
  if (listType !== undefined) {
    if (type !== 'array') errors.push(`${path}: x-kubernetes-list-type needs type array`);
    if (!['atomic', 'set', 'map'].includes(String(listType))) errors.push(`${path}: bad x-kubernetes-list-type`);
    const keys = node['x-kubernetes-list-map-keys'];
    if (listType === 'map') {
      const items = isObject(node['items']) ? node['items'] : {};
      const props = isObject(items['properties']) ? items['properties'] : {};
      const required = Array.isArray(items['required']) ? items['required'] : [];
      if (!Array.isArray(keys) || keys.length === 0) errors.push(`${path}: list-type map needs list-map-keys`);
      else {
        for (const k of keys) {
          const p = props[String(k)];
          if (!isObject(p) || !['string', 'integer', 'number', 'boolean'].includes(String(p['type']))) {
            errors.push(`${path}: map key ${String(k)} must be a scalar property`);
          } else if (!required.includes(k) && !('default' in p)) {
            errors.push(`${path}: map key ${String(k)} must be required or defaulted`);
          }
        }
      }
    } else if (keys !== undefined) errors.push(`${path}: list-map-keys only with list-type map`);
  }
  const mapType = node['x-kubernetes-map-type'];
  if (mapType !== undefined && (type !== 'object' || !['atomic', 'granular'].includes(String(mapType)))) {
    errors.push(`${path}: bad x-kubernetes-map-type`);
  }
  const rules = node['x-kubernetes-validations'];
  if (rules !== undefined) {
    if (!Array.isArray(rules) || !rules.every((r) => isObject(r) && typeof r['rule'] === 'string')) {
      errors.push(`${path}: x-kubernetes-validations needs a list of {rule}`);
    }
  }

  if (isObject(node['properties'])) {
    for (const [name, child] of Object.entries(node['properties'])) {
      if (!isObject(child)) errors.push(`${path}.${name}: not a schema`);
      else checkNode(child, `${path}.${name}`, errors, inJunctor);
    }
  }
  const additional = node['additionalProperties'];
  if (additional !== undefined && typeof additional !== 'boolean') {
    if (!isObject(additional)) errors.push(`${path}[*]: not a schema`);
    else checkNode(additional, `${path}[*]`, errors, inJunctor);
  } else if (additional === false) {
    errors.push(`${path}: additionalProperties: false is not allowed`);
  }
  if (node['items'] !== undefined) {
    if (!isObject(node['items'])) errors.push(`${path}[]: items must be a single schema`);
    else checkNode(node['items'], `${path}[]`, errors, inJunctor);
  }
  for (const junctor of ['allOf', 'anyOf', 'oneOf']) {
    const list = node[junctor];
    if (list === undefined) continue;
    // The one exception to "no type inside junctors": int-or-string's anyOf [integer, string], checked above.
    if (junctor === 'anyOf' && intOrString) continue;
    if (!Array.isArray(list)) errors.push(`${path}: ${junctor} must be a list`);
    else list.forEach((s, i) => checkNode(obj(s, `${path}.${junctor}[${i}]`), `${path}.${junctor}[${i}]`, errors, true));
  }
  if (isObject(node['not'])) checkNode(node['not'], `${path}.not`, errors, true);
}

// ---------------------------------------------------------------------------------------------------------------
// Value validation: what the API server checks under fieldValidation=Strict (unknown fields are errors), minus CEL.

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Every field of `value` that `schema` rejects, Strict unknown-field errors included. */
function validate(schema: Schema, value: unknown, path = ''): StatusCause[] {
  const causes: StatusCause[] = [];
  const at = (p: string): string => (path === '' ? p : `${path}.${p}`);
  if (value === null) {
    if (schema['nullable'] !== true && schema['x-kubernetes-preserve-unknown-fields'] !== true) {
      causes.push({ reason: 'FieldValueRequired', field: path, message: 'must not be null' });
    }
    return causes;
  }
  if (schema['x-kubernetes-int-or-string'] === true) {
    if (typeof value !== 'string' && !Number.isInteger(value)) {
      causes.push({ reason: 'FieldValueTypeInvalid', field: path, message: 'must be an integer or a string' });
    }
    return causes;
  }
  const type = schema['type'];
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const typeOk =
    type === undefined ||
    (type === 'object' && isObject(value)) ||
    (type === 'array' && Array.isArray(value)) ||
    (type === 'string' && typeof value === 'string') ||
    (type === 'integer' && Number.isInteger(value)) ||
    (type === 'number' && typeof value === 'number') ||
    (type === 'boolean' && typeof value === 'boolean');
  if (!typeOk) {
    causes.push({ reason: 'FieldValueTypeInvalid', field: path, message: `must be of type ${String(type)}` });
    return causes;
  }
  if (Array.isArray(schema['enum']) && !schema['enum'].some((e) => e === value)) {
    causes.push({ reason: 'FieldValueNotSupported', field: path, message: `unsupported value ${JSON.stringify(value)}` });
  }
  if (typeof value === 'string') {
    if (typeof schema['pattern'] === 'string' && !new RegExp(schema['pattern'], 'u').test(value)) {
      causes.push({ reason: 'FieldValueInvalid', field: path, message: `must match ${schema['pattern']}` });
    }
    if (typeof schema['maxLength'] === 'number' && value.length > schema['maxLength']) {
      causes.push({ reason: 'FieldValueTooLong', field: path, message: 'too long' });
    }
    if (typeof schema['minLength'] === 'number' && value.length < schema['minLength']) {
      causes.push({ reason: 'FieldValueInvalid', field: path, message: 'too short' });
    }
    if (schema['format'] === 'date-time' && !DATE_TIME.test(value)) {
      causes.push({ reason: 'FieldValueInvalid', field: path, message: 'must be an RFC 3339 date-time' });
    }
    if (schema['format'] === 'byte' && !BASE64.test(value)) {
      causes.push({ reason: 'FieldValueInvalid', field: path, message: 'must be base64' });
    }
  }
  if (typeof value === 'number') {
    if (typeof schema['minimum'] === 'number' && value < schema['minimum']) {
      causes.push({ reason: 'FieldValueInvalid', field: path, message: `must be >= ${schema['minimum']}` });
    }
    if (typeof schema['maximum'] === 'number' && value > schema['maximum']) {
      causes.push({ reason: 'FieldValueInvalid', field: path, message: `must be <= ${schema['maximum']}` });
    }
  }
  if (Array.isArray(value) && isObject(schema['items'])) {
    const items = schema['items'];
    value.forEach((item, i) => causes.push(...validate(items, item, `${path}[${i}]`)));
  }
  if (isObject(value)) {
    if (schema['x-kubernetes-embedded-resource'] === true) {
      for (const key of ['apiVersion', 'kind']) {
        if (typeof value[key] !== 'string' || value[key] === '') {
          causes.push({ reason: 'FieldValueRequired', field: at(key), message: 'embedded resource needs it' });
        }
      }
    }
    const props = isObject(schema['properties']) ? schema['properties'] : undefined;
    const additional = isObject(schema['additionalProperties']) ? schema['additionalProperties'] : undefined;
    if (Array.isArray(schema['required'])) {
      for (const key of schema['required']) {
        if (!(String(key) in value)) {
          causes.push({ reason: 'FieldValueRequired', field: at(String(key)), message: 'Required value' });
        }
      }
    }
    for (const [key, child] of Object.entries(value)) {
      const childSchema = props?.[key] ?? additional;
      if (isObject(childSchema)) {
        if (path === '' && key === 'metadata') continue; // ObjectMeta is validated by the API server itself.
        causes.push(...validate(childSchema, child, at(key)));
      } else if (!preserve && !(schema['x-kubernetes-embedded-resource'] === true && ['apiVersion', 'kind', 'metadata'].includes(key))) {
        causes.push({ reason: 'FieldValueInvalid', field: at(key), message: `unknown field "${at(key)}"` });
      }
    }
  }
  return causes;
}

// ---------------------------------------------------------------------------------------------------------------
// Tests.

const crds = loadBosunCrds();
const byName = new Map(crds.map((c) => [c.metadata.name ?? '', c]));

function crdFor(o: Json): KubeObject | undefined {
  const apiVersion = str(o['apiVersion'], 'apiVersion');
  const kind = str(o['kind'], 'kind');
  const slash = apiVersion.indexOf('/');
  const group = apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  return crds.find((c) => {
    const s = spec(c);
    const names = obj(s['names'], 'names');
    return s['group'] === group && names['kind'] === kind && versions(c).some((v) => v['name'] === version);
  });
}

function schemaFor(o: Json): Schema {
  const crd = crdFor(o);
  assert.ok(crd, `no CRD for ${String(o['apiVersion'])} ${String(o['kind'])}`);
  const version = String(o['apiVersion']).split('/')[1];
  const v = versions(crd).find((x) => x['name'] === version);
  assert.ok(v);
  return schemaOf(v);
}

void test('every manifest file in crds/ holds one CRD and all the expected CRDs are there', () => {
  const files = readdirSync(CRD_DIR).filter((f) => f.endsWith('.yaml'));
  assert.equal(files.length, crds.length);
  for (const file of files) assert.equal(readYamlDocs(join(CRD_DIR, file)).length, 1, file);
  assert.deepEqual([...byName.keys()], Object.keys(EXPECTED).sort());
  // File names follow controller-gen's <group>_<plural>.yaml.
  for (const crd of crds) {
    const s = spec(crd);
    const names = obj(s['names'], 'names');
    assert.ok(files.includes(`${String(s['group'])}_${String(names['plural'])}.yaml`), crd.metadata.name);
  }
});

void test('loadBosunCrds returns sorted, independent copies', () => {
  const names = crds.map((c) => c.metadata.name ?? '');
  assert.deepEqual(names, [...names].sort());
  const again = loadBosunCrds();
  again[0]!.metadata.name = 'changed';
  assert.notEqual(loadBosunCrds()[0]!.metadata.name, 'changed');
});

for (const crd of crds) {
  const name = crd.metadata.name ?? '';
  void test(`${name}: names, scope, versions, status subresource and printer columns`, () => {
    const expected = EXPECTED[name];
    assert.ok(expected, `unexpected CRD ${name}`);
    assert.equal(crd.apiVersion, 'apiextensions.k8s.io/v1');
    assert.equal(crd.kind, 'CustomResourceDefinition');
    const s = spec(crd);
    const names = obj(s['names'], 'names');
    assert.equal(name, `${str(names['plural'], 'plural')}.${str(s['group'], 'group')}`);
    assert.equal(names['kind'], expected.kind);
    assert.equal(names['plural'], expected.plural);
    assert.equal(names['singular'], expected.singular ?? expected.kind.toLowerCase());
    assert.equal(names['listKind'], `${expected.kind}List`);
    assert.deepEqual(names['shortNames'], expected.shortNames);
    assert.equal(s['scope'], 'Namespaced');
    storageVersion(crd);
    for (const v of versions(crd)) {
      assert.equal(v['served'], true);
      if (expected.statusSubresource === false) assert.equal(v['subresources'], undefined, `${name}: no subresources`);
      else assert.deepEqual(obj(v['subresources'], `${name}: subresources`)['status'], {}, `${name}: status subresource`);
      const cols = v['additionalPrinterColumns'];
      assert.ok(Array.isArray(cols));
      assert.deepEqual(
        cols.map((c) => obj(c, 'column')['name']),
        expected.columns,
      );
      for (const c of cols) {
        const col = obj(c, 'column');
        assert.ok(['string', 'integer', 'number', 'boolean', 'date'].includes(String(col['type'])), `${name}: column type`);
        assert.match(str(col['jsonPath'], 'jsonPath'), /^\./);
      }
    }
  });

  void test(`${name}: openAPIV3Schema is structural`, () => {
    for (const v of versions(crd)) assert.deepEqual(structuralErrors(schemaOf(v)), []);
  });
}

void test('the manifests split into the API groups of the families that will own them', () => {
  const groups: Record<string, string[]> = {
    'landscaper.gardener.cloud': [
      'componentversionoverwrites', 'contexts', 'criticalproblems', 'dataobjects', 'deployitems', 'executions', 'installations', 'lshealthchecks', 'syncobjects',
      'targets', 'targetsyncs',
    ].map(
      (p) => `${p}.landscaper.gardener.cloud`,
    ),
    'terrakojo.io': ['branches', 'repositories', 'workflows', 'workflowtemplates'].map((p) => `${p}.terrakojo.io`),
    'chaos.datadoghq.com': ['disruptions.chaos.datadoghq.com'],
  };
  for (const [group, expected] of Object.entries(groups)) {
    assert.deepEqual(
      crds.filter((c) => crdGroup(c) === group).map((c) => c.metadata.name),
      expected,
      group,
    );
  }
});

void test("bosun manifests prints the families' CRDs as one YAML stream that parses back to the manifests", () => {
  const all = renderManifests(bosunFamilies);
  assert.ok(all.startsWith('---\n'));
  const docs = Array.from(parseAllDocuments(all)).map((d) => d.toJS() as unknown);
  assert.deepEqual(docs, familyCrds(bosunFamilies));
  assert.deepEqual(docs, crds.filter((c) => bosunFamilies.some((f) => f.crds.includes(c.metadata.name ?? ''))));
  // A family's CRDs alone, whichever group: here the chaos family's-to-be.
  const chaosFamily: Family = { name: 'chaos', groups: ['chaos.datadoghq.com'], crds: ['disruptions.chaos.datadoghq.com'], rbac: [], register: () => {} };
  const chaos = Array.from(parseAllDocuments(renderManifests([chaosFamily]))).map((d) => d.toJS() as unknown);
  assert.deepEqual(chaos, crds.filter((c) => crdGroup(c) === 'chaos.datadoghq.com'));
});

// Every sample object validates with no unknown field; together they cover every kind.
const sampleFiles = readdirSync(SAMPLES_DIR).filter((f) => f.endsWith('.yaml')).sort();
const covered = new Set<string>();
for (const file of sampleFiles) {
  readYamlDocs(join(SAMPLES_DIR, file)).forEach((doc, i) => {
    const o = obj(doc, `${file}[${i}]`);
    const meta = obj(o['metadata'], 'metadata');
    void test(`sample ${file}: ${String(o['kind'])} ${String(meta['name'])} validates strictly`, () => {
      const schema = schemaFor(o);
      assert.deepEqual(validate(schema, o), []);
      covered.add(crdFor(o)?.metadata.name ?? '');
    });
  });
}

void test('the samples cover every CRD', () => {
  assert.deepEqual([...covered].sort(), [...byName.keys()]);
});

// The validator really rejects what Strict rejects, so the sample tests above mean something.
void test('typos, wrong types and missing required fields are rejected', () => {
  const inst = (s: Json): Json => ({
    apiVersion: 'landscaper.gardener.cloud/v1alpha1',
    kind: 'Installation',
    metadata: { name: 'x' },
    spec: s,
  });
  const schema = schemaFor(inst({}));
  const fields = (o: Json): string[] => validate(schema, o).map((c) => `${c.field ?? ''}: ${c.reason ?? ''}`);
  assert.deepEqual(fields(inst({ blueprint: { inline: { filesystem: {} } }, imprts: {} })), [
    'spec.imprts: FieldValueInvalid',
  ]);
  assert.deepEqual(fields(inst({ blueprint: { ref: {} } })), ['spec.blueprint.ref.resourceName: FieldValueRequired']);
  assert.deepEqual(fields(inst({})), ['spec.blueprint: FieldValueRequired']);
  assert.deepEqual(
    fields(inst({ blueprint: { ref: { resourceName: 'a' } }, imports: { data: [{ name: 'n', dataRef: 3 }] } })),
    ['spec.imports.data[0].dataRef: FieldValueTypeInvalid'],
  );

  const di = schemaFor({ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'DeployItem' });
  const noKind = validate(di, { apiVersion: 'x', kind: 'DeployItem', metadata: {}, spec: { type: 't', config: { a: 1 } } });
  assert.deepEqual(
    noKind.map((c) => c.field),
    ['spec.config.apiVersion', 'spec.config.kind'],
  );

  const dis = schemaFor({ apiVersion: 'chaos.datadoghq.com/v1beta1', kind: 'Disruption' });
  const bad = validate(dis, {
    apiVersion: 'chaos.datadoghq.com/v1beta1',
    kind: 'Disruption',
    metadata: {},
    spec: { count: 1.5, level: 'cluster', network: { drop: 101, hosts: [{ host: 'a', protocl: 'tcp' }] } },
  });
  assert.deepEqual(
    bad.map((c) => c.field).sort(),
    ['spec.count', 'spec.level', 'spec.network.drop', 'spec.network.hosts[0].protocl'],
  );

  const branch = schemaFor({ apiVersion: 'terrakojo.io/v1alpha1', kind: 'Branch' });
  const badSha = validate(branch, {
    apiVersion: 'terrakojo.io/v1alpha1',
    kind: 'Branch',
    metadata: {},
    spec: { owner: 'o', repository: 'r', name: 'main', sha: 'HEAD', prNumber: 0 },
  });
  assert.deepEqual(badSha.map((c) => c.field).sort(), ['spec.prNumber', 'spec.sha']);
});

void test('the structural checker catches non-structural schemas', () => {
  const errors = structuralErrors({
    type: 'object',
    properties: {
      a: {},
      b: { type: 'object', properties: { c: { type: 'string' } }, additionalProperties: { type: 'string' } },
      d: { anyOf: [{ type: 'string' }] },
      e: { type: 'array' },
      f: { $ref: '#/x', type: 'string' },
    },
  });
  assert.deepEqual(errors, [
    '<root>.a: type is required (or x-kubernetes-preserve-unknown-fields)',
    '<root>.b: properties and additionalProperties are mutually exclusive',
    '<root>.d: type is required (or x-kubernetes-preserve-unknown-fields)',
    '<root>.d.anyOf[0]: type is not allowed inside anyOf/allOf/oneOf/not',
    '<root>.e: array needs one items schema',
    '<root>.f: unsupported keyword $ref',
  ]);
});
