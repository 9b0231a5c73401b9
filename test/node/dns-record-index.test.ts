// The records cluster DNS answers from, as the kubernetes DNS specification and CoreDNS's kubernetes plugin
// define them, kept from Service, EndpointSlice and Pod events.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RecordType } from 'dns-packet';
import type { EndpointSlice, Pod, Service } from '../../src/apimachinery/api/index.ts';
import { RecordIndex, type Lookup } from '../../src/node/dns/record-index.ts';
import { dashedAddress, reverseName } from '../../src/node/dns/record-names.ts';

const service = (namespace: string, name: string, spec: Service['spec']): Service => ({ apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec });
const slice = (namespace: string, name: string, serviceName: string, endpoints: EndpointSlice['endpoints'], ports: EndpointSlice['ports'] = []): EndpointSlice => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { namespace, name, labels: { 'kubernetes.io/service-name': serviceName } },
  addressType: 'IPv4',
  endpoints,
  ports,
});
const pod = (namespace: string, name: string, ip: string, more: Partial<Pod['spec']> = {}): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name }, spec: { containers: [], ...more }, status: { phase: 'Running', podIP: ip, podIPs: [{ ip }] } });

/** A lookup's outcome as one line: the kind, or the records' data. */
function show(result: Lookup): string {
  if (result.kind !== 'answer') return result.kind;
  return result.records.map((r) => `${r.type} ${typeof r.data === 'object' && r.data !== null && 'target' in r.data ? `${r.data.port} ${r.data.target}` : String(r.data)}`).sort().join(', ');
}

