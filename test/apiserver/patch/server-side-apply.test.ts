import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyServerSide, recordUpdate } from '../../../src/apiserver/patch/server-side-apply.ts';
import { fromOpenAPIV3Schema } from '../../../src/apiserver/schema/field-schema.ts';
import { builtinSchema } from '../../../src/apiserver/schema/builtin-schemas.ts';
import { StatusError } from '../../../src/apimachinery/status-error.ts';
import type { JsonObject } from '../../../src/apiserver/schema/field-schema.ts';

const schema = fromOpenAPIV3Schema({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        size: { type: 'integer' },
        color: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        args: { type: 'array', items: { type: 'string' } },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port'],
          items: { type: 'object', properties: { port: { type: 'integer' }, name: { type: 'string' } } },
        },
      },
    },
    status: { type: 'object', properties: { phase: { type: 'string' } } },
  },
});

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:01:00Z';
const base = (spec: JsonObject, meta: JsonObject = {}): JsonObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', ...meta }, spec });

function apply(live: JsonObject | undefined, config: JsonObject, manager: string, force = false, now = T0): JsonObject {
  return applyServerSide({ live, config, manager, force, schema, apiVersion: 'example.com/v1', now }).object;
}
function mf(obj: JsonObject): Record<string, unknown>[] {
  return (obj['metadata'] as { managedFields: Record<string, unknown>[] }).managedFields;
}
function conflictOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof StatusError);
    return e;
  }
  assert.fail('expected a conflict');
}

test('ssa: create records an Apply entry with exact FieldsV1', () => {
  const obj = apply(undefined, base({ size: 1, tags: ['b', 'a'], ports: [{ port: 80, name: 'http' }] }, { labels: { app: 'x' } }), 'kubectl');
  assert.deepEqual(obj['spec'], { size: 1, tags: ['b', 'a'], ports: [{ port: 80, name: 'http' }] });
  assert.deepEqual(mf(obj), [
    {
      manager: 'kubectl',
      operation: 'Apply',
      apiVersion: 'example.com/v1',
      time: T0,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': {
          'f:ports': { 'k:{"port":80}': { '.': {}, 'f:name': {}, 'f:port': {} } },
          'f:size': {},
          'f:tags': { 'v:"a"': {}, 'v:"b"': {} },
        },
      },
    },
  ]);
  assert.deepEqual(Object.keys((mf(obj)[0]?.['fieldsV1'] as JsonObject)['f:spec'] as JsonObject), ['f:ports', 'f:size', 'f:tags']);
});

test('ssa: re-apply of the same config is a no-op; update changes value and keeps time semantics', () => {
  const live = apply(undefined, base({ size: 1 }), 'kubectl');
  const again = applyServerSide({ live, config: base({ size: 1 }), manager: 'kubectl', force: false, schema, apiVersion: 'example.com/v1', now: T1 });
  assert.equal(again.changed, false);
  const upd = apply(live, base({ size: 2 }), 'kubectl', false, T1);
  assert.equal((upd['spec'] as JsonObject)['size'], 2);
  assert.equal(mf(upd)[0]?.['time'], T1);
});

test('ssa: fields the manager stops applying are removed unless someone else owns them', () => {
  const live = apply(undefined, base({ size: 1, color: 'red' }), 'a');
  const shared = apply(live, base({ color: 'red' }), 'b');
  const dropped = apply(shared, base({ size: 1 }), 'a', false, T1);
  assert.deepEqual(dropped['spec'], { size: 1, color: 'red' }, 'color stays: b still owns it');
  const gone = apply(live, base({ size: 1 }), 'a', false, T1);
  assert.deepEqual(gone['spec'], { size: 1 }, 'color removed: nobody owns it any more');
});

test('ssa: two managers applying the same value share the field without conflict', () => {
  const live = apply(undefined, base({ size: 1 }), 'a');
  const both = apply(live, base({ size: 1 }), 'b');
  const managers = mf(both).map((e) => e['manager']);
  assert.deepEqual(managers, ['a', 'b']);
  for (const e of mf(both)) assert.deepEqual(e['fieldsV1'], { 'f:spec': { 'f:size': {} } });
});

