// The Service environment variables kubelet gives every container (pkg/kubelet/envvars, getServiceEnvVarMap):
// KUBERNETES_SERVICE_HOST/PORT for the API server's Service, always, and the Docker-link style variables of every
// Service in the pod's namespace while spec.enableServiceLinks is not false. In-cluster clients read the first.
import type { Service } from '../../apimachinery/api/index.ts';

/** The Services in the default namespace every pod gets variables for (kubelet's "master services"). */
const MASTER_SERVICES = new Set(['kubernetes']);

const variableName = (name: string): string => name.replaceAll('-', '_').toUpperCase();

function hasClusterIP(service: Service): boolean {
  const ip = service.spec?.clusterIP;
  return ip !== undefined && ip !== '' && ip !== 'None' && service.spec?.type !== 'ExternalName';
}

function hostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** envvars.FromServices for one Service: _SERVICE_HOST, _SERVICE_PORT(_NAME), then the link variables. */
function variablesOf(service: Service): [string, string][] {
  const prefix = variableName(service.metadata.name ?? '');
  const ip = service.spec?.clusterIP ?? '';
  const ports = service.spec?.ports ?? [];
  const first = ports[0];
  if (first === undefined) return [];
  const result: [string, string][] = [
    [`${prefix}_SERVICE_HOST`, ip],
    [`${prefix}_SERVICE_PORT`, String(first.port)],
  ];
  for (const port of ports) if (port.name) result.push([`${prefix}_SERVICE_PORT_${variableName(port.name)}`, String(port.port)]);
  ports.forEach((port, index) => {
    const protocol = (port.protocol ?? 'TCP').toLowerCase();
    const url = `${protocol}://${hostPort(ip, port.port)}`;
    if (index === 0) result.push([`${prefix}_PORT`, url]);
    const portPrefix = `${prefix}_PORT_${port.port}_${protocol.toUpperCase()}`;
    result.push([portPrefix, url], [`${portPrefix}_PROTO`, protocol], [`${portPrefix}_PORT`, String(port.port)], [`${portPrefix}_ADDR`, ip]);
  });
  return result;
}

/**
 * The variables for a pod in `namespace`, given the Services of that namespace and of `default`. A Service of the
 * pod's own namespace wins over a master Service of the same name, as in kubelet.
 */
export function serviceEnvironment(namespace: string, enableServiceLinks: boolean, services: readonly Service[]): Map<string, string> {
  const chosen = new Map<string, Service>();
  for (const service of services) {
    if (!hasClusterIP(service)) continue;
    const name = service.metadata.name ?? '';
    if (service.metadata.namespace === 'default' && MASTER_SERVICES.has(name)) {
      if (!chosen.has(name)) chosen.set(name, service);
    } else if (service.metadata.namespace === namespace && enableServiceLinks) {
      chosen.set(name, service);
    }
  }
  return new Map([...chosen.values()].flatMap(variablesOf));
}
