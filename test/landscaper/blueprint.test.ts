// Blueprint loading (inline filesystems), parsing/defaulting, JSON-schema validation with
// local:// and blueprint:// references, and import construction with defaults and error cases.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  BlueprintError,
  BlueprintSchemaError,
  ImportValidationError,
  constructImports,
  inlineFilesystemFiles,
  loadInlineBlueprint,
  parseBlueprint,
  staticSubinstallations,
} from '../../src/landscaper/blueprint/index.ts';
import type { InlineFilesystem } from '../../src/landscaper/api/index.ts';

const target = (name: string, type = 'landscaper.gardener.cloud/kubernetes-cluster') => ({
  apiVersion: 'landscaper.gardener.cloud/v1alpha1',
  kind: 'Target',
  metadata: { name, namespace: 'default' },
  spec: { type, config: { kubeconfig: 'apiVersion: v1' } },
});

// Modelled on upstream's integration testdata inline/installation-inline-blueprint.
const inlineFs: InlineFilesystem = {
  'blueprint.yaml': `
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
localTypes:
  port:
    type: integer
    minimum: 1
    maximum: 65535
imports:
  - name: cluster
    targetType: kubernetes-cluster
  - name: clusters
    type: targetList
    targetType: landscaper.gardener.cloud/kubernetes-cluster
  - name: config
    schema:
      $ref: "blueprint://schemas/config.json"
  - name: port
    required: false
    default:
      value: 8080
    schema:
      $ref: "local://port"
  - name: tls
    required: false
    schema:
      type: boolean
    imports:
      - name: certificate
        schema:
          type: string
exports:
  - name: url
    schema: { type: string }
deployExecutions:
  - name: default
    type: GoTemplate
    file: /templates/items.yaml
subinstallations:
  - file: /subinst/a.yaml
  - name: b
    blueprint:
      ref: cd://componentReferences/b/resources/blueprint
`,
  schemas: {
    'config.json': JSON.stringify({
      type: 'object',
      required: ['name'],
      properties: { name: { $ref: '#/definitions/nonEmpty' }, replicas: { type: 'integer' } },
      definitions: { nonEmpty: { type: 'string', minLength: 1 } },
    }),
  },
  templates: { 'items.yaml': 'deployItems: []\n' },
  'subinst/a.yaml': 'name: a\nblueprint:\n  filesystem:\n    blueprint.yaml: "imports: []"\n',
};

describe('inline blueprint filesystem', () => {
  it('flattens nested maps into directories and keeps slash keys', () => {
    const files = inlineFilesystemFiles(inlineFs);
    assert.deepEqual(Object.keys(files).sort(), ['blueprint.yaml', 'schemas/config.json', 'subinst/a.yaml', 'templates/items.yaml']);
    const loaded = loadInlineBlueprint(inlineFs);
    assert.deepEqual(loaded.fs.readDir('templates').map((e) => e.name), ['items.yaml']);
  });

  it('fails clearly without blueprint.yaml', () => {
    assert.throws(() => loadInlineBlueprint({ 'other.yaml': 'x: 1' }), (e: unknown) => e instanceof BlueprintError && /no blueprint\.yaml/.test(e.message));
  });

  it('reads static subinstallations from files and inline', () => {
    const subs = staticSubinstallations(loadInlineBlueprint(inlineFs));
    assert.deepEqual(subs.map((s) => s.name), ['a', 'b']);
    assert.equal(subs[1]!.blueprint.ref, 'cd://componentReferences/b/resources/blueprint');
  });
});

