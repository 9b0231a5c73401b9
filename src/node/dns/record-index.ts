// The records cluster DNS answers from, kept from the watch events of Services, EndpointSlices and Pods (the
// kubernetes DNS specification, CoreDNS's kubernetes plugin as the model). Each object's records are computed
// when it changes and indexed by name, so a query is a map lookup, and every ancestor of a name inside the
// zone is counted as existing: a name with no records of the asked type is NODATA, a name that does not exist
// is NXDOMAIN.
import { isIPv4, isIPv6 } from 'node:net';
import type { RecordType, SoaAnswer, SrvAnswer, StringAnswer, TxtAnswer } from 'dns-packet';
import type { EndpointSlice, Pod, Service } from '../../apimachinery/api/index.ts';
import { SERVICE_NAME_LABEL } from '../../apimachinery/api/discovery-v1.ts';
import { canonicalName, dashedAddress, reverseName } from './record-names.ts';

export type DnsRecord = StringAnswer | SrvAnswer | TxtAnswer | SoaAnswer;

export type Lookup =
  /** Records of the asked type, or the CNAME the name is (the server follows it). */
  | { kind: 'answer'; records: DnsRecord[] }
  | { kind: 'nodata' }
  | { kind: 'nxdomain' }
  /** Not a name this index is authoritative for: the server forwards it. */
  | { kind: 'elsewhere' };

export interface RecordIndexOptions {
  /** The cluster domain (kubelet's --cluster-domain). */
  zone?: string;
  /** TTL of every record (CoreDNS's kubernetes plugin: 5 s). */
  ttl?: number;
}

/** The version of the DNS specification served (its dns-version TXT record). */
const SCHEMA_VERSION = '1.1.0';
const REVERSE_ZONES = ['in-addr.arpa', 'ip6.arpa'];

function key(namespace: string | undefined, name: string | undefined): string {
  return `${namespace ?? ''}/${name ?? ''}`;
}

function addressType(address: string): 'A' | 'AAAA' | undefined {
  return isIPv4(address) ? 'A' : isIPv6(address) ? 'AAAA' : undefined;
}

export class RecordIndex {
  readonly zone: string;
  readonly ttl: number;
  private readonly services = new Map<string, Service>();
  /** EndpointSlices by the key of the Service they belong to, then by slice name. */
  private readonly slices = new Map<string, Map<string, EndpointSlice>>();
  private readonly recordsBySource = new Map<string, DnsRecord[]>();
  private readonly recordsByName = new Map<string, DnsRecord[]>();
  /** Every name with records and each of its ancestors inside the zone, with how many records hold it up. */
  private readonly existing = new Map<string, number>();
  private serialSeconds = Math.floor(Date.now() / 1000);
  private readonly listeners = new Set<() => void>();

  constructor(options: RecordIndexOptions = {}) {
    this.zone = canonicalName(options.zone ?? 'cluster.local');
    this.ttl = options.ttl ?? 5;
    this.replace('zone', [{ type: 'TXT', name: `dns-version.${this.zone}`, ttl: this.ttl, data: SCHEMA_VERSION }]);
  }

  /** The zone's SOA, for the authority section of negative answers (CoreDNS's fields; the serial moves with changes). */
  soa(): SoaAnswer {
    return {
      type: 'SOA',
      name: this.zone,
      ttl: this.ttl,
      data: { mname: `ns.dns.${this.zone}`, rname: `hostmaster.${this.zone}`, serial: this.serialSeconds, refresh: 7200, retry: 1800, expire: 86400, minimum: this.ttl },
    };
  }

  /** Calls listener after each change of the records; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether the name is inside the zone, which this index answers for alone. */
  inZone(name: string): boolean {
    const n = canonicalName(name);
    return n === this.zone || n.endsWith(`.${this.zone}`);
  }

