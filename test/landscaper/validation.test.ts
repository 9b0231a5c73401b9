// The validation rules of the Landscaper kinds (upstream's apis/core/validation), rule by rule, with the exact
// field paths and messages kubectl users will read.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatFieldError, formatFieldErrors, toStatusCauses, type FieldError } from '../../src/apimachinery/field-error.ts';
import type { DeployItem } from '../../src/landscaper/api/deploy-item.ts';
import type { DeployItemTemplate, Execution } from '../../src/landscaper/api/execution.ts';
import type { Installation, InstallationSpec } from '../../src/landscaper/api/installation.ts';
import type { Target, TargetSpec } from '../../src/landscaper/api/target.ts';
import { encodeDeployItemsCompressed } from '../../src/landscaper/api/execution-spec.ts';
import {
  validateDeployItem,
  validateDeployItemUpdate,
  validateExecution,
  validateInstallation,
  validateTarget,
} from '../../src/landscaper/validation/index.ts';

const API = 'landscaper.gardener.cloud/v1alpha1' as const;
const messages = (errors: FieldError[]) => errors.map(formatFieldError);

function execution(deployItems: Partial<DeployItemTemplate>[]): Execution {
  return { apiVersion: API, kind: 'Execution', metadata: { name: 'e', namespace: 'ns' }, spec: { deployItems: deployItems.map((d) => ({ config: {}, ...d }) as DeployItemTemplate) } };
}
const item = (name: string, dependsOn?: string[], extra: Partial<DeployItemTemplate> = {}): Partial<DeployItemTemplate> => ({ name, type: 'landscaper.gardener.cloud/mock', ...(dependsOn ? { dependsOn } : {}), ...extra });

describe('Execution', () => {
  const cases: [string, Partial<DeployItemTemplate>[], string[]][] = [
    ['a valid DAG', [item('a'), item('b', ['a']), item('c', ['a', 'b'])], []],
    ['no deploy items', [], []],
    ['a missing name', [{ type: 't' }], ['spec.deployItems[0].name: Required value: name must not be empty']],
    ['a missing type', [item('a', undefined, { type: '' })], ['spec.deployItems[0].type: Required value: type must not be empty']],
    ['a duplicate name', [item('a'), item('b'), item('a')], ['spec.deployItems[2].name: Duplicate value: "a"']],
    ['an unknown dependsOn reference', [item('a'), item('b', ['a', 'x'])], ['spec.deployItems[1].dependsOn[1]: Not found: "x"']],
    ['a self-reference', [item('a', ['a'])], ['spec.deployItems[0].dependsOn[0]: Invalid value: "a": a deploy item must not depend on itself']],
    ['a cycle', [item('a', ['c']), item('b', ['a']), item('c', ['b']), item('d')], ['spec.deployItems: Invalid value: "a -> c -> b -> a": cycle found in dependencies']],
    [
      'two separate cycles, a self-reference and an unknown name',
      [item('a', ['b']), item('b', ['a']), item('c', ['d', 'c']), item('d', ['c', 'zz'])],
      [
        'spec.deployItems[2].dependsOn[1]: Invalid value: "c": a deploy item must not depend on itself',
        'spec.deployItems[3].dependsOn[1]: Not found: "zz"',
        'spec.deployItems: Invalid value: "a -> b -> a": cycle found in dependencies',
        'spec.deployItems: Invalid value: "c -> d -> c": cycle found in dependencies',
      ],
    ],
    // As upstream: with duplicate names a cycle would not say which item is meant, so none is reported.
    ['duplicates suppress the cycle check', [item('a', ['b']), item('b', ['a']), item('b')], ['spec.deployItems[2].name: Duplicate value: "b"']],
    ['a target without namespace', [item('a', undefined, { target: { name: 'cluster' } })], ['spec.deployItems[0].target.namespace: Required value: namespace must not be empty']],
    [
      'invalid labels',
      [item('a', undefined, { labels: { 'bad key!': 'v', ok: 'not valid!' } })],
      [
        'spec.deployItems[0].labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', must start and end with an alphanumeric character, and be at most 63 characters',
        'spec.deployItems[0].labels.ok: Invalid value: "not valid!": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', must start and end with an alphanumeric character, and be at most 63 characters',
      ],
    ],
  ];
  for (const [what, items, expected] of cases) {
    test(what, () => assert.deepEqual(messages(validateExecution(execution(items))), expected));
  }

  test('the compressed list is what is validated (upstream writes only that form)', () => {
    const exec = execution([]);
    exec.spec = { deployItemsCompressed: encodeDeployItemsCompressed([item('a', ['b']), item('b', ['a'])] as DeployItemTemplate[]) };
    assert.deepEqual(messages(validateExecution(exec)), ['spec.deployItems: Invalid value: "a -> b -> a": cycle found in dependencies']);
    exec.spec = { deployItemsCompressed: 'bm90IGd6aXA=' };
    assert.match(messages(validateExecution(exec))[0] ?? '', /^spec\.deployItemsCompressed: Invalid value: unable to gunzip deployitems of execution spec/);
  });
});

