// Checks logged API requests against RBAC rules the way the API server's RBAC authorizer matches them, so a
// test can show that a family's declared rules cover what its controllers really did.
import { parseRequestPath } from '../../src/apiserver/http/request-info.ts';
import type { RequestLogEntry } from '../../src/apiserver/router.ts';
import type { PolicyRule } from '../../src/runtime/family.ts';

const covers = (list: readonly string[], value: string): boolean => list.includes('*') || list.includes(value);

/**
 * The resource requests no rule allows, each as "verb group/resource[/subresource]" (deduplicated). Discovery
 * and other non-resource paths are left out: every authenticated user may read them (system:discovery).
 */
export function unauthorizedRequests(requests: readonly RequestLogEntry[], rules: readonly PolicyRule[]): string[] {
  const denied = new Set<string>();
  for (const entry of requests) {
    const url = new URL(entry.url, 'https://apiserver');
    const info = parseRequestPath(entry.method, url.pathname, url.searchParams);
    if (info?.kind !== 'resource') continue;
    const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
    const named = (r: PolicyRule): boolean => r.resourceNames === undefined || (info.name !== undefined && r.resourceNames.includes(info.name));
    const allowed = rules.some((r) => covers(r.apiGroups, info.group) && covers(r.resources, resource) && covers(r.verbs, info.verb) && named(r));
    if (!allowed) denied.add(`${info.verb} ${info.group || 'core'}/${resource}`);
  }
  return [...denied].sort();
}
