// What the proxy programs, one entry per Service port: read from the Services and EndpointSlices the informers
// hold. Only ready IPv4 endpoints are kept (kube-proxy's view: a slice endpoint without conditions.ready is
// ready); headless, ExternalName and IPv6-only Services have nothing to proxy.
import type { Service } from '../../apimachinery/api/core-v1.ts';
import { SERVICE_NAME_LABEL, type EndpointSlice } from '../../apimachinery/api/discovery-v1.ts';

export type ProxiedProtocol = 'tcp' | 'udp' | 'sctp';

export interface ProxiedEndpoint {
  ip: string;
  port: number;
}

export interface ServicePortRule {
  /** namespace/name/protocol/port-name-or-number: what the rules are named after. */
  id: string;
  clusterIP: string;
  protocol: ProxiedProtocol;
  port: number;
  nodePort?: number;
  /** sessionAffinity ClientIP's timeout; absent without affinity. */
  affinitySeconds?: number;
  /** Ready endpoints, each once, in a stable order. */
  endpoints: ProxiedEndpoint[];
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const PROTOCOLS: Record<string, ProxiedProtocol> = { TCP: 'tcp', UDP: 'udp', SCTP: 'sctp' };
/** kube-proxy's default ClientIP affinity: three hours. */
export const DEFAULT_AFFINITY_SECONDS = 10_800;

export function isIPv4(text: string | undefined): text is string {
  return text !== undefined && IPV4.test(text);
}

function isPort(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value) && value >= 1 && value <= 65_535;
}

/** The ready IPv4 endpoints of one Service port (by name and protocol), each once, in a stable order. */
export function readyEndpoints(slices: readonly EndpointSlice[], portName: string, protocol: ProxiedProtocol): ProxiedEndpoint[] {
  const seen = new Map<string, ProxiedEndpoint>();
  for (const slice of slices) {
    if (slice.addressType !== 'IPv4') continue;
    const port = (slice.ports ?? []).find((p) => (p.name ?? '') === portName && PROTOCOLS[p.protocol ?? 'TCP'] === protocol)?.port;
    if (!isPort(port)) continue;
    for (const endpoint of slice.endpoints) {
      if (endpoint.conditions?.ready === false) continue;
      const ip = endpoint.addresses[0];
      if (isIPv4(ip)) seen.set(`${ip}:${port}`, { ip, port });
    }
  }
  return [...seen.values()].sort((a, b) => (a.ip === b.ip ? a.port - b.port : a.ip < b.ip ? -1 : 1));
}

/** The rules of every proxied Service port, sorted by id. */
export function servicePortRules(services: readonly Service[], slices: readonly EndpointSlice[]): ServicePortRule[] {
  const slicesByService = new Map<string, EndpointSlice[]>();
  for (const slice of slices) {
    const service = slice.metadata.labels?.[SERVICE_NAME_LABEL];
    if (service === undefined) continue;
    const key = `${slice.metadata.namespace ?? ''}/${service}`;
    slicesByService.set(key, [...(slicesByService.get(key) ?? []), slice]);
  }
  const rules: ServicePortRule[] = [];
  for (const service of services) {
    const spec = service.spec;
    const clusterIP = spec?.clusterIP;
    if (spec === undefined || spec.type === 'ExternalName' || !isIPv4(clusterIP)) continue;
    const key = `${service.metadata.namespace ?? ''}/${service.metadata.name ?? ''}`;
    const affinity = spec.sessionAffinity === 'ClientIP' ? (spec.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? DEFAULT_AFFINITY_SECONDS) : undefined;
    const exposesNodePorts = spec.type === 'NodePort' || spec.type === 'LoadBalancer';
    for (const port of spec.ports ?? []) {
      const protocol = PROTOCOLS[port.protocol ?? 'TCP'];
      if (protocol === undefined || !isPort(port.port)) continue;
      const portName = port.name ?? '';
      rules.push({
        id: `${key}/${protocol}/${portName || String(port.port)}`,
        clusterIP,
        protocol,
        port: port.port,
        ...(exposesNodePorts && isPort(port.nodePort) ? { nodePort: port.nodePort } : {}),
        ...(affinity !== undefined && affinity > 0 ? { affinitySeconds: affinity } : {}),
        endpoints: readyEndpoints(slicesByService.get(key) ?? [], portName, protocol),
      });
    }
  }
  return rules.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
