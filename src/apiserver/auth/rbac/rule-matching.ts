// Whether one policy rule allows a request, as kube's rbac.RuleAllows: `*` matches any verb, group, resource or
// URL; `*/scale` matches the scale subresource of any resource (a plain resource does not cover its
// subresources); resourceNames limit the rule to those names; a non-resource URL ending in `*` is a prefix.
import type { RbacPolicyRule, Subject } from '../../../apimachinery/rbac.ts';
import type { RequestAttributes } from '../authorizer.ts';
import type { UserInfo } from '../user-info.ts';

const ALL = '*';

const has = (list: readonly string[] | undefined, value: string): boolean => (list ?? []).some((item) => item === ALL || item === value);

function resourceMatches(rule: RbacPolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some(
    (resource) => resource === ALL || resource === combined || (subresource !== '' && resource.length === subresource.length + 2 && resource.startsWith('*/') && resource.endsWith(subresource)),
  );
}

function nonResourceURLMatches(rule: RbacPolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((url) => url === ALL || url === path || (url.endsWith(ALL) && path.startsWith(url.slice(0, -1))));
}

export function ruleAllows(attributes: RequestAttributes, rule: RbacPolicyRule): boolean {
  if (!has(rule.verbs, attributes.verb)) return false;
  if (!attributes.resourceRequest) return nonResourceURLMatches(rule, attributes.path);
  const combined = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const names = rule.resourceNames ?? [];
  return has(rule.apiGroups, attributes.apiGroup) && resourceMatches(rule, combined, attributes.subresource) && (names.length === 0 || names.includes(attributes.name));
}

/** kube's appliesToUser: a ServiceAccount subject without a namespace takes the binding's. */
export function subjectApplies(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.username === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace;
      return namespace !== '' && user.username === `system:serviceaccount:${namespace}:${subject.name}`;
    }
    default:
      return false;
  }
}
