// The node's cluster DNS: informers of Services, EndpointSlices and Pods feed the record index; the server
// answers on the node's address (the bridge gateway pods route through) once the index has synced; names
// outside the cluster go to the host's resolvers; the kube-dns-<node> EndpointSlice tells the kube-dns
// Service where this server is.
import type { Logger } from 'pino';
import type { EndpointSlice, Pod, Service } from '../../apimachinery/api/index.ts';
import { endpointSlicesResource, podsResource, servicesResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import { Informer, type InformerHandlers } from '../../runtime/index.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import { DnsEndpointSlice } from './dns-endpoint-slice.ts';
import { startDnsServer, type RunningDnsServer } from './dns-server.ts';
import { QueryAnswerer } from './query-answerer.ts';
import { RecordIndex } from './record-index.ts';
import { readHostResolvConf } from './resolv-conf.ts';
import { UpstreamForwarder, type Upstream } from './upstream-forwarder.ts';

export const DNS_PORT = 53;
export const DEFAULT_CLUSTER_DOMAIN = 'cluster.local';
/** CoreDNS's kubernetes plugin waits this long for its first lists, then serves what it has. */
const SYNC_WAIT_MS = 5000;

export interface ClusterDnsOptions {
  client: KubeClient;
  nodeName: string;
  /** Where the server listens: the bridge gateway, in the host's network namespace. */
  address: string;
  /**
   * The address the kube-dns-<node> EndpointSlice names (default: address). The API server refuses loopback
   * endpoint addresses, so a test that listens on 127.0.0.1 advertises another.
   */
  advertiseAddress?: string;
  /** Default 53; 0 picks a free port (tests). */
  port?: number;
  /** kubelet's --cluster-domain (default cluster.local). */
  zone?: string;
  /** Where names outside the cluster go; default the host's /etc/resolv.conf nameservers on port 53. */
  upstreams?: Upstream[];
  upstreamTimeoutMs?: number;
  /** Keep the kube-dns-<node> EndpointSlice (default true). */
  publishEndpointSlice?: boolean;
  logger: Logger;
}

export interface ClusterDns {
  readonly address: string;
  readonly port: number;
  readonly index: RecordIndex;
  /** Stops answering and deletes the EndpointSlice. */
  stop(): Promise<void>;
}

/** The host's resolvers, without this server itself (a host whose resolv.conf names the gateway would loop). */
async function hostUpstreams(own: string): Promise<Upstream[]> {
  const { nameservers } = await readHostResolvConf();
  return nameservers.filter((address) => address !== own).map((address) => ({ address, port: DNS_PORT }));
}

function handlers<T extends KubeObject>(apply: (obj: T) => void, remove: (obj: T) => void, also?: (obj: T, deleted: boolean) => void): InformerHandlers<T> {
  return {
    onAdd: (obj) => {
      apply(obj);
      also?.(obj, false);
    },
    onUpdate: (_old, obj) => {
      apply(obj);
      also?.(obj, false);
    },
    onDelete: (obj) => {
      remove(obj);
      also?.(obj, true);
    },
  };
}

export async function startClusterDns(options: ClusterDnsOptions): Promise<ClusterDns> {
  const { client, logger } = options;
  const index = new RecordIndex({ zone: options.zone ?? DEFAULT_CLUSTER_DOMAIN });
  const onError = (err: unknown) => logger.warn({ err }, 'cluster DNS');
  const services = new Informer<Service>({ client, resource: servicesResource, builtinIndexes: false, onError });
  const slices = new Informer<EndpointSlice>({ client, resource: endpointSlicesResource, builtinIndexes: false, onError });
  const pods = new Informer<Pod>({ client, resource: podsResource, builtinIndexes: false, onError });
  const informers = [services, slices, pods];
  let keeper: DnsEndpointSlice | undefined;
  services.addEventHandler(handlers((s) => index.applyService(s), (s) => index.removeService(s)));
  slices.addEventHandler(handlers((s) => index.applySlice(s), (s) => index.removeSlice(s), (s, deleted) => keeper?.observe(s, deleted)));
  pods.addEventHandler(handlers((p) => index.applyPod(p), (p) => index.removePod(p)));
  let server: RunningDnsServer | undefined;
  try {
    for (const informer of informers) informer.start();
    // The first answers are complete ones, so a pod asking right after start gets no false NXDOMAIN; an API
    // server that does not list them (down, or RBAC) must not hold the node back, as in CoreDNS.
    await Promise.all(informers.map((informer) => informer.waitForSync(AbortSignal.timeout(SYNC_WAIT_MS)))).catch(() => {
      logger.warn(`cluster DNS starts before Services, EndpointSlices and Pods were listed (waited ${SYNC_WAIT_MS / 1000} s)`);
    });
    const forwarder = new UpstreamForwarder(options.upstreams ?? (await hostUpstreams(options.address)), options.upstreamTimeoutMs);
    const answerer = new QueryAnswerer(index, forwarder);
    server = await startDnsServer({ host: options.address, port: options.port ?? DNS_PORT, answer: (query, transport) => answerer.answer(query, transport), onError });
  } catch (error) {
    await Promise.all(informers.map((informer) => informer.stop()));
    throw error;
  }
  const running = server;
  if (options.publishEndpointSlice !== false) {
    keeper = new DnsEndpointSlice({ client, nodeName: options.nodeName, address: options.advertiseAddress ?? options.address, port: running.port, onError });
    keeper.ensure();
  }
  return {
    address: options.address,
    port: running.port,
    index,
    async stop() {
      await keeper?.stop();
      await running.close();
      await Promise.all(informers.map((informer) => informer.stop()));
    },
  };
}
