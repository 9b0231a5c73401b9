// The nftables renderers of the network and dns kinds, as a table: each case's classify and disrupt chains
// (upstream's tc filters and netem/tbf, in nft), and every rendered script checked by this machine's nft
// (`nft --check` in a throwaway network namespace).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { emptySpec, parseHostSpec, type NetworkDisruptionSpec } from '../../../../src/chaos/injector/kinds/network/network-spec.ts';
import { deleteTableScript, renderDnsRuleset, renderNetworkRuleset, type NftNetworkInput } from '../../../../src/chaos/injector/kinds/network/nft-ruleset.ts';
import type { ResolvedHost } from '../../../../src/chaos/injector/kinds/network/plan.ts';
import { serviceFilters } from '../../../../src/chaos/injector/kinds/network/service-filters.ts';
import { parseServiceSpec } from '../../../../src/chaos/injector/kinds/network/network-spec.ts';
import type { RuntimeService } from '../../../../src/client/node-runtime/protocol.ts';

const host = (ips: string[], more: Partial<ResolvedHost> = {}): ResolvedHost => ({ port: 0, protocol: '', flow: '', connState: '', ips, ...more });
const spec = (more: Partial<NetworkDisruptionSpec>): NetworkDisruptionSpec => ({ ...emptySpec(), ...more });
const pod = { level: 'pod' as const, links: ['lo', 'eth0'], defaultRoutes: [{ gateway: '10.244.0.1', dev: 'eth0' }], nodeIP: '192.168.1.10', hosts: [], allowedHosts: [], services: [] };
const POD_SAFEGUARDS = ['oifname "eth0" ip daddr 10.244.0.1 meta l4proto tcp return', 'ip daddr 192.168.1.10 meta l4proto tcp return'];

/** The rules of a chain: the lines between `\tchain NAME {` and the next `\t}`. */
function chain(script: string, name: string): string[] {
  const lines = script.split('\n');
  const start = lines.indexOf(`\tchain ${name} {`);
  assert.ok(start >= 0, `chain ${name} in\n${script}`);
  return lines.slice(start + 1, lines.indexOf('\t}', start)).map((l) => l.trim());
}

const cases: { name: string; input: NftNetworkInput; classify: string[]; disrupt: string[] }[] = [
  {
    name: 'drop 100%, no hosts: every IPv4 tcp and udp packet',
    input: { ...pod, spec: spec({ drop: 100 }) },
    classify: [...POD_SAFEGUARDS, 'meta nfproto ipv4 meta l4proto { tcp, udp } goto disrupt'],
    disrupt: ['drop'],
  },
  {
    name: 'drop 30% to a host on a port, one protocol; an allowed host first',
    input: { ...pod, spec: spec({ drop: 30, hosts: [{ host: '10.0.0.0/8', port: 8080, protocol: 'tcp', flow: '', connState: '', dnsResolver: '' }] }), hosts: [host(['10.0.0.0/8'], { port: 8080, protocol: 'tcp' })], allowedHosts: [host(['10.0.0.1/32'])] },
    classify: [...POD_SAFEGUARDS, 'ip daddr 10.0.0.1 meta l4proto tcp return', 'ip daddr 10.0.0.1 meta l4proto udp return', 'ip daddr 10.0.0.0/8 meta l4proto tcp th dport 8080 goto disrupt'],
    disrupt: ['numgen random mod 100 < 30 drop'],
  },
  {
    name: 'ingress flow and connection state: the host as source, ct state',
    input: { ...pod, spec: spec({ drop: 50, hosts: [{ host: '', port: 80, protocol: 'tcp', flow: 'ingress', connState: 'est', dnsResolver: '' }] }), hosts: [host(['0.0.0.0/0'], { port: 80, protocol: 'tcp', flow: 'ingress', connState: 'est' })] },
    classify: [...POD_SAFEGUARDS, 'meta nfproto ipv4 meta l4proto tcp th sport 80 ct state established goto disrupt'],
    disrupt: ['numgen random mod 100 < 50 drop'],
  },
  {
    name: 'bandwidth only, a resolved name: one named limit for all disrupted packets',
    input: { ...pod, spec: spec({ bandwidthLimit: 4096, hosts: [{ host: 'db', port: 0, protocol: '', flow: '', connState: 'new', dnsResolver: '' }] }), hosts: [host(['10.2.0.7/32', '10.2.0.8/32'], { connState: 'new' })] },
    classify: [
      ...POD_SAFEGUARDS,
      'ip daddr 10.2.0.7 meta l4proto tcp ct state new goto disrupt', 'ip daddr 10.2.0.7 meta l4proto udp ct state new goto disrupt',
      'ip daddr 10.2.0.8 meta l4proto tcp ct state new goto disrupt', 'ip daddr 10.2.0.8 meta l4proto udp ct state new goto disrupt',
    ],
    disrupt: ['limit name "bandwidth" drop'],
  },
  {
    name: 'node level: SSH and the metadata service kept, drop then limit',
    input: { ...pod, level: 'node', links: ['eth0'], spec: spec({ drop: 10, bandwidthLimit: 1024 }) },
    classify: ['meta nfproto ipv4 meta l4proto tcp th sport 22 return', 'ip daddr 169.254.169.254 meta l4proto tcp return', 'meta nfproto ipv4 meta l4proto { tcp, udp } goto disrupt'],
    disrupt: ['numgen random mod 100 < 10 drop', 'limit name "bandwidth" drop'],
  },
];

