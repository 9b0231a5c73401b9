// Blueprint executions on the Bosun template engine, modelled on upstream's template tests
// (pkg/landscaper/installations/executions/template, testdata/gotemplate): deploy, export,
// subinstallation and import executions, state, and the error cases a user will hit.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { InlineFilesystem } from '../../src/landscaper/api/index.ts';
import { ImportValidationError, loadInlineBlueprint, type LoadedBlueprint } from '../../src/landscaper/blueprint/index.ts';
import {
  DeployItemValidationError,
  ExportValidationError,
  InstallationTemplateValidationError,
  NoValueError,
  SpiffNotSupportedError,
  TemplateExecutionError,
  TemplateOutputError,
  applyImportExecutions,
  decodeTemplateState,
  encodeTemplateState,
  renderBlueprint,
  renderDeployExecutions,
  renderExportExecutions,
  renderSubinstallations,
  runImportExecutions,
  stateKey,
  stateSecretNameForKey,
  toDeployItemTemplates,
} from '../../src/landscaper/templating/index.ts';

const bp = (yaml: string, files: InlineFilesystem = {}): LoadedBlueprint => loadInlineBlueprint({ 'blueprint.yaml': yaml, ...files });

const deployBlueprint = (template: string, extra = ''): LoadedBlueprint => bp(`
deployExecutions:
  - name: one
    type: GoTemplate
    template: |
${template.split('\n').map((l) => '      ' + l).join('\n')}
${extra}`);

const target = (name: string) => ({
  apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Target',
  metadata: { name, namespace: 'ns' }, spec: { type: 'landscaper.gardener.cloud/kubernetes-cluster', config: {} },
});

function catchErr(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  assert.fail('expected an error');
}

