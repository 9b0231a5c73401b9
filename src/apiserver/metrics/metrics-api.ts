// metrics.k8s.io/v1beta1 as metrics-server serves it through the aggregation layer, built in: NodeMetrics and
// PodMetrics from the Ready nodes' kubelet Summaries, asked for when a request comes. CPU in nanocores,
// memory (the working set, as metrics-server) in Ki; pods are selected by namespace, label and field
// selectors like any list, and those without a reading (not running, node not Ready) are left out.
import type { KubeObject } from '../../apimachinery/object.ts';
import { errors, StatusError } from '../../apimachinery/status-error.ts';
import type { HandlerContext } from '../handlers/context.ts';
import { selectionFor } from '../handlers/selection.ts';
import { storageKey } from '../registry/resource-type.ts';
import { NodeSummaries, type NodeReading, type SummaryUsage } from './node-summaries.ts';

export const METRICS_GROUP = 'metrics.k8s.io';
export const METRICS_VERSION = 'v1beta1';
const API_VERSION = `${METRICS_GROUP}/${METRICS_VERSION}`;
const PATH = /^\/apis\/metrics\.k8s\.io(?:\/v1beta1(?:\/(?:namespaces\/([^/]+)\/)?(nodes|pods)(?:\/([^/]+))?)?)?$/;

const RESOURCES = [
  { name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list'] },
  { name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] },
];

/** The group in the legacy /apis list. */
export const metricsApiGroup = { name: METRICS_GROUP, versions: [{ groupVersion: API_VERSION, version: METRICS_VERSION }], preferredVersion: { groupVersion: API_VERSION, version: METRICS_VERSION } };

/** The group in aggregated discovery (/apis with apidiscovery.k8s.io). */
export const metricsAggregatedGroup = {
  metadata: { name: METRICS_GROUP, creationTimestamp: null },
  versions: [
    {
      version: METRICS_VERSION,
      freshness: 'Current',
      resources: RESOURCES.map((r) => ({ resource: r.name, responseKind: { group: METRICS_GROUP, version: METRICS_VERSION, kind: r.kind }, scope: r.namespaced ? 'Namespaced' : 'Cluster', singularResource: r.name.replace(/s$/, ''), verbs: r.verbs })),
    },
  ],
};

// One cache per API server (tests run several in one process).
const summariesOf = new WeakMap<HandlerContext, NodeSummaries>();

function usage(reading: SummaryUsage): { cpu: string; memory: string } {
  return { cpu: `${Math.round(reading.cpu?.usageNanoCores ?? 0)}n`, memory: `${Math.round((reading.memory?.workingSetBytes ?? 0) / 1024)}Ki` };
}

function timing(reading: NodeReading, time: string | undefined): { timestamp: string; window: string } {
  return { timestamp: time ?? new Date(reading.atMs).toISOString().replace(/\.\d+Z$/, 'Z'), window: `${reading.windowSeconds}s` };
}

function metadata(object: KubeObject): Record<string, unknown> {
  const { name, namespace, labels, creationTimestamp } = object.metadata;
  return { name, ...(namespace !== undefined ? { namespace } : {}), creationTimestamp: creationTimestamp ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'), ...(labels ? { labels } : {}) };
}

async function readings(ctx: HandlerContext): Promise<Map<string, NodeReading>> {
  const nodes = ctx.store.list(storageKey(ctx.registry.byStorageKey('/nodes')!)).map((s) => s.object);
  let summaries = summariesOf.get(ctx);
  if (summaries === undefined) summariesOf.set(ctx, (summaries = new NodeSummaries()));
  const { readings: found, failures } = await summaries.read(ctx, nodes);
  if (found.size === 0) {
    const why = failures.length > 0 ? failures.join('; ') : 'no node is Ready';
    throw new StatusError(503, 'ServiceUnavailable', `unable to fetch metrics from any node: ${why}`);
  }
  return found;
}

async function nodeMetrics(ctx: HandlerContext, name: string | undefined, query: URLSearchParams): Promise<unknown> {
  const type = ctx.registry.byStorageKey('/nodes')!;
  const select = selectionFor(type, undefined, query);
  const nodes = ctx.store.list(storageKey(type)).map((s) => s.object).filter((n) => (name === undefined ? select(n) : n.metadata.name === name));
  const found = await readings(ctx);
  const items = nodes.flatMap((node) => {
    const reading = found.get(node.metadata.name ?? '');
    if (reading === undefined) return [];
    const { node: stats } = reading.summary;
    return [{ metadata: metadata(node), ...timing(reading, stats.cpu?.time), usage: usage(stats) }];
  });
  // metrics-server's NotFound names the resource nodemetrics / podmetrics (namespace/name), not nodes / pods.
  if (name !== undefined) {
    if (items.length === 0) throw errors.notFound({ group: METRICS_GROUP, resource: 'nodemetrics' }, name);
    return { kind: 'NodeMetrics', apiVersion: API_VERSION, ...items[0] };
  }
  return { kind: 'NodeMetricsList', apiVersion: API_VERSION, metadata: {}, items: items.map((i) => ({ kind: 'NodeMetrics', apiVersion: API_VERSION, ...i })) };
}

async function podMetrics(ctx: HandlerContext, namespace: string | undefined, name: string | undefined, query: URLSearchParams): Promise<unknown> {
  const type = ctx.registry.byStorageKey('/pods')!;
  const select = selectionFor(type, namespace, query);
  const pods = ctx.store
    .list(storageKey(type), namespace)
    .map((s) => s.object)
    .filter((p) => (name === undefined ? select(p) : p.metadata.name === name));
  const found = await readings(ctx);
  const items = pods.flatMap((pod) => {
    const nodeName = (pod['spec'] as { nodeName?: string } | undefined)?.nodeName ?? '';
    const reading = found.get(nodeName);
    const stats = reading?.summary.pods.find((p) => p.podRef.uid === pod.metadata.uid);
    if (reading === undefined || stats === undefined) return [];
    return [{ metadata: metadata(pod), ...timing(reading, stats.cpu?.time), containers: stats.containers.map((c) => ({ name: c.name, usage: usage(c) })) }];
  });
  if (name !== undefined) {
    if (items.length === 0) throw errors.notFound({ group: METRICS_GROUP, resource: 'podmetrics' }, `${namespace ?? ''}/${name}`);
    return { kind: 'PodMetrics', apiVersion: API_VERSION, ...items[0] };
  }
  return { kind: 'PodMetricsList', apiVersion: API_VERSION, metadata: {}, items: items.map((i) => ({ kind: 'PodMetrics', apiVersion: API_VERSION, ...i })) };
}

/** The answer to a GET under /apis/metrics.k8s.io, or undefined when the path is not in the group. */
export async function metricsApiAnswer(ctx: HandlerContext, method: string, path: string, query: URLSearchParams): Promise<unknown> {
  const match = PATH.exec(path);
  if (!match) return undefined;
  if (method !== 'GET') throw errors.methodNotAllowed(`the server does not allow this method on the requested resource`);
  const [, namespace, resource, name] = match.map((part) => (part === undefined ? undefined : decodeURIComponent(part)));
  if (path === `/apis/${METRICS_GROUP}`) return { kind: 'APIGroup', apiVersion: 'v1', ...metricsApiGroup };
  if (resource === undefined) return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: API_VERSION, resources: RESOURCES };
  if (resource === 'nodes' && namespace !== undefined) throw errors.pathNotFound();
  return resource === 'nodes' ? nodeMetrics(ctx, name, query) : podMetrics(ctx, namespace, name, query);
}