const nftWorks = spawnSync('unshare', ['--net', '--', 'nft', 'list', 'ruleset']).status === 0;
function nftCheck(script: string): void {
  const result = spawnSync('unshare', ['--net', '--', 'nft', '--check', script], { encoding: 'utf8' });
  assert.equal(result.status, 0, `nft --check:\n${script}\n${result.stderr}`);
}

for (const c of cases) {
  test(`network ruleset: ${c.name}`, () => {
    const script = renderNetworkRuleset(c.input);
    assert.deepEqual(chain(script, 'classify'), c.classify);
    assert.deepEqual(chain(script, 'disrupt'), c.disrupt);
    assert.deepEqual(chain(script, 'egress'), ['type filter hook output priority filter; policy accept;', `oifname { ${c.input.links.map((l) => `"${l}"`).join(', ')} } jump classify`]);
    assert.ok(script.startsWith('table inet bosun-chaos {}\ndelete table inet bosun-chaos\ntable inet bosun-chaos {\n'), 'the table is replaced whole');
    if (c.input.spec.bandwidthLimit > 0) assert.ok(script.includes(`\t\trate over ${c.input.spec.bandwidthLimit} bytes/second burst 65536 bytes\n`), 'the bucket holds a GSO packet');
    else assert.ok(!script.includes('limit bandwidth {'));
    if (nftWorks) nftCheck(script);
  });
}

// A services filter as the node agent describes its Service (ClusterIP 10.96.0.12, http 80 → 8080 and metrics
// 9090, two ready pods), rendered after the hosts: the ClusterIP on each affected port, each ready endpoint on
// that port's target port.
const api: RuntimeService = {
  namespace: 'shop',
  name: 'api',
  exists: true,
  clusterIP: '10.96.0.12',
  ports: [
    { name: 'http', protocol: 'TCP', port: 80, endpoints: [{ ip: '10.244.0.5', port: 8080 }, { ip: '10.244.0.6', port: 8080 }] },
    { name: 'metrics', protocol: 'TCP', port: 9090, endpoints: [{ ip: '10.244.0.5', port: 9090 }, { ip: '10.244.0.6', port: 9090 }] },
  ],
  endpointIPs: ['10.244.0.5', '10.244.0.6'],
};
const headless: RuntimeService = { namespace: 'shop', name: 'api-headless', exists: true, ports: api.ports, endpointIPs: api.endpointIPs };
const rule = (ip: string, port: number, protocol = 'tcp') => `ip daddr ${ip} meta l4proto ${protocol}${port ? ` th dport ${port}` : ''} goto disrupt`;