describe('deploy executions', () => {
  it('renders deploy item specifications with all fields (template-01 style)', () => {
    const loaded = deployBlueprint(`deployItems:
- name: init
  type: landscaper.gardener.cloud/mock
  target:
    import: cluster
  labels:
    team: {{ .imports.team }}
  timeout: 5m
  updateOnChangeOnly: true
  onDelete:
    skipUninstallIfClusterRemoved: true
  config:
    apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1
    kind: ProviderConfiguration
    providerStatus:
      image: {{ .imports.image.name }}:{{ .imports.image.version }}
      count: {{ len .imports.list }}
- name: second
  type: landscaper.gardener.cloud/mock
  dependsOn: [init]
  config: {}`);
    const r = renderDeployExecutions(loaded, { team: 'a', image: { name: 'nginx', version: '1.0' }, list: [1, 2, 3] });
    assert.deepEqual(r.deployItems[0], {
      name: 'init', type: 'landscaper.gardener.cloud/mock', target: { import: 'cluster' }, labels: { team: 'a' },
      timeout: '5m', updateOnChangeOnly: true, onDelete: { skipUninstallIfClusterRemoved: true },
      config: {
        apiVersion: 'mock.deployer.landscaper.gardener.cloud/v1alpha1', kind: 'ProviderConfiguration',
        providerStatus: { image: 'nginx:1.0', count: 3 },
      },
    });
    assert.deepEqual(r.deployItems[1]!.dependsOn, ['init']);
    assert.deepEqual(r.states, {});
  });

  it('accepts the lowercase "deployitems" key, as Go json does', () => {
    const r = renderDeployExecutions(deployBlueprint('deployitems:\n- name: a\n  type: t\n  config: {}'), {});
    assert.deepEqual(r.deployItems.map((d) => d.name), ['a']);
  });

  it('exposes blueprintDef and nil cd/components', () => {
    const loaded = deployBlueprint('deployItems:\n- name: a\n  type: t\n  config:\n    hasInline: {{ hasKey .blueprint "inline" }}\n    cd: {{ .cd | toJson }}');
    const r = renderDeployExecutions(loaded, {}, { installation: { spec: { blueprint: { inline: { filesystem: {} } } } } });
    assert.deepEqual(r.deployItems[0]!.config, { hasInline: true, cd: null });
  });

  it('includes files and reads the blueprint filesystem (include, readFile, readDir, fromYaml, toYaml)', () => {
    const loaded = bp(`
deployExecutions:
  - name: main
    type: GoTemplate
    file: /templates/main.yaml
`, {
      templates: {
        'main.yaml': `deployItems:
- name: cm
  type: landscaper.gardener.cloud/kubernetes-manifest
  config:
    manifests:
    - manifest:
{{ include "templates/cm.yaml" .imports | indent 8 }}
    files: {{ range readDir "data" }}{{ .Name }} {{ end }}
    defaults:
{{ readFile "data/defaults.yaml" | toString | fromYaml | toYaml | indent 6 }}`,
        'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .name }}',
      },
      data: { 'defaults.yaml': 'b: 2\na: 1\n', 'other.txt': 'x' },
    });
    const r = renderDeployExecutions(loaded, { name: 'my-cm' });
    assert.deepEqual(r.deployItems[0]!.config, {
      manifests: [{ manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'my-cm' } } }],
      files: 'defaults.yaml other.txt',
      defaults: { a: 1, b: 2 },
    });
  });

  it('round-trips template state', () => {
    const loaded = deployBlueprint(`{{ $n := add (default 0 .state.counter) 1 }}
state:
  counter: {{ $n }}
deployItems:
- name: a
  type: t
  config:
    run: {{ $n }}`);
    const first = renderDeployExecutions(loaded, {});
    assert.deepEqual(first.deployItems[0]!.config, { run: 1 });
    const key = stateKey('deployExecutions', { name: 'one' }, 0);
    assert.deepEqual(first.states, { [key]: { counter: 1 } });
    const stored = encodeTemplateState(first.states[key]!);
    assert.equal(stored, '{"counter":1}');
    const second = renderDeployExecutions(loaded, {}, { states: { [key]: decodeTemplateState(stored) } });
    assert.deepEqual(second.deployItems[0]!.config, { run: 2 });
    assert.equal(stateSecretNameForKey('my-inst', key), 'nyamebvsk32t5raygmptg6vt6ejag3rv');
    assert.deepEqual(decodeTemplateState(undefined), {});
  });

  it('decodes YAML 1.1 booleans and numbers into text where upstream\'s types have strings (sigs.k8s.io/yaml)', () => {
    const loaded = deployBlueprint(`deployItems:
- name: y
  type: 1.0
  config:
    1e6: float key
    0x1F: int key
    on: bool key
    keep: [yes, 2, 1.5]
- name: off
  type: t
  dependsOn: [y]
  labels:
    flag: on
    big: 1e6
    pi: 3.14159265358979
    tiny: 0.00001
  target:
    name: 2
- name: 2
  type: t
  dependsOn: [off, y]
  target:
    import: 0x10
    key: no`);
    const r = renderDeployExecutions(loaded, {});
    assert.deepEqual(r.deployItems.map((i) => [i.name, i.type, i.dependsOn]), [['true', '1', undefined], ['false', 't', ['true']], ['2', 't', ['false', 'true']]]);
    // Map keys become text whatever the type; values of interface{} fields (config) stay as they are.
    assert.deepEqual(r.deployItems[0]!.config, { '1e+06': 'float key', '31': 'int key', true: 'bool key', keep: [true, 2, 1.5] });
    assert.deepEqual(r.deployItems[1]!.labels, { flag: 'true', big: '1e+06', pi: '3.1415927', tiny: '1e-05' });
    assert.deepEqual(r.deployItems[1]!.target, { name: '2' });
    assert.deepEqual(r.deployItems[2]!.target, { import: '16', key: 'false' });

    const imports = bp(`importExecutions:
  - name: check
    type: GoTemplate
    template: |
      errors: [1, off, 2.50]
`);
    assert.deepEqual(runImportExecutions(imports, {}).errors, ['1', 'false', '2.5']);
  });

  it('runs executions without a name, as upstream does, each with its own template state', () => {
    const counter = (item: string) => `{{ $n := add (default 0 .state.counter) 1 }}
      state:
        counter: {{ $n }}
      deployItems:
      - name: ${item}
        type: t
        config:
          run: {{ $n }}`;
    const loaded = bp(`
deployExecutions:
  - type: GoTemplate
    template: |
      ${counter('a')}
  - type: GoTemplate
    template: |
      ${counter('b')}
exportExecutions:
  - type: GoTemplate
    template: |
      exports: {}
`);
    assert.deepEqual(loaded.blueprint.deployExecutions?.map((e) => e.name), ['', '']);
    const first = renderDeployExecutions(loaded, {});
    const keys = [0, 1].map((i) => stateKey('deployExecutions', { name: '' }, i));
    assert.notEqual(keys[0], keys[1]);
    assert.deepEqual(first.states, { [keys[0]!]: { counter: 1 }, [keys[1]!]: { counter: 1 } });
    const second = renderDeployExecutions(loaded, {}, { states: { [keys[0]!]: { counter: 1 }, [keys[1]!]: { counter: 5 } } });
    assert.deepEqual(second.deployItems.map((i) => i.config), [{ run: 2 }, { run: 6 }]);
    assert.deepEqual(renderExportExecutions(loaded, {}, {}).exports, {});
    const e = catchErr(() => renderDeployExecutions(bp('deployExecutions:\n  - type: GoTemplate\n    template: "x: {{ .imports.missing }}"\n'), {}));
    assert.match(e.message, /^unnamed deploy execution: template "deploy execution" contains fields with "no value"/);
  });

  it('fails with upstream\'s no-value error listing the lines and masking the imports (template-22)', () => {
    const loaded = deployBlueprint(`deployItems:
- name: init
  type: manifest
  config:
    verbosity:
      {{ .imports.config.invalid }}
    memory:
      min: {{ .imports.config.memory.min }}`);
    const e = catchErr(() => renderDeployExecutions(loaded, { config: { memory: { min: 1 }, password: 'secret' } }));
    assert.ok(e instanceof NoValueError, String(e));
    assert.deepEqual(e.lines, [6]);
    assert.match(e.message, /^deploy execution "one": template "deploy execution" contains fields with "no value":\n\nline 6:6\n/);
    assert.match(e.message, /\n6: {10}<no value>\n {12}\u02c6≈≈≈≈≈≈≈\n7:/);
    assert.match(e.message, /template input:\n\tcd: null\n\tcomponents: null\n\timports: {"config":{"memory":{"min":"\[\.\.\.\] \(float64\)"},"password":"\[\.\.\.\] \(string\)"}}\n\tstate: {}\n/);
    assert.doesNotMatch(e.message, /secret/);
  });

  it('names the execution, line and column of a template error, with a source snippet', () => {
    const loaded = deployBlueprint('deployItems:\n- name: a\n  type: t\n  config:\n    x: {{ if not .imports.a }}{{ fail "a is required" }}{{ end }}');
    const e = catchErr(() => renderDeployExecutions(loaded, {}));
    assert.ok(e instanceof TemplateExecutionError, String(e));
    assert.equal(e.executionName, 'one');
    assert.equal(e.line, 5);
    assert.match(e.message, /^deploy execution "one": template: one:5:\d+: executing "one" at <fail "a is required">: error calling fail: a is required/);
    assert.match(e.message, /template source:\n1: {4}deployItems:\n[\s\S]*5: {4} {4}x: {{/);
  });

  it('reports parse errors with their line', () => {
    const e = catchErr(() => renderDeployExecutions(deployBlueprint('deployItems:\n{{ if .imports.x }}\n- name: a'), {}));
    assert.ok(e instanceof TemplateExecutionError);
    assert.match(e.message, /template: one:4: unexpected EOF/);
    assert.equal(e.line, 4);
  });

  it('answers Spiff executions with a typed "not supported" error', () => {
    const loaded = bp('deployExecutions:\n- name: spiffy\n  type: Spiff\n  template:\n    deployItems: []');
    const e = catchErr(() => renderDeployExecutions(loaded, {}));
    assert.ok(e instanceof SpiffNotSupportedError);
    assert.equal(e.message, 'deploy execution "spiffy": template type "Spiff" is not supported by Bosun; rewrite the execution as a GoTemplate');
  });

  it('rejects output that is not YAML or has wrong shapes', () => {
    assert.ok(catchErr(() => renderDeployExecutions(deployBlueprint('deployItems: [\n'), {})) instanceof TemplateOutputError);
    const e = catchErr(() => renderDeployExecutions(deployBlueprint('deployItems:\n- name: a\n  type: t\n  dependsOn: b\n  config: {}'), {}));
    assert.ok(e instanceof TemplateOutputError);
    assert.match(e.message, /deployItems\[0\]: dependsOn must be a list of names/);
  });

  it('validates names, dependsOn references and cycles', () => {
    const items = (s: string) => renderDeployExecutions(deployBlueprint(s), {});
    const dup = catchErr(() => items('deployItems:\n- {name: a, type: t, config: {}}\n- {name: a, type: t, config: {}}'));
    assert.ok(dup instanceof DeployItemValidationError && dup.reason === 'DuplicateName');
    const unknown = catchErr(() => items('deployItems:\n- {name: a, type: t, config: {}, dependsOn: [x]}'));
    assert.ok(unknown instanceof DeployItemValidationError && unknown.reason === 'UnknownDependency');
    assert.match(unknown.message, /"a" depends on "x", which is not defined/);
    const cycle = catchErr(() => items('deployItems:\n- {name: a, type: t, config: {}, dependsOn: [c]}\n- {name: b, type: t, config: {}, dependsOn: [a]}\n- {name: c, type: t, config: {}, dependsOn: [b]}\n- {name: d, type: t, config: {}}'));
    assert.ok(cycle instanceof DeployItemValidationError && cycle.reason === 'Cycle');
    assert.deepEqual(cycle.cycle, ['a', 'c', 'b', 'a']);
    assert.match(cycle.message, /form a cycle: a -> c -> b -> a/);
    const bad = catchErr(() => items('deployItems:\n- {name: Not_DNS, type: t, config: {}}'));
    assert.ok(bad instanceof DeployItemValidationError && bad.reason === 'InvalidName');
  });

  it('resolves target imports (single, list index, map key) into DeployItemTemplates', () => {
    const loaded = deployBlueprint(`deployItems:
- {name: a, type: t, config: {}, target: {import: cluster}}
- {name: b, type: t, config: {}, target: {import: list, index: 1}}
- {name: c, type: t, config: {}, target: {import: map, key: blue}}
- {name: d, type: t, config: {}, target: {name: fixed}}`);
    const imports = { cluster: target('c1'), list: [target('l0'), target('l1')], map: { blue: target('m-blue') } };
    const templates = toDeployItemTemplates(renderDeployExecutions(loaded, imports).deployItems, imports, 'ns');
    assert.deepEqual(templates.map((t) => t.target), [
      { name: 'c1', namespace: 'ns' }, { name: 'l1', namespace: 'ns' }, { name: 'm-blue', namespace: 'ns' }, { name: 'fixed', namespace: 'ns' },
    ]);
    const e = catchErr(() => toDeployItemTemplates([{ name: 'x', type: 't', config: {}, target: { import: 'list', index: 5 } }], imports));
    assert.match(e.message, /target import "list"\[5\] does not resolve to a Target/);
  });
});

