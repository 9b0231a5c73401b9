// What GET /v1/services/{namespace}/{name} answers: a Service as a chaos injector's `services` filter needs it
// (upstream's injector reads the Service and its pods through the API; Bosun's injector has no API identity),
// read from the Service and its EndpointSlices the way the proxy reads them: ready IPv4 endpoints only, their
// target ports as the slices resolve them (a named targetPort too).
import type { Service } from '../../apimachinery/api/core-v1.ts';
import type { EndpointSlice } from '../../apimachinery/api/discovery-v1.ts';
import type { RuntimeService } from '../../client/node-runtime/protocol.ts';
import { isIPv4, readyEndpoints, type ProxiedProtocol } from '../proxy/service-port-rule.ts';

const PROTOCOLS: Record<string, ProxiedProtocol> = { TCP: 'tcp', UDP: 'udp', SCTP: 'sctp' };

/** The ready IPv4 addresses of the slices, whatever their ports, each once and sorted. */
function readyAddresses(slices: readonly EndpointSlice[]): string[] {
  const addresses = new Set<string>();
  for (const slice of slices) {
    if (slice.addressType !== 'IPv4') continue;
    for (const endpoint of slice.endpoints) {
      const ip = endpoint.addresses[0];
      if (endpoint.conditions?.ready !== false && isIPv4(ip)) addresses.add(ip);
    }
  }
  return [...addresses].sort();
}

/** The view of namespace/name; service undefined: there is none. slices are the Service's own (its service-name label). */
export function serviceView(namespace: string, name: string, service: Service | undefined, slices: readonly EndpointSlice[]): RuntimeService {
  if (service?.spec === undefined) return { namespace, name, exists: false, ports: [], endpointIPs: [] };
  const { spec } = service;
  const clusterIP = spec.type !== 'ExternalName' && isIPv4(spec.clusterIP) ? spec.clusterIP : undefined;
  const ports = (spec.ports ?? []).flatMap((port) => {
    const protocol = port.protocol ?? 'TCP';
    const proxied = PROTOCOLS[protocol];
    if (proxied === undefined) return [];
    const portName = port.name ?? '';
    return [{ name: portName, protocol, port: port.port, endpoints: readyEndpoints(slices, portName, proxied) }];
  });
  return { namespace, name, exists: true, ...(clusterIP !== undefined ? { clusterIP } : {}), ports, endpointIPs: readyAddresses(slices) };
}