function deployItem(spec: Partial<DeployItem['spec']>): DeployItem {
  return { apiVersion: API, kind: 'DeployItem', metadata: { name: 'di', namespace: 'ns' }, spec: { type: 'landscaper.gardener.cloud/mock', ...spec } };
}

describe('DeployItem', () => {
  const cases: [string, Partial<DeployItem['spec']>, string[]][] = [
    ['valid', { target: { name: 't', namespace: 'ns' } }, []],
    ['type required', { type: '' }, ['spec.type: Required value: type must not be empty']],
    ['target name and namespace required', { target: { name: '' } }, ['spec.target.name: Required value: name must not be empty', 'spec.target.namespace: Required value: namespace must not be empty']],
  ];
  for (const [what, spec, expected] of cases) test(what, () => assert.deepEqual(messages(validateDeployItem(deployItem(spec))), expected));

  test('on update the type is immutable', () => {
    const old = deployItem({ type: 'some-type' });
    assert.deepEqual(messages(validateDeployItemUpdate(deployItem({ type: 'some-type', timeout: '5m' }), old)), []);
    assert.deepEqual(messages(validateDeployItemUpdate(deployItem({ type: 'other-type' }), old)), ['spec.type: Invalid value: "other-type": field is immutable']);
    assert.deepEqual(messages(validateDeployItemUpdate(deployItem({ type: '' }), old)), ['spec.type: Required value: type must not be empty', 'spec.type: Invalid value: "": field is immutable']);
  });
});

function target(spec: Partial<TargetSpec>): Target {
  return { apiVersion: API, kind: 'Target', metadata: { name: 't', namespace: 'ns' }, spec: { type: 'landscaper.gardener.cloud/kubernetes-cluster', ...spec } };
}

describe('Target', () => {
  const cases: [string, Partial<TargetSpec>, string[]][] = [
    ['inline config', { config: { kubeconfig: 'apiVersion: v1' } }, []],
    ['a secretRef', { secretRef: { name: 'kubeconfig', key: 'kubeconfig' } }, []],
    ['neither (an empty target)', {}, []],
    ['type required', { type: '' }, ['spec.type: Required value: type must not be empty']],
    ['config and secretRef are exclusive', { config: { kubeconfig: 'x' }, secretRef: { name: 'kubeconfig' } }, ['spec: Invalid value: either config or secretRef may be set, not both']],
    ['secretRef needs a name', { secretRef: { name: '' } }, ['spec.secretRef.name: Required value: name must not be empty']],
  ];
  for (const [what, spec, expected] of cases) test(what, () => assert.deepEqual(messages(validateTarget(target(spec))), expected));
});

function installation(spec: Partial<InstallationSpec>, name = 'root'): Installation {
  return { apiVersion: API, kind: 'Installation', metadata: { name, namespace: 'ns' }, spec: { blueprint: { inline: { filesystem: { 'blueprint.yaml': 'x' } } }, ...spec } };
}

