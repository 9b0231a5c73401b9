// apiVersion strings split into group and version, and back, as apimachinery's schema package does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiVersionOf, formatGroupVersionKind, groupOf, parseApiVersion } from '../../src/apimachinery/group-version.ts';

test('an apiVersion without a slash is the core group', () => {
  assert.deepEqual(parseApiVersion('v1'), { group: '', version: 'v1' });
  assert.equal(groupOf('v1'), '');
  assert.equal(apiVersionOf({ group: '', version: 'v1' }), 'v1');
});

test('a named group is everything before the first slash', () => {
  assert.deepEqual(parseApiVersion('apps/v1'), { group: 'apps', version: 'v1' });
  assert.deepEqual(parseApiVersion('a/b/c'), { group: 'a', version: 'b/c' });
  assert.equal(groupOf('landscaper.gardener.cloud/v1alpha1'), 'landscaper.gardener.cloud');
  assert.equal(apiVersionOf({ group: 'apps', version: 'v1' }), 'apps/v1');
});

test('a GroupVersionKind prints as Go prints it', () => {
  assert.equal(formatGroupVersionKind({ group: 'admission.k8s.io', version: 'v1', kind: 'AdmissionReview' }), 'admission.k8s.io/v1, Kind=AdmissionReview');
  assert.equal(formatGroupVersionKind({ group: '', version: '', kind: '' }), '/, Kind=');
});
