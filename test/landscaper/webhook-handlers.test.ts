// The validating webhook's handlers and configuration, without an API server: what is denied and how,
// what is let through on purpose, and the configuration upstream's tooling expects.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import {
  landscaperWebhookConfiguration,
  validateDeployItemHandler,
  validateExecutionHandler,
  validateInstallationHandler,
  validateTargetHandler,
} from '../../src/landscaper/webhook/index.ts';
import type { AdmissionOperation, AdmissionRequest, AdmissionResponse } from '../../src/runtime/webhook/index.ts';

const API = 'landscaper.gardener.cloud/v1alpha1';

function request(kind: string, object: KubeObject | undefined, extra: Partial<AdmissionRequest> = {}): AdmissionRequest {
  return {
    uid: 'u',
    kind: { group: 'landscaper.gardener.cloud', version: 'v1alpha1', kind },
    resource: { group: 'landscaper.gardener.cloud', version: 'v1alpha1', resource: `${kind.toLowerCase()}s` },
    operation: 'CREATE' as AdmissionOperation,
    userInfo: {},
    dryRun: false,
    ...(object ? { object } : {}),
    ...extra,
  };
}

const cyclic = { apiVersion: API, kind: 'Execution', metadata: { name: 'e', namespace: 'ns' }, spec: { deployItems: [{ name: 'a', type: 't', config: {}, dependsOn: ['b'] }, { name: 'b', type: 't', config: {}, dependsOn: ['a'] }] } };
const di = (type: string, meta: Record<string, unknown> = {}) => ({ apiVersion: API, kind: 'DeployItem', metadata: { name: 'd', namespace: 'ns', ...meta }, spec: { type } });

async function run(handler: (r: AdmissionRequest) => AdmissionResponse | Promise<AdmissionResponse>, req: AdmissionRequest): Promise<AdmissionResponse> {
  return handler(req);
}

test('an invalid object is denied with code 403, the aggregated field errors and their causes', async () => {
  const res = await run(validateExecutionHandler, request('Execution', cyclic));
  assert.equal(res.allowed, false);
  assert.equal(res.result?.code, 403);
  assert.equal(res.result?.message, 'spec.deployItems: Invalid value: "a -> b -> a": cycle found in dependencies');
  assert.deepEqual(res.result?.causes, [{ reason: 'FieldValueInvalid', field: 'spec.deployItems', message: 'Invalid value: "a -> b -> a": cycle found in dependencies' }]);
  const target = await run(validateTargetHandler, request('Target', { apiVersion: API, kind: 'Target', metadata: { name: 't' }, spec: { type: 'x', config: {}, secretRef: { name: 's' } } }));
  assert.equal(target.result?.message, 'spec: Invalid value: either config or secretRef may be set, not both');
  const inst = await run(validateInstallationHandler, request('Installation', { apiVersion: API, kind: 'Installation', metadata: { name: 'i' }, spec: { blueprint: {} } }));
  assert.equal(inst.result?.message, 'spec.blueprint: Required value: exactly one of [ref, inline] must be set (currently set: none)');
});

test('a valid object is allowed', async () => {
  const res = await run(validateDeployItemHandler, request('DeployItem', di('mock')));
  assert.deepEqual(res, { allowed: true, result: { code: 200, message: 'DeployItem is valid' } });
});

test('a DeployItem type change on UPDATE is denied; other updates are allowed', async () => {
  const changed = await run(validateDeployItemHandler, request('DeployItem', di('other-type'), { operation: 'UPDATE', oldObject: di('some-type') }));
  assert.equal(changed.allowed, false);
  assert.equal(changed.result?.message, 'spec.type: Invalid value: "other-type": field is immutable');
  const same = await run(validateDeployItemHandler, request('DeployItem', di('some-type', { labels: { a: 'b' } }), { operation: 'UPDATE', oldObject: di('some-type') }));
  assert.equal(same.allowed, true);
});

test('status writes, the skip-validation label and updates of objects being deleted are let through', async () => {
  const status = await run(validateExecutionHandler, request('Execution', cyclic, { operation: 'UPDATE', subResource: 'status', oldObject: cyclic }));
  assert.deepEqual([status.allowed, status.result?.message], [true, 'subresource status is not validated']);
  const skipped = await run(validateExecutionHandler, request('Execution', { ...cyclic, metadata: { ...cyclic.metadata, labels: { 'validation.landscaper.gardener.cloud/skip-validation': 'true' } } }));
  assert.deepEqual([skipped.allowed, skipped.result?.message], [true, 'validation skipped by label']);
  const deleting = await run(validateDeployItemHandler, request('DeployItem', di('other', { deletionTimestamp: '2026-01-01T00:00:00Z' }), { operation: 'UPDATE', oldObject: di('some') }));
  assert.equal(deleting.allowed, true);
  const del = await run(validateExecutionHandler, request('Execution', undefined, { operation: 'DELETE', oldObject: cyclic }));
  assert.equal(del.allowed, true);
  const empty = await run(validateExecutionHandler, request('Execution', undefined));
  assert.deepEqual([empty.allowed, empty.result?.code], [false, 400]);
});

test('the configuration is upstream\'s: name, webhook names, paths, CREATE/UPDATE, Fail, None, 15 s, skip selector', () => {
  const spec = landscaperWebhookConfiguration();
  assert.equal(spec.type, 'Validating');
  assert.equal(spec.name, 'landscaper-validation-webhook');
  assert.deepEqual(
    spec.webhooks.map((w) => [w.name, w.path]),
    [
      ['installations.validation.landscaper.gardener.cloud', '/webhook/validate/installations'],
      ['executions.validation.landscaper.gardener.cloud', '/webhook/validate/executions'],
      ['deployitems.validation.landscaper.gardener.cloud', '/webhook/validate/deployitems'],
      ['targets.validation.landscaper.gardener.cloud', '/webhook/validate/targets'],
    ],
  );
  for (const w of spec.webhooks) {
    const resource = w.path.split('/').at(-1) ?? '';
    assert.deepEqual(w.rules, [{ apiGroups: ['landscaper.gardener.cloud'], apiVersions: ['v1alpha1'], resources: [resource], operations: ['CREATE', 'UPDATE'], scope: 'Namespaced' }]);
    assert.equal(w.failurePolicy, 'Fail');
    assert.equal(w.sideEffects, 'None');
    assert.equal(w.timeoutSeconds, 15);
    assert.deepEqual(w.objectSelector, { matchExpressions: [{ key: 'validation.landscaper.gardener.cloud/skip-validation', operator: 'NotIn', values: ['true'] }] });
  }
});