test('ssa: conflict is 409 with FieldManagerConflict causes and the upstream message', () => {
  const live = apply(undefined, base({ size: 1 }), 'a');
  const e = conflictOf(() => apply(live, base({ size: 2 }), 'b'));
  assert.equal(e.code, 409);
  assert.equal(e.reason, 'Conflict');
  assert.equal(e.message, 'Apply failed with 1 conflict: conflict with "a": .spec.size');
  assert.deepEqual(e.details, { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.spec.size' }] });
});

test('ssa: conflict with an Update manager names its apiVersion; multiple conflicts are listed', () => {
  const created = recordUpdate(undefined, base({ size: 1, color: 'red' }), 'kubectl-client-side-apply', 'example.com/v1', undefined, T0, schema);
  const e = conflictOf(() => apply(created, base({ size: 2, color: 'blue' }), 'b'));
  assert.equal(e.message, 'Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using example.com/v1:\n- .spec.color\n- .spec.size');
  assert.deepEqual(e.details?.causes?.map((c) => [c.message, c.field]), [
    ['conflict with "kubectl-client-side-apply" using example.com/v1', '.spec.color'],
    ['conflict with "kubectl-client-side-apply" using example.com/v1', '.spec.size'],
  ]);
});

test('ssa: force transfers ownership', () => {
  const live = apply(undefined, base({ size: 1, color: 'red' }), 'a');
  const forced = apply(live, base({ size: 2 }), 'b', true, T1);
  assert.equal((forced['spec'] as JsonObject)['size'], 2);
  const byManager = Object.fromEntries(mf(forced).map((e) => [e['manager'], e['fieldsV1']]));
  assert.deepEqual(byManager['a'], { 'f:spec': { 'f:color': {} } });
  assert.deepEqual(byManager['b'], { 'f:spec': { 'f:size': {} } });
});

test('ssa: list types — set and map merge per item across managers, atomic replaces', () => {
  const live = apply(undefined, base({ tags: ['a'], args: ['x'], ports: [{ port: 80 }] }), 'a');
  const merged = apply(live, base({ tags: ['b'], ports: [{ port: 81 }] }), 'b');
  assert.deepEqual((merged['spec'] as JsonObject)['tags'], ['a', 'b']);
  assert.deepEqual((merged['spec'] as JsonObject)['ports'], [{ port: 80 }, { port: 81 }]);
  const atomic = conflictOf(() => apply(merged, base({ args: ['y'] }), 'b'));
  assert.equal(atomic.details?.causes?.[0]?.field, '.spec.args');
  // a drops its set item: only a's item goes.
  const dropped = apply(merged, base({ args: ['x'], ports: [{ port: 80 }] }), 'a', false, T1);
  assert.deepEqual((dropped['spec'] as JsonObject)['tags'], ['b']);
});

test('ssa: managedFields in the config is 400', () => {
  const bad = base({ size: 1 }, { managedFields: [] });
  assert.throws(() => apply(undefined, bad, 'a'), (e: unknown) => e instanceof StatusError && e.code === 400 && e.message === 'metadata.managedFields must be nil');
});

test('recordUpdate: create records an Update entry with "." for new containers; later writes transfer fields', () => {
  const created = recordUpdate(undefined, base({ size: 1 }, { labels: { app: 'x' } }), 'kubectl-create', 'example.com/v1', undefined, T0, schema);
  assert.deepEqual(mf(created), [
    {
      manager: 'kubectl-create',
      operation: 'Update',
      apiVersion: 'example.com/v1',
      time: T0,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { '.': {}, 'f:size': {} } },
    },
  ]);
  const next = structuredClone(created);
  (next['spec'] as JsonObject)['size'] = 5;
  const updated = recordUpdate(created, next, 'editor', 'example.com/v1', undefined, T1, schema);
  const byManager = Object.fromEntries(mf(updated).map((e) => [e['manager'], e['fieldsV1']]));
  assert.deepEqual(byManager['editor'], { 'f:spec': { 'f:size': {} } });
  // spec itself stays owned; a member without children is encoded as {} (never {".": {}}).
  assert.deepEqual(byManager['kubectl-create'], { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': {} });
});

test('recordUpdate: status subresource entries and managers left with nothing are dropped', () => {
  const created = recordUpdate(undefined, base({ size: 1 }), 'creator', 'example.com/v1', undefined, T0, schema);
  const withStatus = { ...structuredClone(created), status: { phase: 'Ready' } };
  const s = recordUpdate(created, withStatus, 'controller', 'example.com/v1', 'status', T1, schema);
  const entry = mf(s).find((e) => e['manager'] === 'controller');
  assert.equal(entry?.['subresource'], 'status');
  assert.deepEqual(entry?.['fieldsV1'], { 'f:status': { '.': {}, 'f:phase': {} } });
  const replaced = structuredClone(s);
  delete replaced['spec'];
  const after = recordUpdate(s, replaced, 'wiper', 'example.com/v1', undefined, T1, schema);
  assert.deepEqual(mf(after).map((e) => e['manager']), ['controller'], 'creator owned only spec and is dropped; wiper gained nothing');
});

test('recordUpdate: ignored fields are neither claimed nor taken from their owners, on either side of a change', () => {
  // The comparison does not walk ignored subtrees at all (a status write's spec): what it would have found there
  // must not matter, even where the two sides differ.
  const created = recordUpdate(undefined, base({ size: 1 }), 'creator', 'example.com/v1', undefined, T0, schema);
  const withStatus = recordUpdate(created, { ...structuredClone(created), status: { phase: 'Ready' } }, 'controller', 'example.com/v1', 'status', T1, schema, { ignoredFields: [['f:spec']] });
  const statusWrite = { ...structuredClone(withStatus), spec: { size: 7, extra: true }, status: { phase: 'Done', message: 'ok' } };
  const afterStatus = recordUpdate(withStatus, statusWrite, 'controller', 'example.com/v1', 'status', T1, schema, { ignoredFields: [['f:spec']] });
  const byManager = Object.fromEntries(mf(afterStatus).map((e) => [e['manager'], e['fieldsV1']]));
  assert.deepEqual(byManager['controller'], { 'f:status': { '.': {}, 'f:message': {}, 'f:phase': {} } });
  assert.deepEqual(byManager['creator'], mf(created)[0]?.['fieldsV1'], 'the spec stays the creator\'s');
  const mainWrite = { ...structuredClone(afterStatus), spec: { size: 2 }, status: { phase: 'Other' } };
  const afterMain = recordUpdate(afterStatus, mainWrite, 'editor', 'example.com/v1', undefined, T1, schema, { ignoredFields: [['f:status']] });
  const after = Object.fromEntries(mf(afterMain).map((e) => [e['manager'], e['fieldsV1']]));
  assert.deepEqual(after['editor'], { 'f:spec': { 'f:size': {} } });
  assert.deepEqual(after['controller'], byManager['controller'], 'the status stays the controller\'s');
});

test('recordUpdate: a create records exactly what an update from an empty object records', () => {
  // A create with no managers takes a one-walk path; an update from {} takes the field-set path. Both must
  // write the same entry, byte for byte.
  const configMap = builtinSchema('', 'v1', 'ConfigMap')!;
  const deployment = builtinSchema('apps', 'v1', 'Deployment')!;
  const cases: [string, JsonObject, typeof schema, string[][]][] = [
    ['a ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'x', uid: 'u', creationTimestamp: T0, labels: { b: '1', a: '2' }, annotations: {} }, data: { z: 'x', key: 'v' }, binaryData: {} }, configMap, []],
    ['only stripped metadata', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'x', generation: 1 } }, configMap, []],
    ['nulls and empty maps', base({ size: null, color: 'red' }, { labels: {}, annotations: { 'a/b': '' } }), schema, []],
    ['status ignored', { ...base({ size: 1 }), status: { phase: 'x' } }, schema, [['f:status']]],
    ['an atomic list and a set', base({ args: ['a'], tags: ['t'] }), schema, []],
    ['a map list', base({ ports: [{ port: 80 }] }), schema, []],
    ['a Deployment', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', labels: { app: 'a' } }, spec: { replicas: 1, selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } }, deployment, [['f:status']]],
    ['unknown fields', base({ size: 1, extra: { deep: { er: 1 } } }), fromOpenAPIV3Schema({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }), []],
  ];
  for (const [what, object, objectSchema, ignoredFields] of cases) {
    const created = recordUpdate(undefined, structuredClone(object), 'kubectl-create', 'v1', undefined, T0, objectSchema, { ignoredFields });
    const general = recordUpdate({}, structuredClone(object), 'kubectl-create', 'v1', undefined, T0, objectSchema, { ignoredFields });
    assert.equal(JSON.stringify(created), JSON.stringify(general), what);
  }
});

test('builtin pod: containers keyed by name, ports by containerPort+protocol with default', () => {
  const podSchema = builtinSchema('', 'v1', 'Pod');
  assert.ok(podSchema);
  const cfg = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80 }] }] } };
  const obj = applyServerSide({ live: undefined, config: cfg, manager: 'kubectl', force: false, schema: podSchema, apiVersion: 'v1', now: T0 }).object;
  assert.deepEqual(mf(obj)[0]?.['fieldsV1'], {
    'f:spec': {
      'f:containers': {
        'k:{"name":"app"}': {
          '.': {},
          'f:image': {},
          'f:name': {},
          'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
        },
      },
    },
  });
});
