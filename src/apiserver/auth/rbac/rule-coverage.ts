// Whether one set of rules covers another, as kube's validation.Covers: the requested rules are broken down into
// one verb, group, resource and name each, and each piece must be allowed by some owner rule. What is missing is
// compacted (verbs of one group/resource merged) and printed as kube's rbacv1helpers.CompactString.
import type { RbacPolicyRule } from '../../../apimachinery/rbac.ts';

const ALL = '*';

function breakdown(rule: RbacPolicyRule): RbacPolicyRule[] {
  const pieces: RbacPolicyRule[] = [];
  for (const verb of rule.verbs) {
    for (const url of rule.nonResourceURLs ?? []) pieces.push({ verbs: [verb], nonResourceURLs: [url] });
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        const names = rule.resourceNames ?? [];
        if (names.length === 0) pieces.push({ verbs: [verb], apiGroups: [group], resources: [resource] });
        for (const name of names) pieces.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [name] });
      }
    }
  }
  return pieces;
}

const coversAll = (owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean =>
  (owner ?? []).includes(ALL) || (wanted ?? []).every((w) => (owner ?? []).includes(w));

function resourcesCovered(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (coversAll(owner, wanted)) return true;
  return (wanted ?? []).every((resource) => {
    if ((owner ?? []).includes(resource)) return true;
    const slash = resource.indexOf('/');
    return slash > 0 && (owner ?? []).includes(`*/${resource.slice(slash + 1)}`);
  });
}

function urlsCovered(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  return (wanted ?? []).every((url) => (owner ?? []).some((o) => o === ALL || o === url || (o.endsWith(ALL) && url.startsWith(o.slice(0, -1)))));
}

function ruleCovers(owner: RbacPolicyRule, wanted: RbacPolicyRule): boolean {
  const ownerNames = owner.resourceNames ?? [];
  return (
    coversAll(owner.verbs, wanted.verbs) &&
    coversAll(owner.apiGroups, wanted.apiGroups) &&
    resourcesCovered(owner.resources, wanted.resources) &&
    urlsCovered(owner.nonResourceURLs, wanted.nonResourceURLs) &&
    (ownerNames.length === 0 || ((wanted.resourceNames ?? []).length > 0 && coversAll(ownerNames, wanted.resourceNames)))
  );
}

/** The pieces of `wanted` no owner rule covers (empty: covered). */
export function uncoveredRules(owner: readonly RbacPolicyRule[], wanted: readonly RbacPolicyRule[]): RbacPolicyRule[] {
  return wanted.flatMap(breakdown).filter((piece) => !owner.some((o) => ruleCovers(o, piece)));
}

/** kube's CompactRules: single-group, single-resource rules without names merge their verbs. */
function compact(rules: readonly RbacPolicyRule[]): RbacPolicyRule[] {
  const merged = new Map<string, RbacPolicyRule>();
  const rest: RbacPolicyRule[] = [];
  for (const rule of rules) {
    if ((rule.nonResourceURLs ?? []).length > 0 || (rule.resourceNames ?? []).length > 0) {
      rest.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups, rule.resources]);
    const seen = merged.get(key);
    merged.set(key, seen ? { ...seen, verbs: [...seen.verbs, ...rule.verbs.filter((v) => !seen.verbs.includes(v))] } : rule);
  }
  return [...merged.values(), ...rest];
}

export const goStrings = (list: readonly string[]): string => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

/** rbacv1helpers.CompactString. */
function compactString(rule: RbacPolicyRule): string {
  const parts: string[] = [];
  if ((rule.apiGroups ?? []).length > 0) parts.push(`APIGroups:${goStrings(rule.apiGroups!)}`);
  if ((rule.resources ?? []).length > 0) parts.push(`Resources:${goStrings(rule.resources!)}`);
  if ((rule.nonResourceURLs ?? []).length > 0) parts.push(`NonResourceURLs:${goStrings(rule.nonResourceURLs!)}`);
  if ((rule.resourceNames ?? []).length > 0) parts.push(`ResourceNames:${goStrings(rule.resourceNames!)}`);
  if (rule.verbs.length > 0) parts.push(`Verbs:${goStrings(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** The missing rules, one a line, sorted, as kube's escalation message lists them. */
export function describeMissing(missing: readonly RbacPolicyRule[]): string {
  return [...new Set(compact(missing).map(compactString))].sort().join('\n');
}


