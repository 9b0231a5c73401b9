// Where a webhook's `clientConfig.service` is reached: a ready endpoint of the Service, read from this server's own
// store, as kube-apiserver resolves it with --enable-aggregator-routing (proxy.ResolveEndpoint). The API server runs
// on the host, which reaches pod IPs over the node's bridge, so no ClusterIP translation is needed. Errors carry
// kube's wording (`no endpoints available for service "NAME"`); the caller turns them into a call failure so the
// webhook's failurePolicy decides.
import { endpointSlicesResource, endpointsResource, servicesResource } from '../../apimachinery/builtin-resources.ts';
import type { Endpoints, Service } from '../../apimachinery/api/core-v1.ts';
import { SERVICE_NAME_LABEL, type EndpointSlice } from '../../apimachinery/api/discovery-v1.ts';
import { storageKey } from '../registry/resource-type.ts';
import type { SqliteStore } from '../storage/sqlite-store.ts';

export interface ServiceTarget {
  namespace: string;
  name: string;
  port: number;
}

/** A pod address and port to dial. */
export interface ResolvedEndpoint {
  host: string;
  port: number;
}

export class ServiceResolutionError extends Error {
  override readonly name = 'ServiceResolutionError' as const;
}

const key = (r: { group: string; resource: string }): string => storageKey({ group: r.group, plural: r.resource });

function pick<T>(candidates: readonly T[]): T | undefined {
  // kube picks a random ready endpoint: calls spread over the replicas.
  return candidates[Math.floor(Math.random() * candidates.length)];
}

/** The server name a webhook's certificate must carry for a service reference (kube's rule). */
export function serviceServerName(target: { namespace: string; name: string }): string {
  return `${target.name}.${target.namespace}.svc`;
}

/** A ready endpoint of the Service's port `target.port`; throws ServiceResolutionError with kube's message. */
export function resolveServiceEndpoint(store: SqliteStore, target: ServiceTarget): ResolvedEndpoint {
  const service = store.get(key(servicesResource), target.namespace, target.name)?.object as Service | undefined;
  if (!service) throw new ServiceResolutionError(`service ${JSON.stringify(target.name)} not found`);
  const type = service.spec?.type ?? 'ClusterIP';
  if (type !== 'ClusterIP' && type !== 'NodePort' && type !== 'LoadBalancer') throw new ServiceResolutionError(`unsupported service type ${JSON.stringify(type)}`);
  const servicePort = (service.spec?.ports ?? []).find((p) => p.port === target.port);
  if (!servicePort) throw new ServiceResolutionError(`no service port ${target.port} found for service ${JSON.stringify(target.name)}`);
  const portName = servicePort.name ?? '';

  const slices = store
    .list(key(endpointSlicesResource), target.namespace)
    .map((s) => s.object as EndpointSlice)
    .filter((s) => s.metadata.labels?.[SERVICE_NAME_LABEL] === target.name && s.addressType !== 'FQDN');
  const fromSlices: ResolvedEndpoint[] = [];
  for (const slice of slices) {
    const port = (slice.ports ?? []).find((p) => (p.name ?? '') === portName)?.port;
    if (port === undefined) continue;
    for (const endpoint of slice.endpoints) {
      if (endpoint.conditions?.ready === false) continue;
      for (const host of endpoint.addresses) fromSlices.push({ host, port });
    }
  }
  // Without slices (written by hand, or an endpoints controller only), the core/v1 Endpoints answer.
  const candidates = slices.length > 0 ? fromSlices : fromEndpoints(store, target, portName);
  const chosen = pick(candidates);
  if (!chosen) throw new ServiceResolutionError(`no endpoints available for service ${JSON.stringify(target.name)}`);
  return chosen;
}

function fromEndpoints(store: SqliteStore, target: ServiceTarget, portName: string): ResolvedEndpoint[] {
  const endpoints = store.get(key(endpointsResource), target.namespace, target.name)?.object as Endpoints | undefined;
  const out: ResolvedEndpoint[] = [];
  for (const subset of endpoints?.subsets ?? []) {
    const port = (subset.ports ?? []).find((p) => (p.name ?? '') === portName)?.port;
    if (port === undefined) continue;
    for (const address of subset.addresses ?? []) out.push({ host: address.ip, port });
  }
  return out;
}