describe('parseBlueprint', () => {
  const bp = loadInlineBlueprint(inlineFs).blueprint;

  it('defaults import types, required and prefixes short target types', () => {
    const byName = new Map(bp.imports!.map((i) => [i.name, i]));
    assert.equal(byName.get('cluster')!.type, 'target');
    assert.equal(byName.get('cluster')!.targetType, 'landscaper.gardener.cloud/kubernetes-cluster');
    assert.equal(byName.get('cluster')!.required, true);
    assert.equal(byName.get('config')!.type, 'data');
    assert.equal(byName.get('port')!.required, false);
    assert.deepEqual(byName.get('port')!.default, { value: 8080 });
    assert.equal(byName.get('tls')!.imports![0]!.name, 'certificate');
    assert.equal(bp.jsonSchemaVersion, 'https://json-schema.org/draft/2019-09/schema');
  });

  it('rejects duplicate imports, missing schemas, bad template types and executors without a template', () => {
    const cases: [string, RegExp][] = [
      ['imports:\n- name: a\n  schema: {}\n- name: a\n  schema: {}', /imports\[1\]\.name: Duplicate value: "a"/],
      ['imports:\n- name: a', /imports\[0\]: either schema or targetType/],
      ['imports:\n- name: a\n  type: targetList', /imports\[0\]\.targetType: Required value/],
      ['deployExecutions:\n- name: x\n  type: Jinja\n  template: ""', /deployExecutions\[0\]\.type: Unsupported value: "Jinja"/],
      ['exportExecutions:\n- name: x\n  type: GoTemplate', /exportExecutions\[0\]: either file or template/],
      ['imports:\n- name: a\n  schema: {}\n  imports:\n  - name: b\n    schema: {}', /conditional imports are only allowed for optional imports/],
      ['kind: Installation', /kind must be "Blueprint"/],
      ['imports: [', /blueprint\.yaml: yaml: line/],
    ];
    for (const [text, re] of cases) {
      assert.throws(() => parseBlueprint(text), (e: unknown) => e instanceof BlueprintError && re.test(e.message), text);
    }
  });
});

describe('constructImports', () => {
  const loaded = loadInlineBlueprint(inlineFs);
  const valid = { cluster: target('c1'), clusters: [target('a'), target('b')], config: { name: 'app', replicas: 3 } };
  const construct = (provided: Record<string, unknown>) => constructImports(loaded.blueprint.imports, provided as never, loaded.validator);

  it('passes valid imports through and applies defaults of optional imports', () => {
    const imports = construct(valid);
    assert.equal(imports['port'], 8080);
    assert.deepEqual(imports['config'], { name: 'app', replicas: 3 });
    assert.equal(imports['tls'], undefined);
    assert.ok(!('certificate' in imports));
  });

  it('names a missing required import', () => {
    const { config: _c, ...rest } = valid;
    assert.throws(() => construct(rest), (e: unknown) =>
      e instanceof ImportValidationError && e.reason === 'ImportNotFound' && e.importName === 'config' &&
      e.message === 'blueprint defines import "config" of type data, which is not satisfied');
  });

  it('validates data against blueprint:// and local:// schemas', () => {
    assert.throws(() => construct({ ...valid, config: { name: '', replicas: 'three' } }), (e: unknown) =>
      e instanceof ImportValidationError && e.reason === 'SchemaValidationFailed' && e.importName === 'config' &&
      /imports\.config: imported datatype does not have the expected schema/.test(e.message) &&
      /\/name: must NOT have fewer than 1 characters/.test(e.message) && /\/replicas: must be integer/.test(e.message));
    assert.throws(() => construct({ ...valid, port: 70000 }), (e: unknown) =>
      e instanceof ImportValidationError && e.importName === 'port' && /\/: must be <= 65535/.test(e.message));
  });

  it('checks target types of targets and target lists', () => {
    assert.throws(() => construct({ ...valid, cluster: target('c', 'landscaper.gardener.cloud/other') }), (e: unknown) =>
      e instanceof ImportValidationError && e.reason === 'InvalidTargetType' &&
      /imports\.cluster: imported target type is landscaper.gardener.cloud\/other but expected landscaper.gardener.cloud\/kubernetes-cluster/.test(e.message));
    assert.throws(() => construct({ ...valid, clusters: [target('a'), { spec: {} }] }), (e: unknown) =>
      e instanceof ImportValidationError && /element at position 1 of the imported targetlist/.test(e.message));
  });

  it('requires conditional imports only when their parent is satisfied', () => {
    assert.throws(() => construct({ ...valid, tls: true }), (e: unknown) => e instanceof ImportValidationError && e.importName === 'certificate');
    assert.equal(construct({ ...valid, tls: true, certificate: 'PEM' })['certificate'], 'PEM');
  });

  it('reports unresolvable schema references as schema errors', () => {
    const bad = loadInlineBlueprint({ 'blueprint.yaml': 'imports:\n- name: a\n  schema:\n    $ref: "local://missing"\n- name: b\n  schema:\n    $ref: "cd://resources/x"' });
    assert.throws(() => constructImports(bad.blueprint.imports, { a: 1, b: 1 }, bad.validator), (e: unknown) =>
      e instanceof BlueprintSchemaError && /no local type "missing"/.test(e.message));
    assert.throws(() => constructImports(bad.blueprint.imports!.slice(1), { b: 1 }, bad.validator), (e: unknown) =>
      e instanceof BlueprintSchemaError && /cd:\/\/ references need a component descriptor/.test(e.message));
  });
});
