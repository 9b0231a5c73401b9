// What the validating webhook reads from the cluster, uncached and paginated as upstream's API reader does:
// the target counts of the countTooLarge net, and a disruption's chaos pods for the finalizer guard.
import type { Service } from '../../apimachinery/api/index.ts';
import { nodesResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import { formatLabelSelector, fromLabelSelectorObject, type LabelSelectorObject } from '../../apimachinery/label-selector.ts';
import type { KubeClient, ListOptions } from '../../client/client.ts';
import type { ResourceRef } from '../../apimachinery/resource-ref.ts';
import { DISRUPTION_NAME_LABEL, DISRUPTION_NAMESPACE_LABEL } from '../api/constants.ts';
import type { Disruption } from '../api/types.ts';
import { NotFoundError } from '../../client/errors.ts';
import { serviceKey, type ServiceInfo, type ServiceLookup, type TargetCounts } from '../validation/index.ts';

const PAGE_SIZE = 1000;

const servicesResource: ResourceRef = { group: '', version: 'v1', resource: 'services', namespaced: true, kind: 'Service' };

async function count(client: KubeClient, resource: ResourceRef, options: ListOptions): Promise<number> {
  let total = 0;
  let next: string | undefined;
  do {
    const page = await client.list(resource, { ...options, limit: PAGE_SIZE, ...(next ? { continue: next } : {}) });
    total += page.items.length;
    next = page.metadata.continue || undefined;
  } while (next);
  return total;
}

/** selector and advancedSelector ANDed, as a label selector string. */
export function targetSelector(d: Disruption): string {
  const object = { matchLabels: d.spec.selector ?? {}, matchExpressions: d.spec.advancedSelector ?? [] } as LabelSelectorObject;
  return formatLabelSelector(fromLabelSelectorObject(object));
}

/**
 * Matching targets and the totals they are compared to. Upstream counts matches by `selector` alone and at node
 * level not at all (so the net never catches a node-level disruption); here both selectors count, at both levels.
 */
export async function countTargets(client: KubeClient, d: Disruption): Promise<TargetCounts> {
  const labelSelector = targetSelector(d);
  if (d.spec.level === 'node') {
    const [matching, cluster] = await Promise.all([count(client, nodesResource, { labelSelector }), count(client, nodesResource, {})]);
    return { matching, namespace: 0, cluster };
  }
  const namespace = d.metadata.namespace ?? 'default';
  const [matching, inNamespace, cluster] = await Promise.all([
    count(client, podsResource, { namespace, labelSelector }),
    count(client, podsResource, { namespace }),
    count(client, podsResource, {}),
  ]);
  return { matching, namespace: inNamespace, cluster };
}

/** The disruption's chaos pods as "namespace/name" (owned by label: they live in the chaos namespace). */
export async function chaosPodNames(client: KubeClient, chaosNamespace: string, d: Disruption): Promise<string[]> {
  const labelSelector = `${DISRUPTION_NAME_LABEL}=${d.metadata.name ?? ''},${DISRUPTION_NAMESPACE_LABEL}=${d.metadata.namespace ?? ''}`;
  const pods = await client.list(podsResource, { namespace: chaosNamespace, labelSelector });
  return pods.items.map((p) => `${p.metadata.namespace ?? chaosNamespace}/${p.metadata.name ?? ''}`);
}

/** The Services network.services names, or undefined for each that does not exist. */
export async function lookupServices(client: KubeClient, d: Disruption): Promise<ServiceLookup> {
  const found = new Map<string, ServiceInfo | undefined>();
  for (const s of d.spec.network?.services ?? []) {
    if (!s.namespace || !s.name || found.has(serviceKey(s.namespace, s.name))) continue;
    try {
      const svc = await client.get<Service>(servicesResource, s.name, { namespace: s.namespace });
      found.set(serviceKey(s.namespace, s.name), { type: svc.spec?.type ?? 'ClusterIP', ports: svc.spec?.ports ?? [] });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      found.set(serviceKey(s.namespace, s.name), undefined);
    }
  }
  return found;
}
