// Issue 27, finding 6: mounting a ConfigMap key whose value is an object gave a raw JavaScript TypeError. The API
// server now refuses such ConfigMaps, but one stored before (or by another server) is named as the pod's error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configMapEntries, secretEntries } from '../../src/node/agent/pod-api-objects.ts';
import type { ConfigMap, Secret } from '../../src/apimachinery/api/index.ts';
import { SandboxSpecError } from '../../src/node/sandbox/errors.ts';

function configError(message: string) {
  return (error: unknown) => error instanceof SandboxSpecError && error.reason === 'CreateContainerConfigError' && error.message === message;
}

test('a ConfigMap or Secret value that is not a string is a CreateContainerConfigError naming the key', () => {
  const objectValued = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { ok: 'x', bad: { nested: 1 } } } as unknown as ConfigMap;
  assert.throws(() => configMapEntries(objectValued), configError('configmap "cfg" key "bad" in data is an object, not a string'));
  const numberValued = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, binaryData: { n: 5 } } as unknown as ConfigMap;
  assert.throws(() => configMapEntries(numberValued), configError('configmap "cfg" key "n" in binaryData is a number, not a string'));
  const listData = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: ['a'] } as unknown as Secret;
  assert.throws(() => secretEntries(listData), configError('secret "s" has data that is not a map of strings'));
  const fine = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { a: 'x' } } as ConfigMap;
  assert.equal(configMapEntries(fine).get('a')?.toString(), 'x');
});