describe('export executions', () => {
  const loaded = bp(`
exports:
  - name: url
    schema: { type: string }
  - name: settings
    schema:
      type: object
      properties: { replicas: { type: integer } }
  - name: cluster
    targetType: kubernetes-cluster
exportExecutions:
  - name: first
    type: GoTemplate
    template: |
      exports:
        url: http://{{ .imports.host }}:{{ index .values.deployitems "web" "port" }}
        settings:
          replicas: 1
          from: {{ .dataobjects.sub }}
        undeclared: x
  - name: second
    type: GoTemplate
    template: |
      exports:
        settings:
          replicas: {{ .deployitems.web.replicas }}
        cluster:
          type: landscaper.gardener.cloud/kubernetes-cluster
          config: {{ .targets.sub.spec.config | toJson }}
`);

  it('merges outputs deeply, exposes values top-level and drops undeclared exports', () => {
    const r = renderExportExecutions(loaded, { host: 'svc' }, {
      deployitems: { web: { port: 8080, replicas: 3 } },
      dataobjects: { sub: 'data' },
      targets: { sub: { spec: { type: 'x', config: { kubeconfig: 'k' } } } },
    });
    assert.deepEqual(r.exports, {
      url: 'http://svc:8080',
      settings: { replicas: 3, from: 'data' },
      cluster: { type: 'landscaper.gardener.cloud/kubernetes-cluster', config: { kubeconfig: 'k' } },
    });
    assert.deepEqual(r.dropped, ['undeclared']);
  });

  it('validates data exports against their schema', () => {
    const e = catchErr(() => renderExportExecutions(loaded, { host: 'svc' }, {
      deployitems: { web: { port: 1, replicas: 'many' } }, dataobjects: { sub: 'd' }, targets: { sub: { spec: { config: {} } } },
    }));
    assert.ok(e instanceof ExportValidationError);
    assert.equal(e.exportName, 'settings');
    assert.match(e.message, /\/replicas: must be integer/);
  });

  it('fails with a no-value error when an export input is missing', () => {
    const e = catchErr(() => renderExportExecutions(loaded, { host: 'svc' }, { deployitems: { web: { port: 1, replicas: 1 } } }));
    assert.ok(e instanceof NoValueError);
    assert.match(e.message, /^export execution "first": template "export execution" contains fields with "no value"/);
  });
});

