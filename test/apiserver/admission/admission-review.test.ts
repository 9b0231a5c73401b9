// The AdmissionReview request shape and the checks an answer must pass, and the Status a denial becomes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { webhookDenied } from '../../../src/apiserver/admission/admission-errors.ts';
import { admissionRequest, verifyAdmissionResponse } from '../../../src/apiserver/admission/admission-review.ts';

describe('AdmissionReview', () => {
  test('the request leaves out empty subResource, name and namespace, as Go omitempty does', () => {
    const gvk = { group: '', version: 'v1', kind: 'Namespace' };
    const gvr = { group: '', version: 'v1', resource: 'namespaces' };
    const request = admissionRequest({
      uid: 'u',
      kind: gvk,
      resource: gvr,
      subResource: '',
      requestKind: gvk,
      requestResource: gvr,
      requestSubResource: '',
      name: '',
      namespace: '',
      operation: 'CREATE',
      userInfo: { username: 'a', groups: [] },
      object: { metadata: {} },
      oldObject: undefined,
      dryRun: false,
      options: undefined,
    });
    assert.deepEqual(Object.keys(request), ['uid', 'kind', 'resource', 'requestKind', 'requestResource', 'operation', 'userInfo', 'object', 'oldObject', 'dryRun', 'options']);
    assert.equal(request.oldObject, null);
    assert.equal(request.options, null);
  });

  test('v1 answers must echo the uid and be admission.k8s.io/v1 AdmissionReview; mutating patches need a patchType', () => {
    const review = (response: Record<string, unknown>, extra: Record<string, unknown> = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }) => ({ ...extra, response });
    assert.throws(() => verifyAdmissionResponse('v1', 'u', false, {}), { message: 'webhook response was absent' });
    assert.throws(() => verifyAdmissionResponse('v1', 'u', false, review({ uid: 'x', allowed: true })), { message: 'expected response.uid="u", got "x"' });
    assert.throws(() => verifyAdmissionResponse('v1', 'u', false, review({ uid: 'u', allowed: true }, { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview' })), {
      message: 'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview',
    });
    assert.throws(() => verifyAdmissionResponse('v1', 'u', true, review({ uid: 'u', allowed: true, patch: 'W10=' })), { message: 'webhook returned response.patch but not response.patchType' });
    assert.throws(() => verifyAdmissionResponse('v1', 'u', true, review({ uid: 'u', allowed: true, patchType: 'JSONPatch' })), { message: 'webhook returned response.patchType but not response.patch' });
    assert.throws(() => verifyAdmissionResponse('v1', 'u', false, review({ uid: 'u', allowed: true, patchType: 'JSONPatch' })), { message: 'validating webhook may not return response.patchType' });
    const ok = verifyAdmissionResponse('v1', 'u', true, review({ uid: 'u', allowed: true, patchType: 'JSONPatch', patch: 'W10=', warnings: ['w'] }));
    assert.deepEqual({ ...ok, patch: ok.patch?.toString() }, { allowed: true, result: undefined, patch: '[]', patchType: 'JSONPatch', warnings: ['w'] });
  });

  test('v1beta1 answers are not checked for uid or kind, and a patch is a JSON patch', () => {
    const ok = verifyAdmissionResponse('v1beta1', 'u', true, { response: { allowed: false, patch: 'W10=', status: { message: 'm' } } });
    assert.deepEqual({ ...ok, patch: ok.patch?.toString() }, { allowed: false, result: { message: 'm' }, patch: '[]', patchType: 'JSONPatch', warnings: [] });
  });

  test('a denial: the webhook code (500 when none, 200 for a Success status), its reason and details, the explanation', () => {
    assert.deepEqual(webhookDenied('w.example.com', { code: 403, reason: 'Forbidden', message: 'no' }).toStatus(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'admission webhook "w.example.com" denied the request: no',
      reason: 'Forbidden',
      code: 403,
    });
    assert.equal(webhookDenied('w', undefined).code, 500);
    assert.equal(webhookDenied('w', undefined).message, 'admission webhook "w" denied the request without explanation');
    assert.equal(webhookDenied('w', { status: 'Success' }).code, 200);
    assert.equal(webhookDenied('w', { reason: 'Because' }).message, 'admission webhook "w" denied the request: Because');
  });
});