  lookup(name: string, type: RecordType): Lookup {
    const n = canonicalName(name);
    const records = this.recordsByName.get(n) ?? [];
    if (this.inZone(n)) {
      if (n === this.zone && (type === 'SOA' || type === 'NS')) {
        return { kind: 'answer', records: [type === 'SOA' ? this.soa() : { type: 'NS', name: this.zone, ttl: this.ttl, data: `ns.dns.${this.zone}` }] };
      }
      if (!this.existing.has(n) && n !== this.zone) return { kind: 'nxdomain' };
    } else if (!REVERSE_ZONES.some((zone) => n.endsWith(`.${zone}`)) || records.length === 0) {
      // Reverse names fall through to the upstreams unless they are the cluster's addresses (CoreDNS's fallthrough).
      return { kind: 'elsewhere' };
    }
    const cname = records.filter((r) => r.type === 'CNAME');
    const matching = cname.length > 0 && type !== 'CNAME' ? cname : records.filter((r) => r.type === type);
    return matching.length > 0 ? { kind: 'answer', records: matching } : { kind: 'nodata' };
  }

  applyService(service: Service): void {
    const k = key(service.metadata.namespace, service.metadata.name);
    this.services.set(k, service);
    this.refreshService(k);
  }

  removeService(service: Service): void {
    const k = key(service.metadata.namespace, service.metadata.name);
    this.services.delete(k);
    this.refreshService(k);
  }

  applySlice(slice: EndpointSlice): void {
    const k = this.sliceServiceKey(slice);
    this.unfileSlice(slice, k);
    if (k === undefined) return;
    const slices = this.slices.get(k) ?? new Map<string, EndpointSlice>();
    slices.set(slice.metadata.name ?? '', slice);
    this.slices.set(k, slices);
    this.refreshService(k);
  }

  removeSlice(slice: EndpointSlice): void {
    this.unfileSlice(slice, undefined);
  }

  applyPod(pod: Pod): void {
    const { namespace = '', name = '' } = pod.metadata;
    const phase = pod.status?.phase;
    // A finished pod gave its address back; a host-network pod's address is the node's (CoreDNS skips both).
    const addresses = pod.spec.hostNetwork === true || phase === 'Succeeded' || phase === 'Failed' ? [] : podAddresses(pod);
    this.replace(`pod:${key(namespace, name)}`, addresses.flatMap((address) => {
      const type = addressType(address);
      return type === undefined ? [] : [{ type, name: `${dashedAddress(address)}.${namespace}.pod.${this.zone}`, ttl: this.ttl, data: address }];
    }));
  }

  removePod(pod: Pod): void {
    this.replace(`pod:${key(pod.metadata.namespace, pod.metadata.name)}`, []);
  }

  private sliceServiceKey(slice: EndpointSlice): string | undefined {
    const service = slice.metadata.labels?.[SERVICE_NAME_LABEL];
    return service === undefined ? undefined : key(slice.metadata.namespace, service);
  }

  /** A slice deleted, or relabelled to another Service, leaves the Service it was filed under. */
  private unfileSlice(slice: EndpointSlice, except: string | undefined): void {
    const name = slice.metadata.name ?? '';
    for (const [k, slices] of this.slices) {
      if (k === except || !k.startsWith(`${slice.metadata.namespace ?? ''}/`) || !slices.delete(name)) continue;
      if (slices.size === 0) this.slices.delete(k);
      this.refreshService(k);
    }
  }

  private refreshService(k: string): void {
    const service = this.services.get(k);
    this.replace(`service:${k}`, service === undefined ? [] : this.serviceRecords(service, [...(this.slices.get(k)?.values() ?? [])]));
  }

