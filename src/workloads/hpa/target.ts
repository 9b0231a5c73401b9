// What the autoscaler reads and writes through the API: the target's autoscaling/v1 Scale (its /scale
// subresource, so any kind that serves one can be scaled) and the pods' readings from metrics.k8s.io/v1beta1,
// as the upstream controller's scale client and resource metrics client do.
import type { CrossVersionObjectReference, Scale } from '../../apimachinery/api/index.ts';
import { parseGoDuration } from '../../apimachinery/duration.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import { milliValue } from '../../apimachinery/quantity.ts';
import type { KubeClient, ResourceRef } from '../../client/client.ts';
import { messageOf } from '../../runtime/index.ts';
import type { PodMetric } from './replica-calculator.ts';

const podMetricsResource: ResourceRef = { group: 'metrics.k8s.io', version: 'v1beta1', resource: 'pods', namespaced: true, kind: 'PodMetrics' };

interface PodMetrics extends KubeObject {
  timestamp?: string;
  window?: string;
  containers?: { name: string; usage?: Record<string, string> }[];
}

/** The target's collection with its name appended: the client then addresses `<resource>/<name>/scale`. */
async function scaleRef(client: KubeClient, target: CrossVersionObjectReference, signal: AbortSignal): Promise<ResourceRef> {
  const ref = await client.resolve({ apiVersion: target.apiVersion ?? '', kind: target.kind }, { signal });
  return { ...ref, resource: `${ref.resource}/${encodeURIComponent(target.name)}`, kind: 'Scale' };
}

export async function getScale(client: KubeClient, target: CrossVersionObjectReference, namespace: string, signal: AbortSignal): Promise<Scale> {
  return client.get<Scale>(await scaleRef(client, target, signal), 'scale', { namespace, signal });
}

/** Sets spec.replicas with the read Scale's resourceVersion as a precondition (a conflict means read again). */
export async function updateScale(client: KubeClient, target: CrossVersionObjectReference, scale: Scale, replicas: number, signal: AbortSignal): Promise<void> {
  const body = { metadata: { resourceVersion: scale.metadata.resourceVersion }, spec: { replicas } };
  await client.patch(await scaleRef(client, target, signal), 'scale', body, { type: 'merge', namespace: scale.metadata.namespace ?? '', signal });
}

/** getPodMetrics: each pod's summed usage (of one container when named), in thousandths; a pod lacking a container's reading is left out. */
export async function podResourceMetrics(client: KubeClient, namespace: string, selector: string, resource: string, container: string | undefined, signal: AbortSignal): Promise<Map<string, PodMetric>> {
  let items: PodMetrics[];
  try {
    items = (await client.list<PodMetrics>(podMetricsResource, { namespace, labelSelector: selector, signal })).items;
  } catch (error) {
    throw new Error(`unable to get metrics for resource ${resource}: unable to fetch metrics from resource metrics API: ${messageOf(error)}`, { cause: error });
  }
  if (items.length === 0) throw new Error(`unable to get metrics for resource ${resource}: no metrics returned from resource metrics API`);
  const metrics = new Map<string, PodMetric>();
  for (const item of items) {
    const containers = (item.containers ?? []).filter((c) => container === undefined || c.name === container);
    if (containers.length === 0) continue;
    const values = containers.map((c) => c.usage?.[resource]);
    if (values.some((v) => v === undefined)) continue;
    metrics.set(item.metadata.name ?? '', {
      value: values.reduce((sum, v) => sum + milliValue(v ?? '0'), 0),
      timestampMs: Date.parse(item.timestamp ?? '') || 0,
      windowMs: item.window ? parseGoDuration(item.window) : 0,
    });
  }
  return metrics;
}
