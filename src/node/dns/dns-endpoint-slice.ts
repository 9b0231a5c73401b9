// The EndpointSlice through which the kube-dns Service reaches this node's DNS server: kube-dns-<node> in
// kube-system, managed by bosun-node, one endpoint (the address the server listens on) with the dns/UDP and
// dns-tcp/TCP ports. Written with server-side apply, written again when it is deleted or changed by someone
// else, retried with back-off while the API server refuses it, and deleted when the server stops.
import type { EndpointSlice } from '../../apimachinery/api/index.ts';
import { MANAGED_BY_LABEL, SERVICE_NAME_LABEL } from '../../apimachinery/api/discovery-v1.ts';
import { endpointSlicesResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import { ignoreNotFound } from '../../client/errors.ts';
import { Backoff, realClock } from '../../runtime/index.ts';

export const DNS_NAMESPACE = 'kube-system';
export const DNS_SERVICE_NAME = 'kube-dns';
export const NODE_MANAGER = 'bosun-node';

export interface DnsEndpointSliceOptions {
  client: KubeClient;
  nodeName: string;
  /** The DNS server's address. */
  address: string;
  port: number;
  onError(error: unknown): void;
}

/** What the proxy and DNS read of a slice, ignoring what the API server adds or orders its own way. */
function shape(slice: EndpointSlice): string {
  return JSON.stringify([
    slice.addressType,
    slice.endpoints.map((e) => [e.addresses, e.conditions?.ready ?? true, e.nodeName]),
    (slice.ports ?? []).map((p) => [p.name, p.protocol, p.port]),
    slice.metadata.labels?.[SERVICE_NAME_LABEL],
    slice.metadata.labels?.[MANAGED_BY_LABEL],
  ]);
}

export class DnsEndpointSlice {
  readonly name: string;
  private readonly backoff = new Backoff(realClock, { initialMs: 500, maxMs: 30_000 });
  private work: Promise<void> = Promise.resolve();
  private queued = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: DnsEndpointSliceOptions) {
    this.name = `${DNS_SERVICE_NAME}-${options.nodeName}`;
  }

  desired(): EndpointSlice {
    const { nodeName, address, port } = this.options;
    return {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: this.name, namespace: DNS_NAMESPACE, labels: { [SERVICE_NAME_LABEL]: DNS_SERVICE_NAME, [MANAGED_BY_LABEL]: NODE_MANAGER } },
      addressType: address.includes(':') ? 'IPv6' : 'IPv4',
      endpoints: [{ addresses: [address], conditions: { ready: true, serving: true, terminating: false }, nodeName }],
      ports: [
        { name: 'dns', protocol: 'UDP', port },
        { name: 'dns-tcp', protocol: 'TCP', port },
      ],
    };
  }

  /** Writes the slice (queued behind a write in flight; retried with back-off until it lands or stop). */
  ensure(): void {
    if (this.stopped || this.queued) return;
    this.queued = true;
    this.work = this.work.then(async () => {
      this.queued = false;
      if (this.stopped) return;
      try {
        await this.options.client.patch(endpointSlicesResource, this.name, this.desired() as unknown as Record<string, unknown>, { type: 'apply', fieldManager: NODE_MANAGER, force: true, namespace: DNS_NAMESPACE });
        this.backoff.reset();
      } catch (error) {
        this.options.onError(error);
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.ensure(), this.backoff.next());
      }
    });
  }

  /** An event about the slices: ours gone, or changed from what we wrote, is written again. */
  observe(slice: EndpointSlice, deleted: boolean): void {
    if (slice.metadata.namespace !== DNS_NAMESPACE || slice.metadata.name !== this.name) return;
    if (deleted || shape(slice) !== shape(this.desired())) this.ensure();
  }

  /** Stops keeping the slice and deletes it: a stopped node serves no DNS. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.work;
    await ignoreNotFound(this.options.client.delete(endpointSlicesResource, this.name, { namespace: DNS_NAMESPACE })).catch((error: unknown) => this.options.onError(error));
  }
}