  private serviceRecords(service: Service, slices: EndpointSlice[]): DnsRecord[] {
    const { namespace = '', name = '' } = service.metadata;
    const spec = service.spec ?? {};
    const base = `${name}.${namespace}.svc.${this.zone}`;
    const ttl = this.ttl;
    if (spec.type === 'ExternalName') {
      return spec.externalName ? [{ type: 'CNAME', name: base, ttl, data: canonicalName(spec.externalName) }] : [];
    }
    const records: DnsRecord[] = [];
    const srv = (port: { name?: string; protocol?: string; port?: number }, target: string) => {
      if (port.port === undefined) return;
      const data = { priority: 0, weight: 100, port: port.port, target };
      // The bare name answers SRV for every port, as CoreDNS does; _name._proto only for named ports (the spec).
      records.push({ type: 'SRV', name: base, ttl, data });
      if (port.name) records.push({ type: 'SRV', name: `_${port.name}._${(port.protocol ?? 'TCP').toLowerCase()}.${base}`, ttl, data });
    };
    if (spec.clusterIP === 'None') {
      // Headless: the ready endpoints, each also under its hostname (or its dashed address), with PTRs to it.
      const seen = new Set<string>();
      for (const slice of slices) {
        if (slice.addressType === 'FQDN') continue;
        for (const endpoint of slice.endpoints) {
          if (endpoint.conditions?.ready === false && spec.publishNotReadyAddresses !== true) continue;
          for (const address of endpoint.addresses) {
            const type = addressType(address);
            const host = `${endpoint.hostname ?? dashedAddress(address)}.${base}`;
            if (type === undefined || seen.has(`${host} ${address}`)) continue;
            seen.add(`${host} ${address}`);
            records.push({ type, name: base, ttl, data: address }, { type, name: host, ttl, data: address });
            const reverse = reverseName(address);
            if (reverse !== undefined) records.push({ type: 'PTR', name: reverse, ttl, data: host });
            for (const port of slice.ports ?? []) srv(port, host);
          }
        }
      }
      return records;
    }
    const clusterIPs = spec.clusterIPs ?? (spec.clusterIP ? [spec.clusterIP] : []);
    for (const address of clusterIPs) {
      const type = addressType(address);
      if (type === undefined) continue;
      records.push({ type, name: base, ttl, data: address });
      const reverse = reverseName(address);
      if (reverse !== undefined) records.push({ type: 'PTR', name: reverse, ttl, data: base });
      // The zone's NS names the cluster DNS Service.
      if (namespace === 'kube-system' && name === 'kube-dns') records.push({ type, name: `ns.dns.${this.zone}`, ttl, data: address });
    }
    if (records.length > 0) for (const port of spec.ports ?? []) srv(port, base);
    return records;
  }

  /** Swaps one object's records for its new ones; the serial moves and listeners hear of it when they differ. */
  private replace(source: string, records: DnsRecord[]): void {
    const previous = this.recordsBySource.get(source) ?? [];
    // Most events (a pod's status, a slice's unrelated fields) change no record: the serial stays.
    if (JSON.stringify(previous) === JSON.stringify(records)) return;
    for (const record of previous) {
      const n = canonicalName(record.name);
      const remaining = (this.recordsByName.get(n) ?? []).filter((r) => r !== record);
      if (remaining.length > 0) this.recordsByName.set(n, remaining);
      else this.recordsByName.delete(n);
      this.countAncestors(n, -1);
    }
    for (const record of records) {
      const n = canonicalName(record.name);
      this.recordsByName.set(n, [...(this.recordsByName.get(n) ?? []), record]);
      this.countAncestors(n, 1);
    }
    if (records.length > 0) this.recordsBySource.set(source, records);
    else this.recordsBySource.delete(source);
    this.serialSeconds = Math.max(this.serialSeconds + 1, Math.floor(Date.now() / 1000));
    for (const listener of this.listeners) listener();
  }

  /** The name and its ancestors down to the zone exist while a record holds them (reverse names: only themselves). */
  private countAncestors(name: string, delta: number): void {
    const labels = name.split('.');
    const inZone = this.inZone(name);
    for (let i = 0; i < labels.length; i++) {
      const ancestor = labels.slice(i).join('.');
      if (ancestor === this.zone || (!inZone && i > 0)) break;
      const count = (this.existing.get(ancestor) ?? 0) + delta;
      if (count > 0) this.existing.set(ancestor, count);
      else this.existing.delete(ancestor);
    }
  }
}

function podAddresses(pod: Pod): string[] {
  const ips = (pod.status?.podIPs ?? []).map((p) => p.ip);
  return ips.length > 0 ? ips : pod.status?.podIP ? [pod.status.podIP] : [];
}
