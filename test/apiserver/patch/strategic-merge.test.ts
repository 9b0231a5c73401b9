import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyStrategicMergePatch } from '../../../src/apiserver/patch/strategic-merge.ts';
import { builtinSchema } from '../../../src/apiserver/schema/builtin-schemas.ts';
import { StatusError } from '../../../src/apimachinery/status-error.ts';

const podSchema = builtinSchema('', 'v1', 'Pod');
assert.ok(podSchema);

function pod(containers: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', finalizers: ['a', 'b', 'c'] }, spec: { containers, ...extra } };
}
const c = (name: string, more: Record<string, unknown> = {}): Record<string, unknown> => ({ name, image: `${name}:1`, ...more });

test('smp: containers merge by name, untouched fields kept', () => {
  const out = applyStrategicMergePatch(pod([c('a', { env: [{ name: 'X', value: '1' }] }), c('b')]), { spec: { containers: [{ name: 'a', image: 'a:2' }] } }, podSchema);
  assert.deepEqual((out['spec'] as { containers: unknown }).containers, [
    { name: 'a', image: 'a:2', env: [{ name: 'X', value: '1' }] },
    c('b'),
  ]);
});

test('smp: env merges by name; null deletes a field inside an item', () => {
  const live = pod([c('a', { env: [{ name: 'X', value: '1' }, { name: 'Y', value: '2' }] })]);
  const out = applyStrategicMergePatch(live, { spec: { containers: [{ name: 'a', env: [{ name: 'Y', value: '3' }, { name: 'Z', value: '4' }], image: null }] } }, podSchema);
  const a = (out['spec'] as { containers: Record<string, unknown>[] }).containers[0];
  assert.deepEqual(a, { name: 'a', env: [{ name: 'X', value: '1' }, { name: 'Y', value: '3' }, { name: 'Z', value: '4' }] });
});

test('smp: new list item without $setElementOrder goes first (upstream ordering)', () => {
  const out = applyStrategicMergePatch(pod([c('a'), c('b')]), { spec: { containers: [c('n')] } }, podSchema);
  assert.deepEqual((out['spec'] as { containers: { name: string }[] }).containers.map((x) => x.name), ['n', 'a', 'b']);
});

test('smp: $setElementOrder orders containers like kubectl expects', () => {
  const patch = {
    spec: {
      '$setElementOrder/containers': [{ name: 'b' }, { name: 'n' }, { name: 'a' }],
      containers: [c('n')],
    },
  };
  const out = applyStrategicMergePatch(pod([c('a'), c('b')]), patch, podSchema);
  assert.deepEqual((out['spec'] as { containers: { name: string }[] }).containers.map((x) => x.name), ['b', 'n', 'a']);
});

test('smp: $patch delete removes a container; $patch replace replaces the list', () => {
  const del = applyStrategicMergePatch(pod([c('a'), c('b')]), { spec: { containers: [{ name: 'a', $patch: 'delete' }] } }, podSchema);
  assert.deepEqual((del['spec'] as { containers: unknown[] }).containers, [c('b')]);
  const rep = applyStrategicMergePatch(pod([c('a'), c('b')]), { spec: { containers: [c('z'), { $patch: 'replace' }] } }, podSchema);
  assert.deepEqual((rep['spec'] as { containers: unknown[] }).containers, [c('z')]);
});

test('smp: ports merge by containerPort', () => {
  const live = pod([c('a', { ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 443, protocol: 'TCP' }] })]);
  const out = applyStrategicMergePatch(live, { spec: { containers: [{ name: 'a', ports: [{ containerPort: 443, name: 'https' }, { containerPort: 8080 }] }] } }, podSchema);
  const ports = (out['spec'] as { containers: { ports: unknown[] }[] }).containers[0]?.ports;
  // Server-only 80 keeps its place before 443 (live order); the new 8080 follows the patch order.
  assert.deepEqual(ports, [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 443, protocol: 'TCP', name: 'https' }, { containerPort: 8080 }]);
});

test('smp: $deleteFromPrimitiveList and $setElementOrder on finalizers', () => {
  const out = applyStrategicMergePatch(pod([c('a')]), { metadata: { '$setElementOrder/finalizers': ['c', 'a'], '$deleteFromPrimitiveList/finalizers': ['b'] } }, podSchema);
  assert.deepEqual((out['metadata'] as { finalizers: string[] }).finalizers, ['c', 'a']);
  const added = applyStrategicMergePatch(pod([c('a')]), { metadata: { finalizers: ['d', 'a'] } }, podSchema);
  assert.deepEqual((added['metadata'] as { finalizers: string[] }).finalizers, ['d', 'a', 'b', 'c']);
});

test('smp: non-merge lists (tolerations, command) are replaced', () => {
  const live = pod([c('a', { command: ['x', 'y'] })], { tolerations: [{ key: 'k1' }, { key: 'k2' }] });
  const out = applyStrategicMergePatch(live, { spec: { tolerations: [{ key: 'k3' }], containers: [{ name: 'a', command: ['z'] }] } }, podSchema);
  assert.deepEqual((out['spec'] as { tolerations: unknown }).tolerations, [{ key: 'k3' }]);
  assert.deepEqual((out['spec'] as { containers: { command: unknown }[] }).containers[0]?.command, ['z']);
});

test('smp: $retainKeys clears volume source fields not listed', () => {
  const live = pod([c('a')], { volumes: [{ name: 'v', emptyDir: {} }] });
  const out = applyStrategicMergePatch(live, { spec: { volumes: [{ name: 'v', hostPath: { path: '/x' }, $retainKeys: ['hostPath', 'name'] }] } }, podSchema);
  assert.deepEqual((out['spec'] as { volumes: unknown }).volumes, [{ name: 'v', hostPath: { path: '/x' } }]);
  assert.throws(
    () => applyStrategicMergePatch(live, { spec: { volumes: [{ name: 'v', hostPath: { path: '/x' }, $retainKeys: ['name'] }] } }, podSchema),
    (e: unknown) => e instanceof StatusError && e.code === 400,
  );
});

test('smp: $patch replace on a map; configmap data merge with null deletion', () => {
  const cm = builtinSchema('', 'v1', 'ConfigMap');
  const live = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: '1', b: '2' } }, data: { x: '1', y: '2' } };
  const out = applyStrategicMergePatch(live, { metadata: { labels: { c: '3', $patch: 'replace' } }, data: { x: null, z: '3' } }, cm);
  assert.deepEqual(out, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { c: '3' } }, data: { y: '2', z: '3' } });
});

test('smp: malformed directives are 400', () => {
  assert.throws(() => applyStrategicMergePatch(pod([]), { spec: { '$setElementOrder/containers': 'x' } }, podSchema), (e: unknown) => e instanceof StatusError && e.code === 400);
  assert.throws(() => applyStrategicMergePatch(pod([]), [1], podSchema), (e: unknown) => e instanceof StatusError && e.code === 400);
});