describe('Installation', () => {
  const cases: [string, Partial<InstallationSpec>, string[]][] = [
    [
      'valid imports and exports',
      {
        imports: { data: [{ name: 'a', dataRef: 'a' }, { name: 'b', secretRef: { name: 's', key: 'k' } }, { name: 'c', configMapRef: { name: 'cm' } }], targets: [{ name: 't', target: 'cluster' }, { name: 'l', targets: [] }, { name: 'm', targetMap: { x: 'y' } }] },
        exports: { data: [{ name: 'out', dataRef: 'out' }], targets: [{ name: 'tout', target: 'tout' }] },
      },
      [],
    ],
    ['no blueprint', { blueprint: {} }, ['spec.blueprint: Required value: exactly one of [ref, inline] must be set (currently set: none)']],
    ['blueprint ref and inline', { blueprint: { ref: { resourceName: 'bp' }, inline: { filesystem: {} } } }, ['spec.blueprint: Invalid value: exactly one of [ref, inline] must be set (currently set: [ref, inline])']],
    ['component descriptor ref and inline', { componentDescriptor: { ref: { componentName: 'c', version: '1' }, inline: {} } }, ['spec.componentDescriptor: Invalid value: exactly one of [ref, inline] must be set (currently set: [ref, inline])']],
    ['a data import with dataRef and secretRef', { imports: { data: [{ name: 'a', dataRef: 'a', secretRef: { name: 's' } }] } }, ['spec.imports.data[0]: Invalid value: exactly one of [dataRef, secretRef, configMapRef] must be set (currently set: [dataRef, secretRef])']],
    ['a data import without a source', { imports: { data: [{ name: 'a' }] } }, ['spec.imports.data[0]: Required value: exactly one of [dataRef, secretRef, configMapRef] must be set (currently set: none)']],
    ['a data import without a name', { imports: { data: [{ name: '', dataRef: 'a' }] } }, ['spec.imports.data[0].name: Required value: name must not be empty']],
    ['a configMapRef without a name', { imports: { data: [{ name: 'a', configMapRef: { name: '' } }] } }, ['spec.imports.data[0].configMapRef.name: Required value: name must not be empty']],
    ['import names are unique across data and targets', { imports: { data: [{ name: 'x', dataRef: 'x' }], targets: [{ name: 'x', target: 't' }] } }, ['spec.imports.targets[0].name: Duplicate value: "x"']],
    ['a target import with target and targets', { imports: { targets: [{ name: 't', target: 'a', targets: ['b'] }] } }, ['spec.imports.targets[0]: Invalid value: exactly one of [target, targets, targetMap, targetMapRef, targetListRef] must be set (currently set: [target, targets])']],
    ['an empty entry in targets', { imports: { targets: [{ name: 't', targets: ['a', ''] }] } }, ['spec.imports.targets[0].targets[1]: Required value: target must not be empty']],
    ['a target import without a name', { imports: { targets: [{ name: '', target: 'a' }] } }, ['spec.imports.targets[0].name: Required value: name must not be empty']],
    ['a duplicate data export', { exports: { data: [{ name: 'e', dataRef: 'a' }, { name: 'e', dataRef: 'b' }] } }, ['spec.exports.data[1].name: Duplicate value: "e"']],
    ['a data export without dataRef', { exports: { data: [{ name: 'e', dataRef: '' }] } }, ['spec.exports.data[0].dataRef: Required value: dataRef must not be empty']],
    ['a target export without target and name', { exports: { targets: [{ name: '', target: '' }] } }, ['spec.exports.targets[0].target: Required value: target must not be empty', 'spec.exports.targets[0].name: Required value: name must not be empty']],
  ];
  for (const [what, spec, expected] of cases) test(what, () => assert.deepEqual(messages(validateInstallation(installation(spec))), expected));

  test('the name is a DNS label of at most 58 characters, a generateName prefix of at most 53', () => {
    assert.deepEqual(messages(validateInstallation(installation({}, 'x'.repeat(58)))), []);
    assert.deepEqual(messages(validateInstallation(installation({}, 'x'.repeat(59)))), [`metadata.name: Invalid value: "${'x'.repeat(59)}": must be no more than 58 characters`]);
    assert.deepEqual(messages(validateInstallation(installation({}, 'my.inst'))), [
      "metadata.name: Invalid value: \"my.inst\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
    ]);
    const generated = installation({}, '');
    generated.metadata = { generateName: 'child-', namespace: 'ns' };
    assert.deepEqual(messages(validateInstallation(generated)), []);
    generated.metadata.generateName = `${'g'.repeat(54)}-`;
    assert.deepEqual(messages(validateInstallation(generated)), [`metadata.generateName: Invalid value: "${'g'.repeat(54)}-": must be no more than 53 characters`]);
  });
});

test('errors aggregate as apimachinery prints them and carry status causes', () => {
  const errors = validateExecution(execution([item('a', ['a']), item('b', ['x'])]));
  assert.equal(
    formatFieldErrors(errors),
    '[spec.deployItems[0].dependsOn[0]: Invalid value: "a": a deploy item must not depend on itself, spec.deployItems[1].dependsOn[0]: Not found: "x"]',
  );
  assert.equal(formatFieldErrors(errors.slice(1)), 'spec.deployItems[1].dependsOn[0]: Not found: "x"');
  assert.deepEqual(toStatusCauses(errors.slice(1)), [{ reason: 'FieldValueNotFound', field: 'spec.deployItems[1].dependsOn[0]', message: 'Not found: "x"' }]);
});
