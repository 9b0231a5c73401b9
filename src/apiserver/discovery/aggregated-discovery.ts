// Aggregated discovery (KEP-3352): the whole API in two documents. Clients recognise it by Content-Type only.
import type { ResourceRegistry } from '../registry/registry.ts';

const mediaTypes = [
  { version: 'v2', accept: 'g=apidiscovery.k8s.io;v=v2;as=apigroupdiscoverylist' },
  { version: 'v2beta1', accept: 'g=apidiscovery.k8s.io;v=v2beta1;as=apigroupdiscoverylist' },
] as const;

/** The aggregated discovery version the client accepts, if any (v2 preferred). */
export function acceptedAggregatedVersion(accept: string | undefined): 'v2' | 'v2beta1' | undefined {
  if (!accept) return undefined;
  const ranges = accept.toLowerCase().split(',').map((r) => r.split(';').map((p) => p.trim()).slice(1).sort().join(';'));
  for (const media of mediaTypes) {
    const wanted = media.accept.split(';').sort().join(';');
    if (ranges.includes(wanted)) return media.version;
  }
  return undefined;
}

export function aggregatedContentType(version: 'v2' | 'v2beta1'): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

export function aggregatedDiscovery(registry: ResourceRegistry, core: boolean, version: 'v2' | 'v2beta1'): unknown {
  const groups = registry.groups().filter((g) => (g.group === '') === core);
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map((g) => ({
      metadata: { name: g.group, creationTimestamp: null },
      versions: g.versions.map((v) => ({
        version: v,
        freshness: 'Current',
        resources: registry.resourcesOf(g.group, v).map((t) => {
          const resource: Record<string, unknown> = {
            resource: t.plural,
            responseKind: { group: t.group, version: t.version, kind: t.kind },
            scope: t.namespaced ? 'Namespaced' : 'Cluster',
            singularResource: t.singular,
            verbs: t.verbs,
          };
          if (t.shortNames.length > 0) resource['shortNames'] = t.shortNames;
          if (t.categories.length > 0) resource['categories'] = t.categories;
          const subresources: unknown[] = [];
          if (t.statusSubresource) subresources.push({ subresource: 'status', responseKind: { group: t.group, version: t.version, kind: t.kind }, verbs: ['get', 'patch', 'update'] });
          for (const s of t.subresources ?? []) subresources.push({ subresource: s.name, responseKind: { group: s.group, version: s.version, kind: s.kind }, verbs: s.verbs });
          if (subresources.length > 0) resource['subresources'] = subresources;
          return resource;
        }),
      })),
    })),
  };
}
