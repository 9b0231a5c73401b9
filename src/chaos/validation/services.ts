// network.services must name existing ClusterIP Services with the given ports (upstream's validateServices). The
// webhook looks them up; validation stays pure over what it found. Upstream stops at the first bad service.
import type { DisruptionSpec, NetworkDisruptionServicePortSpec } from '../api/types.ts';
import { specError, type SpecError } from './errors.ts';

export interface ServiceInfo {
  type: string;
  ports: { name?: string; port: number }[];
}

/** "namespace/name" → the Service, or undefined when it does not exist. */
export type ServiceLookup = ReadonlyMap<string, ServiceInfo | undefined>;

export const serviceKey = (namespace: string, name: string): string => `${namespace}/${name}`;

/** The ports given that the Service does not have (by port, by name, or both must match the same port). */
function missingPorts(wanted: readonly NetworkDisruptionServicePortSpec[], service: ServiceInfo): NetworkDisruptionServicePortSpec[] {
  return wanted.filter((p) => {
    if (p.port) {
      const found = service.ports.find((s) => s.port === p.port);
      return found === undefined || (!!p.name && p.name !== found.name);
    }
    if (p.name) return !service.ports.some((s) => s.name === p.name);
    return false;
  });
}

export function serviceErrors(spec: DisruptionSpec, services: ServiceLookup): SpecError[] {
  for (const [i, s] of (spec.network?.services ?? []).entries()) {
    const at = `spec.network.services[${i}]`;
    const namespace = s.namespace ?? '';
    const name = s.name ?? '';
    const found = services.get(serviceKey(namespace, name));
    if (!found) {
      if (!namespace || !name) return [specError(at, `either service namespace or name have not been properly set for this service: ${namespace}/${name} -> namespace/name`)];
      return [specError(at, `the service specified in the network disruption (${namespace}/${name}) does not exist`)];
    }
    const missing = missingPorts(s.ports ?? [], found);
    if (missing.length > 0) {
      const shown = missing.map((p) => [p.name, p.port ? String(p.port) : undefined].filter(Boolean).join('/'));
      return [specError(`${at}.ports`, `the ports ([${shown.join(' ')}]) specified for the service in the network disruption (${namespace}/${name}) do not exist`)];
    }
    if (found.type !== 'ClusterIP') {
      return [specError(at, `the service specified in the network disruption (${namespace}/${name}) is of type ${found.type}, but only the following service types are supported: ClusterIP`)];
    }
  }
  return [];
}
