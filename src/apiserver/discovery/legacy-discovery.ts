// Legacy discovery documents: /api, /api/v1, /apis, /apis/G, /apis/G/V — all generated from the registry.
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import { compareVersions, type ResourceRegistry } from '../registry/registry.ts';
import type { ResourceType } from '../registry/resource-type.ts';

function resourceEntries(types: ResourceType[]): unknown[] {
  const entries: unknown[] = [];
  // Main resources before their subresources: client-node picks the first entry whose kind matches.
  for (const t of types) {
    const entry: Record<string, unknown> = { name: t.plural, singularName: t.singular, namespaced: t.namespaced, kind: t.kind, verbs: t.verbs };
    if (t.shortNames.length > 0) entry['shortNames'] = t.shortNames;
    if (t.categories.length > 0) entry['categories'] = t.categories;
    entries.push(entry);
  }
  for (const t of types) {
    if (t.statusSubresource) entries.push({ name: `${t.plural}/status`, singularName: '', namespaced: t.namespaced, kind: t.kind, verbs: ['get', 'patch', 'update'] });
    // group and version name the subresource's own kind (kubectl drain finds policy/v1 Eviction this way).
    for (const s of t.subresources ?? []) {
      entries.push({ name: `${t.plural}/${s.name}`, singularName: '', namespaced: t.namespaced, group: s.group, version: s.version, kind: s.kind, verbs: s.verbs });
    }
  }
  return entries;
}

export function apiVersions(host: string): unknown {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: host }] };
}

export function resourceList(registry: ResourceRegistry, group: string, version: string): unknown | undefined {
  const types = registry.resourcesOf(group, version);
  if (types.length === 0) return undefined;
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group, version }), resources: resourceEntries(types) };
}

function apiGroup(group: string, versions: string[]): Record<string, unknown> {
  const gvs = [...versions].sort(compareVersions).map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions: gvs, preferredVersion: gvs[0] };
}

export function apiGroupList(registry: ResourceRegistry): unknown {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: registry.groups().filter((g) => g.group !== '').map((g) => apiGroup(g.group, g.versions)),
  };
}

export function apiGroupDocument(registry: ResourceRegistry, group: string): unknown | undefined {
  const found = registry.groups().find((g) => g.group === group && group !== '');
  return found ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(found.group, found.versions) } : undefined;
}
