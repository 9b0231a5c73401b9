// kube's RuleAllows and appliesToUser, case by case: wildcards, subresources, resource names, URL prefixes and
// the subjects a binding may name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requestAttributes } from '../../../src/apiserver/auth/authorizer.ts';
import { ruleAllows, subjectApplies } from '../../../src/apiserver/auth/rbac/rule-matching.ts';
import type { Verb } from '../../../src/apiserver/http/request-info.ts';

const jane = { username: 'jane', groups: ['dev', 'system:authenticated'] };
const robot = { username: 'system:serviceaccount:team:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'] };

function resource(verb: Verb, group: string, res: string, subresource?: string, name?: string) {
  return requestAttributes(jane, { kind: 'resource', group, version: 'v1', namespace: 'ns', resource: res, name, subresource, verb }, 'GET');
}

test('rules: wildcards, subresources and resource names as kube matches them', () => {
  assert.ok(ruleAllows(resource('get', 'apps', 'deployments'), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }));
  assert.ok(ruleAllows(resource('get', '', 'pods', 'log'), { verbs: ['get'], apiGroups: [''], resources: ['*'] }));
  assert.ok(!ruleAllows(resource('get', '', 'pods', 'log'), { verbs: ['get'], apiGroups: [''], resources: ['pods'] }), 'a plain resource does not cover its subresources');
  assert.ok(ruleAllows(resource('get', '', 'pods', 'log'), { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }));
  assert.ok(ruleAllows(resource('update', 'apps', 'deployments', 'scale'), { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] }));
  assert.ok(!ruleAllows(resource('update', 'apps', 'deployments', 'status'), { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] }));
  assert.ok(!ruleAllows(resource('get', 'apps', 'deployments'), { verbs: ['get'], apiGroups: [''], resources: ['deployments'] }), 'the group must match');
  assert.ok(ruleAllows(resource('get', '', 'configmaps', undefined, 'a'), { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }));
  assert.ok(!ruleAllows(resource('get', '', 'configmaps', undefined, 'b'), { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }));
  assert.ok(!ruleAllows(resource('list', '', 'configmaps'), { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }), 'a named rule does not allow a list');
});

test('non-resource URLs: exact, `*` and prefixes ending in `*`', () => {
  const path = (p: string) => requestAttributes(jane, { kind: 'nonresource', path: p }, 'GET');
  assert.ok(ruleAllows(path('/healthz'), { verbs: ['get'], nonResourceURLs: ['/healthz'] }));
  assert.ok(ruleAllows(path('/foo/bar/baz'), { verbs: ['get'], nonResourceURLs: ['/foo/*'] }));
  assert.ok(!ruleAllows(path('/foobar'), { verbs: ['get'], nonResourceURLs: ['/foo/*'] }));
  assert.ok(!ruleAllows(requestAttributes(jane, { kind: 'nonresource', path: '/healthz' }, 'POST'), { verbs: ['get'], nonResourceURLs: ['*'] }));
  assert.ok(!ruleAllows(resource('get', '', 'pods'), { verbs: ['get'], nonResourceURLs: ['*'] }));
});

test('subjects: users, groups and ServiceAccounts (namespace defaulting to the binding\'s)', () => {
  assert.ok(subjectApplies(jane, { kind: 'User', name: 'jane' }, ''));
  assert.ok(subjectApplies(jane, { kind: 'Group', name: 'dev' }, ''));
  assert.ok(subjectApplies(robot, { kind: 'Group', name: 'system:serviceaccounts:team' }, ''));
  assert.ok(subjectApplies(robot, { kind: 'ServiceAccount', name: 'robot' }, 'team'));
  assert.ok(!subjectApplies(robot, { kind: 'ServiceAccount', name: 'robot' }, 'other'));
  assert.ok(!subjectApplies(robot, { kind: 'ServiceAccount', name: 'robot' }, ''), 'a ServiceAccount without any namespace matches nobody');
  assert.ok(subjectApplies(robot, { kind: 'ServiceAccount', name: 'robot', namespace: 'team' }, ''));
});