describe('subinstallation executions', () => {
  const sub = (name: string, imports: string[], exports: string[]) => ({
    name, blueprint: { filesystem: { 'blueprint.yaml': 'imports: []' } },
    imports: { data: imports.map((d) => ({ name: d, dataRef: d })) },
    exports: { data: exports.map((d) => ({ name: d, dataRef: d })) },
  });

  it('combines static and templated subinstallations', () => {
    const loaded = bp(`
subinstallations:
  - name: static
    blueprint:
      filesystem:
        blueprint.yaml: "imports: []"
subinstallationExecutions:
  - name: subs
    type: GoTemplate
    template: |
      subinstallations:
      {{- range .imports.names }}
      - name: {{ . }}
        blueprint:
          filesystem:
            blueprint.yaml: "imports: []"
      {{- end }}
`);
    const r = renderSubinstallations(loaded, { names: ['sub-x', 'sub-y'] });
    assert.deepEqual(r.subinstallations.map((s) => s.name), ['static', 'sub-x', 'sub-y']);
    // YAML 1.1 (go-yaml v2) reads a bare y as true, so the name is not a string: upstream fails too.
    assert.throws(() => renderSubinstallations(loaded, { names: ['y'] }), /subinstallations\[0\]\.name: Required value/);
  });

  it('detects duplicate exports and cycles between siblings', () => {
    const mk = (subs: unknown[]) => bp(`subinstallations: ${JSON.stringify(subs)}`);
    const dup = catchErr(() => renderSubinstallations(mk([sub('a', [], ['e']), sub('b', [], ['e'])]), {}));
    assert.ok(dup instanceof InstallationTemplateValidationError && dup.reason === 'DuplicateExport');
    const cyc = catchErr(() => renderSubinstallations(mk([sub('a', ['y'], ['x']), sub('b', ['x'], ['y']), sub('c', ['x'], [])]), {}));
    assert.ok(cyc instanceof InstallationTemplateValidationError && cyc.reason === 'Cycle');
    assert.match(cyc.message, /form a cycle: a -> b -> a/);
  });
});

