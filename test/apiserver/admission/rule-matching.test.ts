// Rule matching as kube-apiserver's rules.Matcher does it, case by case (the HTTP tests cover the wiring).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ruleMatches, type RuleTarget } from '../../../src/apiserver/admission/rule-matcher.ts';
import type { RuleWithOperations } from '../../../src/apimachinery/webhook-configuration.ts';

const rule = (resources: string[], extra: Partial<RuleWithOperations> = {}): RuleWithOperations => ({
  operations: ['*'],
  apiGroups: ['*'],
  apiVersions: ['*'],
  resources,
  scope: '*',
  ...extra,
});

const target = (resource: string, subresource = '', extra: Partial<RuleTarget> = {}): RuleTarget => ({
  operation: 'CREATE',
  resource: { group: 'landscaper.gardener.cloud', version: 'v1alpha1', resource },
  subresource,
  namespace: 'default',
  ...extra,
});

describe('webhook rule matching', () => {
  test('resources: a subresource is its own resource; `x/*` and `*/*` cover the resource and its subresources', () => {
    const cases: [string[], string, string, boolean][] = [
      [['deployitems'], 'deployitems', '', true],
      [['deployitems'], 'deployitems', 'status', false],
      [['deployitems/status'], 'deployitems', 'status', true],
      [['deployitems/status'], 'deployitems', '', false],
      [['deployitems/*'], 'deployitems', 'status', true],
      [['deployitems/*'], 'deployitems', '', true],
      [['deployitems/*'], 'executions', 'status', false],
      [['*'], 'deployitems', '', true],
      [['*'], 'deployitems', 'status', false],
      [['*/status'], 'executions', 'status', true],
      [['*/status'], 'executions', 'scale', false],
      [['*/*'], 'executions', 'status', true],
      [['*/*'], 'executions', '', true],
      [['installations', 'deployitems'], 'deployitems', '', true],
    ];
    for (const [resources, resource, subresource, expected] of cases) {
      assert.equal(ruleMatches(rule(resources), target(resource, subresource)), expected, `${JSON.stringify(resources)} vs ${resource}/${subresource}`);
    }
  });

  test('operations, groups and versions are exact or *', () => {
    assert.equal(ruleMatches(rule(['*'], { operations: ['UPDATE', 'DELETE'] }), target('deployitems')), false);
    assert.equal(ruleMatches(rule(['*'], { operations: ['CREATE'] }), target('deployitems')), true);
    assert.equal(ruleMatches(rule(['*'], { apiGroups: [''] }), target('deployitems')), false);
    assert.equal(ruleMatches(rule(['*'], { apiGroups: ['landscaper.gardener.cloud'] }), target('deployitems')), true);
    assert.equal(ruleMatches(rule(['*'], { apiVersions: ['v1'] }), target('deployitems')), false);
    assert.equal(ruleMatches(rule(['*'], { apiVersions: ['v1', 'v1alpha1'] }), target('deployitems')), true);
  });

  test('scope: a Namespace object is cluster-scoped although admission gives it a namespace', () => {
    const namespaceObject: RuleTarget = { operation: 'CREATE', resource: { group: '', version: 'v1', resource: 'namespaces' }, subresource: '', namespace: 'team-a' };
    const clusterScoped = target('targets', '', { namespace: '' });
    const namespaced = target('deployitems');
    for (const [scope, expected] of [
      ['Cluster', [true, true, false]],
      ['Namespaced', [false, false, true]],
      ['*', [true, true, true]],
    ] as const) {
      assert.deepEqual(
        [namespaceObject, clusterScoped, namespaced].map((t) => ruleMatches(rule(['*'], { scope }), t)),
        expected,
        scope,
      );
    }
  });
});
