// From a `services` filter and what the node agent says of its Service (RuntimeService) to the destinations a
// disruption matches, as upstream's injector builds its tc filters (buildServiceFiltersFromService,
// buildServiceFiltersFromPod): the ClusterIP on each affected port, and each ready endpoint on that port's
// target port; a headless Service's endpoints on every port (upstream's port 0: "block all traffic to the
// endpoint IPs"). Ports are upstream's ExtractAffectedPortsInServicePorts: none given means all; a number
// must exist (and carry the name, if one is given too); a name alone must exist. A percentage picks the same
// endpoints as upstream (selectServiceFiltersByPercentage: by endpoint IP, seeded by name, namespace and the
// disruption's UID); the ClusterIP is always kept.
import type { RuntimeService, RuntimeServicePort } from '../../../../client/node-runtime/protocol.ts';
import type { ServiceSpec } from './network-spec.ts';
import type { ResolvedHost } from './plan.ts';
import { selectByPercentage } from './resolve-hosts.ts';

export interface ServiceFilters {
  /** One entry per destination address, port and protocol, ClusterIP first. */
  destinations: ResolvedHost[];
  /** The filter's ports the Service does not have (upstream ignores them too; the webhook refuses them at creation). */
  missingPorts: string[];
}

const destination = (ip: string, port: number, protocol: string): ResolvedHost => ({ ips: [`${ip}/32`], port, protocol: protocol.toLowerCase(), flow: '', connState: '' });

export function affectedPorts(spec: ServiceSpec, ports: readonly RuntimeServicePort[]): { ports: RuntimeServicePort[]; missing: string[] } {
  if (spec.ports.length === 0) return { ports: [...ports], missing: [] };
  const affected: RuntimeServicePort[] = [];
  const missing: string[] = [];
  for (const wanted of spec.ports) {
    const found = wanted.port !== 0 ? ports.find((p) => p.port === wanted.port && (wanted.name === '' || wanted.name === p.name)) : ports.find((p) => wanted.name !== '' && p.name === wanted.name);
    if (found === undefined) missing.push(wanted.port !== 0 ? `${wanted.port}${wanted.name ? ` (${wanted.name})` : ''}` : wanted.name);
    else if (!affected.includes(found)) affected.push(found);
  }
  return { ports: affected, missing };
}

export function serviceFilters(spec: ServiceSpec, view: RuntimeService, disruptionUid: string): ServiceFilters {
  if (!view.exists) return { destinations: [], missingPorts: [] };
  const { ports, missing } = affectedPorts(spec, view.ports);
  const clusterIP = view.clusterIP === undefined ? [] : ports.map((p) => destination(view.clusterIP ?? '', p.port, p.protocol));
  let endpoints = view.clusterIP === undefined ? view.endpointIPs.map((ip) => destination(ip, 0, '')) : ports.flatMap((p) => p.endpoints.map((e) => destination(e.ip, e.port, p.protocol)));
  if (spec.percentage !== undefined) {
    const picked = new Set(selectByPercentage([...new Set(endpoints.flatMap((e) => e.ips))], spec.percentage, `${spec.name}-${spec.namespace}-${disruptionUid}`));
    endpoints = endpoints.filter((e) => picked.has(e.ips[0] ?? ''));
  }
  const unique = new Map<string, ResolvedHost>();
  for (const d of [...clusterIP, ...endpoints]) unique.set(`${d.ips[0] ?? ''}:${d.port}:${d.protocol}`, d);
  return { destinations: [...unique.values()], missingPorts: missing };
}