describe('import executions', () => {
  const loaded = bp(`
imports:
  - name: size
    schema: { type: integer }
importExecutions:
  - name: derive
    type: GoTemplate
    template: |
      bindings:
        doubled: {{ mul .imports.size 2 }}
  - name: check
    type: GoTemplate
    template: |
      errors:
      {{- if gt .imports.doubled 10.0 }}
      - "size {{ .imports.size }} is too large"
      {{- end }}
  - name: never
    type: GoTemplate
    template: |
      bindings:
        never: true
`);

  it('merges bindings for later executions', () => {
    const r = runImportExecutions(loaded, { size: 2 });
    assert.deepEqual(r.imports, { size: 2, doubled: 4, never: true });
    assert.deepEqual(r.errors, []);
  });

  it('stops at the first execution returning errors', () => {
    const r = runImportExecutions(loaded, { size: 20 });
    assert.deepEqual(r.errors, ['size 20 is too large']);
    assert.ok(!('never' in r.imports));
    const e = catchErr(() => applyImportExecutions(loaded, { size: 20 }));
    assert.ok(e instanceof ImportValidationError && e.reason === 'ImportExecutionErrors');
    assert.equal(e.message, 'import validation failed: size 20 is too large');
  });
});

describe('renderBlueprint', () => {
  it('fails on a missing import before rendering anything', () => {
    const loaded = deployBlueprint('deployItems: []', 'imports:\n  - name: ns\n    schema: { type: string }');
    const e = catchErr(() => renderBlueprint(loaded, {}));
    assert.ok(e instanceof ImportValidationError && e.reason === 'ImportNotFound');
  });
});