const serviceCases: { name: string; services: string; view: RuntimeService; hosts?: ResolvedHost[]; classify: string[]; missingPorts?: string[] }[] = [
  {
    name: 'every port: the ClusterIP on its ports, the endpoints on their target ports',
    services: 'api;shop;100',
    view: api,
    classify: [rule('10.96.0.12', 80), rule('10.96.0.12', 9090), rule('10.244.0.5', 8080), rule('10.244.0.6', 8080), rule('10.244.0.5', 9090), rule('10.244.0.6', 9090)],
  },
  {
    name: 'a port by name (upstream sends 0-http)',
    services: 'api;shop;0-http;100',
    view: api,
    classify: [rule('10.96.0.12', 80), rule('10.244.0.5', 8080), rule('10.244.0.6', 8080)],
  },
  {
    name: 'a port by number; one the Service lacks is left out and reported',
    services: 'api;shop;9090-;81-;100',
    view: api,
    classify: [rule('10.96.0.12', 9090), rule('10.244.0.5', 9090), rule('10.244.0.6', 9090)],
    missingPorts: ['81'],
  },
  {
    name: 'a number whose name does not match is not that port',
    services: 'api;shop;80-metrics;100',
    view: api,
    classify: [],
    missingPorts: ['80 (metrics)'],
  },
  {
    name: 'a headless Service: its ready pods on every port, tcp and udp',
    services: 'api-headless;shop;100',
    view: headless,
    classify: [rule('10.244.0.5', 0), rule('10.244.0.5', 0, 'udp'), rule('10.244.0.6', 0), rule('10.244.0.6', 0, 'udp')],
  },
  {
    name: 'a UDP port; and hosts come before services',
    services: 'dns;shop;100',
    view: { ...api, name: 'dns', ports: [{ name: 'dns', protocol: 'UDP', port: 53, endpoints: [{ ip: '10.244.0.7', port: 5353 }] }], endpointIPs: ['10.244.0.7'] },
    hosts: [host(['10.0.0.1/32'], { port: 443, protocol: 'tcp' })],
    classify: [rule('10.0.0.1', 443), rule('10.96.0.12', 53, 'udp'), rule('10.244.0.7', 5353, 'udp')],
  },
  {
    name: 'percentage 50: the ClusterIP kept, half the endpoints (all their ports), as upstream picks them',
    services: 'api;shop;50',
    view: api,
    classify: [rule('10.96.0.12', 80), rule('10.96.0.12', 9090), rule('10.244.0.5', 8080), rule('10.244.0.5', 9090)],
  },
  {
    name: 'a Service that is gone: nothing of it is disrupted',
    services: 'api;shop;100',
    view: { namespace: 'shop', name: 'api', exists: false, ports: [], endpointIPs: [] },
    classify: [],
  },
];

for (const c of serviceCases) {
  test(`network ruleset, services filter: ${c.name}`, () => {
    const service = parseServiceSpec(c.services);
    const filters = serviceFilters(service, c.view, 'uid-1');
    assert.deepEqual(filters.missingPorts, c.missingPorts ?? []);
    const script = renderNetworkRuleset({ ...pod, spec: spec({ drop: 100, services: [service], hosts: (c.hosts ?? []).map(() => parseHostSpec('10.0.0.1;443;tcp')) }), hosts: c.hosts ?? [], services: filters.destinations });
    assert.deepEqual(chain(script, 'classify'), [...POD_SAFEGUARDS, ...c.classify]);
    assert.deepEqual(chain(script, 'disrupt'), ['drop']);
    if (nftWorks) nftCheck(script);
  });
}

test('dns ruleset: udp and tcp to the port, whatever the destination, DNATed to the responder from output and prerouting', () => {
  const script = renderDnsRuleset({ protocols: ['udp', 'tcp'], port: 53, responderIP: '10.244.0.9', udpPort: 5353, tcpPort: 5354 });
  const rules = ['meta nfproto ipv4 udp dport 53 dnat ip to 10.244.0.9:5353', 'meta nfproto ipv4 tcp dport 53 dnat ip to 10.244.0.9:5354'];
  assert.deepEqual(chain(script, 'output'), ['type nat hook output priority -100; policy accept;', ...rules]);
  assert.deepEqual(chain(script, 'prerouting'), ['type nat hook prerouting priority -100; policy accept;', ...rules]);
  assert.ok(script.startsWith('table inet bosun-chaos-dns {}\ndelete table inet bosun-chaos-dns\n'));
  if (nftWorks) nftCheck(script);
});

test('deleting a table that is not there succeeds', { skip: !nftWorks && 'nft does not run here' }, () => {
  const result = spawnSync('unshare', ['--net', '--', 'nft', deleteTableScript('inet bosun-chaos')], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
});
