// The Forbidden status kube-apiserver answers a denied request with, word for word
// (responsewriters.forbiddenMessage and errors.NewForbidden).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forbidden, requestAttributes } from '../../../src/apiserver/auth/authorizer.ts';

const jane = { username: 'jane', groups: ['system:authenticated'] };

const cases: { name: string; attributes: ReturnType<typeof requestAttributes>; reason: string; message: string }[] = [
  {
    name: 'a namespaced list',
    attributes: requestAttributes(jane, { kind: 'resource', group: '', version: 'v1', namespace: 'default', resource: 'pods', name: undefined, subresource: undefined, verb: 'list' }, 'GET'),
    reason: '',
    message: 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"',
  },
  {
    name: 'a named object in a group, with a reason',
    attributes: requestAttributes(jane, { kind: 'resource', group: 'apps', version: 'v1', namespace: 'ns', resource: 'deployments', name: 'web', subresource: 'scale', verb: 'update' }, 'PUT'),
    reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "x" not found',
    message:
      'deployments.apps "web" is forbidden: User "jane" cannot update resource "deployments/scale" in API group "apps" in the namespace "ns": RBAC: clusterrole.rbac.authorization.k8s.io "x" not found',
  },
  {
    name: 'a cluster-scoped resource',
    attributes: requestAttributes(jane, { kind: 'resource', group: '', version: 'v1', namespace: undefined, resource: 'nodes', name: undefined, subresource: undefined, verb: 'watch' }, 'GET'),
    reason: '',
    message: 'nodes is forbidden: User "jane" cannot watch resource "nodes" in API group "" at the cluster scope',
  },
  {
    name: 'a non-resource path',
    attributes: requestAttributes(jane, { kind: 'nonresource', path: '/version' }, 'GET'),
    reason: '',
    message: 'forbidden: User "jane" cannot get path "/version"',
  },
];

for (const c of cases) {
  test(`Forbidden: ${c.name}`, () => {
    const error = forbidden(c.attributes, c.reason);
    assert.equal(error.code, 403);
    assert.equal(error.reason, 'Forbidden');
    assert.equal(error.message, c.message);
  });
}
