// The Services the API server keeps, as kube-apiserver's kubernetes-service controller does: `default/kubernetes`
// (the API server itself, with its Endpoints and EndpointSlice pointing at the address and port it listens on)
// and `kube-system/kube-dns` (the cluster DNS address; each node agent keeps its endpoints). Made at start and
// made again when deleted; their ports, and the kubernetes endpoints, are put back when something else changes them.
import { isIP } from 'node:net';
import { SERVICE_NAME_LABEL } from '../../apimachinery/api/discovery-v1.ts';
import { endpointSlicesResource, endpointsResource, servicesResource } from '../../apimachinery/builtin-resources.ts';
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { ServerController, type ServerParts } from '../lifecycle/server-controller.ts';
import { storageKey, type ResourceType } from '../registry/resource-type.ts';
import type { StoreEvent } from '../storage/sqlite-store.ts';
import { KUBERNETES_SERVICE } from './endpoint-validation.ts';
import type { ServiceNetwork } from './service-network.ts';

const KUBE_DNS = { namespace: 'kube-system', name: 'kube-dns' };
const FIELD_MANAGER = 'bosun-apiserver';
/** What kube-apiserver's controller keeps of its Services (the server's port may change between starts). */
const SERVICE_FIELDS = ['spec.type', 'spec.ports'];
const keyOf = (ref: { namespace: string; name: string }): string => `${ref.namespace}/${ref.name}`;

function valueAt(object: KubeObject, path: string): unknown {
  let value: unknown = object;
  for (const part of path.split('.')) value = isPlainObject(value) ? value[part] : undefined;
  return value;
}

function setValueAt(object: KubeObject, path: string, value: unknown): void {
  const parts = path.split('.');
  let parent: Record<string, unknown> = object;
  for (const part of parts.slice(0, -1)) {
    if (!isPlainObject(parent[part])) parent[part] = {};
    parent = parent[part] as Record<string, unknown>;
  }
  const last = parts[parts.length - 1] ?? '';
  if (value === undefined) delete parent[last];
  else parent[last] = structuredClone(value);
}

/** Where clients reach this server: the bound address, or loopback when it binds every address. */
export function listenAddress(bind: string): string {
  return bind === '0.0.0.0' || bind === '::' ? '127.0.0.1' : bind;
}

export class SystemServices extends ServerController {
  private readonly network: ServiceNetwork;
  private readonly onError: (error: unknown) => void;
  private readonly watched: Set<string>;
  private address = '127.0.0.1';
  private port = 0;

  constructor(parts: ServerParts, network: ServiceNetwork) {
    super(parts);
    this.network = network;
    this.onError = parts.onError;
    this.watched = new Set(
      [servicesResource, endpointsResource, endpointSlicesResource].map((r) => `${storageKey({ group: r.group, plural: r.resource })}|${keyOf(KUBERNETES_SERVICE)}`),
    );
    this.watched.add(`${storageKey({ group: '', plural: 'services' })}|${keyOf(KUBE_DNS)}`);
  }

  /** Once the server listens: where it does is what the kubernetes endpoints say. */
  start(address: string, port: number): void {
    this.address = address;
    this.port = port;
    // At once, so they exist when the server first answers; what fails is retried with backoff.
    for (const key of [keyOf(KUBERNETES_SERVICE), keyOf(KUBE_DNS)]) {
      try {
        this.process(key);
      } catch (error) {
        this.onError(error);
        this.queue.add(key);
      }
    }
    this.listen();
  }

  protected observe(event: StoreEvent): void {
    const name = event.current.object.metadata.name ?? '';
    if (this.watched.has(`${event.resource}|${event.namespace}/${name}`)) this.queue.add(`${event.namespace}/${name}`);
  }

  protected process(key: string): void {
    if (key === keyOf(KUBERNETES_SERVICE)) {
      this.ensure(servicesResource.resource, '', this.kubernetesService(), SERVICE_FIELDS);
      this.ensure(endpointsResource.resource, '', this.kubernetesEndpoints(), ['subsets']);
      this.ensure(endpointSlicesResource.resource, endpointSlicesResource.group, this.kubernetesEndpointSlice(), ['addressType', 'endpoints', 'ports']);
    } else if (key === keyOf(KUBE_DNS)) this.ensure(servicesResource.resource, '', this.kubeDnsService(), SERVICE_FIELDS);
  }

  /** Creates `wanted` if missing, else puts back the `kept` fields (dotted paths) someone else changed. */
  private ensure(plural: string, group: string, wanted: KubeObject, kept: readonly string[]): void {
    const type = this.registry.byStorageKey(storageKey({ group, plural })) as ResourceType;
    const namespace = wanted.metadata.namespace ?? '';
    const ns = this.store.get('/namespaces', '', namespace);
    if (!ns || ns.object.metadata.deletionTimestamp) return;
    const current = this.objects.find(type, namespace, wanted.metadata.name ?? '');
    if (!current) {
      this.objects.create(type, namespace, wanted, { fieldManager: FIELD_MANAGER });
      return;
    }
    if (kept.every((path) => JSON.stringify(valueAt(current.object, path)) === JSON.stringify(valueAt(wanted, path)))) return;
    this.objects.mutate(type, current, (o) => {
      for (const path of kept) setValueAt(o, path, valueAt(wanted, path));
    });
  }

  private kubernetesService(): KubeObject {
    const ip = this.network.kubernetesIP;
    return {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { ...KUBERNETES_SERVICE, labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: { type: 'ClusterIP', clusterIP: ip, clusterIPs: [ip], ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: this.port }], sessionAffinity: 'None' },
    };
  }

  private kubernetesEndpoints(): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'Endpoints',
      // kube-apiserver's own slice is written directly; the mirroring controller leaves these Endpoints alone.
      metadata: { ...KUBERNETES_SERVICE, labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
      subsets: [{ addresses: [{ ip: this.address }], ports: [{ name: 'https', port: this.port, protocol: 'TCP' }] }],
    };
  }

  private kubernetesEndpointSlice(): KubeObject {
    return {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { ...KUBERNETES_SERVICE, labels: { [SERVICE_NAME_LABEL]: KUBERNETES_SERVICE.name } },
      addressType: isIP(this.address) === 6 ? 'IPv6' : 'IPv4',
      endpoints: [{ addresses: [this.address], conditions: { ready: true } }],
      ports: [{ name: 'https', port: this.port, protocol: 'TCP' }],
    };
  }

  private kubeDnsService(): KubeObject {
    const ip = this.network.clusterDNS;
    return {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { ...KUBE_DNS, labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/name': 'CoreDNS' } },
      spec: {
        type: 'ClusterIP',
        clusterIP: ip,
        clusterIPs: [ip],
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
          { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
          { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
        ],
      },
    };
  }
}