function populated(): RecordIndex {
  const index = new RecordIndex();
  index.applyService(service('default', 'kubernetes', { clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1'], ports: [{ name: 'https', port: 443, protocol: 'TCP' }] }));
  index.applyService(service('kube-system', 'kube-dns', { clusterIP: '10.96.0.10', ports: [{ name: 'dns', port: 53, protocol: 'UDP' }, { name: 'dns-tcp', port: 53, protocol: 'TCP' }] }));
  index.applyService(service('shop', 'web', { clusterIP: 'None', ports: [{ name: 'http', port: 80 }] }));
  index.applySlice(slice('shop', 'web-abc', 'web', [
    { addresses: ['10.244.0.5'], hostname: 'web-0', conditions: { ready: true } },
    { addresses: ['10.244.0.6'], conditions: { ready: true } },
    { addresses: ['10.244.0.7'], hostname: 'web-2', conditions: { ready: false } },
  ], [{ name: 'http', port: 8080, protocol: 'TCP' }]));
  index.applyService(service('shop', 'db', { type: 'ExternalName', externalName: 'db.example.com.' }));
  index.applyService(service('shop', 'plain', { clusterIP: '10.96.5.5', ports: [{ port: 80 }] }));
  index.applyPod(pod('shop', 'web-0', '10.244.0.5'));
  index.applyPod(pod('shop', 'node-agent', '10.244.0.1', { hostNetwork: true }));
  return index;
}

test('a table of names and types: answers, NODATA, NXDOMAIN and what is not the index\'s', () => {
  const index = populated();
  const table: [string, RecordType, string][] = [
    ['kubernetes.default.svc.cluster.local', 'A', 'A 10.96.0.1'],
    ['KUBERNETES.Default.svc.cluster.local.', 'A', 'A 10.96.0.1'],
    ['kubernetes.default.svc.cluster.local', 'AAAA', 'nodata'],
    ['_https._tcp.kubernetes.default.svc.cluster.local', 'SRV', 'SRV 443 kubernetes.default.svc.cluster.local'],
    ['_https._udp.kubernetes.default.svc.cluster.local', 'SRV', 'nxdomain'],
    ['_dns._udp.kube-dns.kube-system.svc.cluster.local', 'SRV', 'SRV 53 kube-dns.kube-system.svc.cluster.local'],
    ['kube-dns.kube-system.svc.cluster.local', 'SRV', 'SRV 53 kube-dns.kube-system.svc.cluster.local, SRV 53 kube-dns.kube-system.svc.cluster.local'],
    ['1.0.96.10.in-addr.arpa', 'PTR', 'PTR kubernetes.default.svc.cluster.local'],
    // Headless: the ready endpoints only, each under its hostname or its dashed address.
    ['web.shop.svc.cluster.local', 'A', 'A 10.244.0.5, A 10.244.0.6'],
    ['web-0.web.shop.svc.cluster.local', 'A', 'A 10.244.0.5'],
    ['10-244-0-6.web.shop.svc.cluster.local', 'A', 'A 10.244.0.6'],
    ['web-2.web.shop.svc.cluster.local', 'A', 'nxdomain'],
    ['_http._tcp.web.shop.svc.cluster.local', 'SRV', 'SRV 8080 10-244-0-6.web.shop.svc.cluster.local, SRV 8080 web-0.web.shop.svc.cluster.local'],
    ['5.0.244.10.in-addr.arpa', 'PTR', 'PTR web-0.web.shop.svc.cluster.local'],
    ['7.0.244.10.in-addr.arpa', 'PTR', 'elsewhere'],
    ['5.0.244.10.in-addr.arpa', 'A', 'nodata'],
    // ExternalName: the CNAME answers every type but CNAME itself, which the server then follows.
    ['db.shop.svc.cluster.local', 'A', 'CNAME db.example.com'],
    ['db.shop.svc.cluster.local', 'CNAME', 'CNAME db.example.com'],
    // Unnamed ports have no _port._proto name, but the bare name answers SRV for all.
    ['plain.shop.svc.cluster.local', 'SRV', 'SRV 80 plain.shop.svc.cluster.local'],
    // Pods by dashed address, only where a pod of that namespace has it (CoreDNS's "pods verified").
    ['10-244-0-5.shop.pod.cluster.local', 'A', 'A 10.244.0.5'],
    ['10-244-0-5.default.pod.cluster.local', 'A', 'nxdomain'],
    ['10-244-0-1.shop.pod.cluster.local', 'A', 'nxdomain'],
    // Names above records exist without records; unknown names in the zone do not exist.
    ['shop.svc.cluster.local', 'A', 'nodata'],
    ['svc.cluster.local', 'A', 'nodata'],
    ['cluster.local', 'A', 'nodata'],
    ['nothere.shop.svc.cluster.local', 'A', 'nxdomain'],
    ['nothere.svc.cluster.local', 'A', 'nxdomain'],
    ['x.cluster.local', 'AAAA', 'nxdomain'],
    ['cluster.local', 'NS', 'NS ns.dns.cluster.local'],
    ['ns.dns.cluster.local', 'A', 'A 10.96.0.10'],
    ['dns-version.cluster.local', 'TXT', 'TXT 1.1.0'],
    ['example.com', 'A', 'elsewhere'],
    ['8.8.8.8.in-addr.arpa', 'PTR', 'elsewhere'],
  ];
  for (const [name, type, expected] of table) assert.equal(show(index.lookup(name, type)), expected, `${name} ${type}`);
  const soa = index.lookup('cluster.local', 'SOA');
  assert.equal(soa.kind === 'answer' && soa.records[0]?.type, 'SOA');
});

test('records follow the objects\' changes: endpoints turning ready, slices moving, deletions', () => {
  const index = populated();
  const serial = index.soa().data.serial ?? 0;
  index.applySlice(slice('shop', 'web-abc', 'web', [{ addresses: ['10.244.0.7'], hostname: 'web-2', conditions: { ready: true } }], []));
  assert.equal(show(index.lookup('web.shop.svc.cluster.local', 'A')), 'A 10.244.0.7');
  assert.equal(show(index.lookup('web-0.web.shop.svc.cluster.local', 'A')), 'nxdomain');
  const moved = index.soa().data.serial ?? 0;
  assert.ok(moved > serial, 'the SOA serial moves with a change');
  index.applyPod({ ...pod('shop', 'web-0', '10.244.0.5'), metadata: { namespace: 'shop', name: 'web-0', resourceVersion: '99' } });
  assert.equal(index.soa().data.serial, moved, 'an event that changes no record leaves it');
  // A second slice adds to the first.
  index.applySlice(slice('shop', 'web-def', 'web', [{ addresses: ['10.244.0.8'] }]));
  assert.equal(show(index.lookup('web.shop.svc.cluster.local', 'A')), 'A 10.244.0.7, A 10.244.0.8');
  // Relabelled to another Service, the slice leaves web.
  index.applySlice(slice('shop', 'web-def', 'other', [{ addresses: ['10.244.0.8'] }]));
  assert.equal(show(index.lookup('web.shop.svc.cluster.local', 'A')), 'A 10.244.0.7');
  index.removeSlice(slice('shop', 'web-abc', 'web', []));
  assert.equal(show(index.lookup('web.shop.svc.cluster.local', 'A')), 'nxdomain', 'a headless Service without ready endpoints is NXDOMAIN (the spec)');
  // publishNotReadyAddresses publishes unready endpoints.
  index.applyService(service('shop', 'web', { clusterIP: 'None', publishNotReadyAddresses: true }));
  index.applySlice(slice('shop', 'web-abc', 'web', [{ addresses: ['10.244.0.9'], conditions: { ready: false } }]));
  assert.equal(show(index.lookup('web.shop.svc.cluster.local', 'A')), 'A 10.244.0.9');

  index.removeService(service('default', 'kubernetes', {}));
  assert.equal(show(index.lookup('kubernetes.default.svc.cluster.local', 'A')), 'nxdomain');
  assert.equal(show(index.lookup('default.svc.cluster.local', 'A')), 'nxdomain', 'the namespace had nothing else');
  assert.equal(show(index.lookup('1.0.96.10.in-addr.arpa', 'PTR')), 'elsewhere');
  // A Service whose ClusterIP is not allocated yet has no records.
  index.applyService(service('default', 'kubernetes', { ports: [{ name: 'https', port: 443 }] }));
  assert.equal(show(index.lookup('kubernetes.default.svc.cluster.local', 'A')), 'nxdomain');

  index.applyPod({ ...pod('shop', 'web-0', '10.244.0.5'), status: { phase: 'Succeeded', podIP: '10.244.0.5' } });
  assert.equal(show(index.lookup('10-244-0-5.shop.pod.cluster.local', 'A')), 'nxdomain', 'a finished pod gave its address back');
  index.applyPod(pod('shop', 'web-0', '10.244.0.5'));
  index.removePod(pod('shop', 'web-0', '10.244.0.5'));
  assert.equal(show(index.lookup('10-244-0-5.shop.pod.cluster.local', 'A')), 'nxdomain');
});

test('IPv6 Services get AAAA and ip6.arpa PTR records; another cluster domain is honoured', () => {
  const index = new RecordIndex({ zone: 'corp.internal' });
  index.applyService(service('default', 'v6', { clusterIP: 'fd00:10:96::a', clusterIPs: ['fd00:10:96::a'], ipFamilies: ['IPv6'] }));
  assert.equal(show(index.lookup('v6.default.svc.corp.internal', 'AAAA')), 'AAAA fd00:10:96::a');
  assert.equal(show(index.lookup('v6.default.svc.corp.internal', 'A')), 'nodata');
  assert.equal(show(index.lookup(reverseName('fd00:10:96::a') ?? '', 'PTR')), 'PTR v6.default.svc.corp.internal');
  assert.equal(show(index.lookup('v6.default.svc.cluster.local', 'AAAA')), 'elsewhere');
});

test('address names: reverse names and dashed addresses', () => {
  assert.equal(reverseName('10.96.0.1'), '1.0.96.10.in-addr.arpa');
  assert.equal(reverseName('2001:db8::1'), '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa');
  assert.equal(reverseName('fd00::'), `${'0.'.repeat(28)}0.0.d.f.ip6.arpa`);
  assert.equal(reverseName('not-an-ip'), undefined);
  assert.equal(dashedAddress('10.244.0.5'), '10-244-0-5');
  assert.equal(dashedAddress('FD00::5'), 'fd00--5');
});
