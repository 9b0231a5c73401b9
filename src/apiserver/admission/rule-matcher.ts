// Whether a webhook rule covers a request, as kube-apiserver's rules.Matcher decides: operations, API groups,
// versions, resources (with `*`, `pods/*`, `*\/status`, `*\/*`: a subresource is its own resource) and scope.
import type { AdmissionOperation } from '../../apimachinery/admission-review.ts';
import type { GroupVersionResource } from '../../apimachinery/group-version.ts';
import type { RuleWithOperations } from '../../apimachinery/webhook-configuration.ts';

export interface RuleTarget {
  operation: AdmissionOperation;
  resource: GroupVersionResource;
  subresource: string;
  /** As admission sees it: the request's namespace, and for a Namespace object its own name. */
  namespace: string;
}

function exactOrWildcard(items: readonly string[], requested: string): boolean {
  return items.some((item) => item === '*' || item === requested);
}

function isNamespaceResource(r: GroupVersionResource): boolean {
  return r.group === '' && r.version === 'v1' && r.resource === 'namespaces';
}

function scopeMatches(rule: RuleWithOperations, target: RuleTarget): boolean {
  switch (rule.scope ?? '*') {
    case '*':
      return true;
    // Namespace objects are cluster-scoped even though admission gives them a namespace (their own name).
    case 'Namespaced':
      return !isNamespaceResource(target.resource) && target.namespace !== '';
    case 'Cluster':
      return isNamespaceResource(target.resource) || target.namespace === '';
    default:
      return false;
  }
}

function resourceMatches(rule: RuleWithOperations, target: RuleTarget): boolean {
  for (const entry of rule.resources) {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    if ((res === '*' || res === target.resource.resource) && (sub === '*' || sub === target.subresource)) return true;
  }
  return false;
}

export function ruleMatches(rule: RuleWithOperations, target: RuleTarget): boolean {
  return (
    scopeMatches(rule, target) &&
    rule.operations.some((op) => op === '*' || op === target.operation) &&
    exactOrWildcard(rule.apiGroups, target.resource.group) &&
    exactOrWildcard(rule.apiVersions, target.resource.version) &&
    resourceMatches(rule, target)
  );
}
