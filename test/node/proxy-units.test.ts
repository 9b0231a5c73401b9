// The proxy's pure parts: Services and EndpointSlices to rules, rules to the nft script (checked by nft itself,
// which parses it without applying), and the applier's coalescing and backoff.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Service } from '../../src/apimachinery/api/core-v1.ts';
import type { EndpointSlice } from '../../src/apimachinery/api/discovery-v1.ts';
import { runHostCommand } from '../../src/node/network/host-command.ts';
import { RulesetApplier } from '../../src/node/proxy/ruleset-applier.ts';
import { renderRuleset } from '../../src/node/proxy/ruleset.ts';
import { servicePortRules, type ServicePortRule } from '../../src/node/proxy/service-port-rule.ts';
import { FakeClock } from '../../src/runtime/workqueue/fake-clock.ts';

function service(name: string, spec: Service['spec']): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'ns' }, spec };
}

function slice(name: string, service: string, endpoints: EndpointSlice['endpoints'], ports: EndpointSlice['ports'], addressType: EndpointSlice['addressType'] = 'IPv4'): EndpointSlice {
  return { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name, namespace: 'ns', labels: { 'kubernetes.io/service-name': service } }, addressType, endpoints, ports };
}

test('servicePortRules: ready IPv4 endpoints per port, by port name and protocol, across slices', () => {
  const rules = servicePortRules(
    [
      service('web', { clusterIP: '10.96.0.20', ports: [{ name: 'http', port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }] }),
      service('headless', { clusterIP: 'None', ports: [{ port: 80 }] }),
      service('external', { type: 'ExternalName', externalName: 'example.com' }),
      service('np', { type: 'NodePort', clusterIP: '10.96.0.21', ports: [{ port: 80, nodePort: 30080 }], sessionAffinity: 'ClientIP' }),
      service('cluster-only', { clusterIP: '10.96.0.22', ports: [{ port: 80, nodePort: 30081 }], sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } }),
    ],
    [
      slice('web-a', 'web', [{ addresses: ['10.244.0.3'] }, { addresses: ['10.244.0.4'], conditions: { ready: false } }], [{ name: 'http', port: 8080 }, { name: 'dns', port: 5353, protocol: 'UDP' }]),
      slice('web-b', 'web', [{ addresses: ['10.244.0.2'], conditions: { ready: true } }, { addresses: ['10.244.0.3'] }], [{ name: 'http', port: 8080 }]),
      slice('web-v6', 'web', [{ addresses: ['fd00::1'] }], [{ name: 'http', port: 8080 }], 'IPv6'),
      slice('np-a', 'np', [{ addresses: ['10.244.0.9'] }], [{ port: 8080 }]),
    ],
  );
  assert.deepEqual(rules, [
    { id: 'ns/cluster-only/tcp/80', clusterIP: '10.96.0.22', protocol: 'tcp', port: 80, affinitySeconds: 60, endpoints: [] },
    { id: 'ns/np/tcp/80', clusterIP: '10.96.0.21', protocol: 'tcp', port: 80, nodePort: 30080, affinitySeconds: 10_800, endpoints: [{ ip: '10.244.0.9', port: 8080 }] },
    { id: 'ns/web/tcp/http', clusterIP: '10.96.0.20', protocol: 'tcp', port: 80, endpoints: [{ ip: '10.244.0.2', port: 8080 }, { ip: '10.244.0.3', port: 8080 }] },
    { id: 'ns/web/udp/dns', clusterIP: '10.96.0.20', protocol: 'udp', port: 53, endpoints: [{ ip: '10.244.0.3', port: 5353 }] },
  ]);
});

const base = { table: 'bosun-proxy-test', bridge: 'bosun0', podCIDR: '10.244.0.0/24' };
const web: ServicePortRule = { id: 'ns/web/tcp/http', clusterIP: '10.96.0.20', protocol: 'tcp', port: 80, endpoints: [{ ip: '10.244.0.2', port: 8080 }, { ip: '10.244.0.3', port: 8080 }] };

const cases: { name: string; services: ServicePortRule[]; has: RegExp[]; hasNot?: RegExp[] }[] = [
  {
    name: 'no Services: the fixed chains, empty maps',
    services: [],
    has: [
      /^table ip bosun-proxy-test \{\n\}\ndelete table ip bosun-proxy-test\ntable ip bosun-proxy-test \{\n/,
      /chain nat-prerouting \{\n\t\ttype nat hook prerouting priority -100; policy accept;\n\t\tiifname "bosun0" ip saddr 10\.244\.0\.0\/24 jump services\n/,
      /chain nat-output \{\n\t\ttype nat hook output priority -100; policy accept;\n\t\tjump services\n/,
      /chain masquerading \{\n\t\tmeta mark & 0x00004000 == 0 return\n\t\tmeta mark set meta mark xor 0x00004000\n\t\tmasquerade fully-random\n/,
      /iifname "bosun0" ip daddr 127\.0\.0\.0\/8 ct status & dnat != dnat counter drop/,
      /iifname "bosun0" oifname != "bosun0" counter goto refuse-off-machine/,
      /chain refuse \{\n\t\tmeta l4proto tcp reject with tcp reset\n\t\treject\n/,
      /oifname "bosun0" iifname != "bosun0" counter drop/,
      /map service-ips \{\n\t\ttype ipv4_addr \. inet_proto \. inet_service : verdict\n\t\}/,
    ],
    hasNot: [/elements/, /chain service-/],
  },
  {
    name: 'a ClusterIP with two endpoints: a random choice between two DNAT chains, masqueraded',
    services: [web],
    has: [
      /10\.96\.0\.20 \. tcp \. 80 : goto service-[0-9a-f]{8}-ns\/web\/tcp\/http/,
      /chain service-[0-9a-f]{8}-ns\/web\/tcp\/http \{\n\t\tjump mark-for-masquerade\n\t\tnumgen random mod 2 vmap \{ 0 : goto endpoint-[0-9a-f]{8}-ns\/web\/tcp\/http\/10\.244\.0\.2_8080, 1 : goto endpoint-[0-9a-f]{8}-ns\/web\/tcp\/http\/10\.244\.0\.3_8080 \}\n/,
      /chain endpoint-[0-9a-f]{8}-ns\/web\/tcp\/http\/10\.244\.0\.3_8080 \{\n\t\tmeta l4proto tcp dnat to 10\.244\.0\.3:8080\n\t\}/,
      /set cluster-ips \{\n\t\ttype ipv4_addr\n\t\telements = \{ 10\.96\.0\.20 \}/,
    ],
    hasNot: [/no-endpoint-services \{\n\t\ttype ipv4_addr \. inet_proto \. inet_service\n\t\telements/, /affinity-/],
  },
  {
    name: 'a NodePort with ClientIP affinity: the node port map, a timed set per endpoint',
    services: [{ ...web, nodePort: 30080, affinitySeconds: 60 }],
    has: [
      /map service-nodeports \{\n\t\ttype inet_proto \. inet_service : verdict\n\t\telements = \{ tcp \. 30080 : goto service-/,
      /set affinity-[0-9a-f]{8}-endpoint-[^ ]+10\.244\.0\.2_8080 \{\n\t\ttype ipv4_addr\n\t\tflags dynamic,timeout\n\t\ttimeout 60s\n\t\}/,
      /ip saddr @affinity-[^ ]+ goto endpoint-[^ ]+10\.244\.0\.2_8080\n/,
      /update @affinity-[^ ]+ \{ ip saddr \}\n\t\tmeta l4proto tcp dnat to 10\.244\.0\.2:8080/,
    ],
  },
  {
    name: 'no endpoints: rejected by ClusterIP and NodePort, no service chain',
    services: [{ ...web, nodePort: 30080, endpoints: [] }],
    has: [/set no-endpoint-services \{\n[^}]+elements = \{ 10\.96\.0\.20 \. tcp \. 80 \}/, /set no-endpoint-nodeports \{\n[^}]+elements = \{ tcp \. 30080 \}/, /ip daddr \. meta l4proto \. th dport @no-endpoint-services goto refuse\n/],
    hasNot: [/chain service-/, /: goto service-/],
  },
  {
    name: 'an API object name nft cannot parse is made an identifier',
    services: [{ ...web, id: 'ns/we b"; flush ruleset/tcp/http', protocol: 'udp' }],
    has: [/chain service-[0-9a-f]{8}-ns\/we_b___flush_ruleset\/tcp\/http \{/, /meta l4proto udp dnat to 10\.244\.0\.2:8080/],
    hasNot: [/flush ruleset/],
  },
];

for (const c of cases) {
  test(`renderRuleset: ${c.name}`, async () => {
    const script = renderRuleset({ ...base, services: c.services });
    for (const pattern of c.has) assert.match(script, pattern);
    for (const pattern of c.hasNot ?? []) assert.doesNotMatch(script, pattern);
    // nft parses and checks it against the kernel without applying (-c).
    await runHostCommand(['nft', '-c', '-f', '-'], script);
  });
}

test('RulesetApplier: a burst of changes is one transaction, an unchanged script none', async () => {
  const applied: string[] = [];
  let state = 0;
  const applier = new RulesetApplier({ render: () => `state ${state}`, apply: async (script) => void applied.push(script), onFailure: () => assert.fail('no failure') });
  for (state = 1; state <= 100; state++) applier.request();
  await applier.settled();
  assert.deepEqual(applied, ['state 101']);
  applier.request();
  await applier.settled();
  assert.deepEqual(applied, ['state 101']);
  await applier.stop();
});

test('RulesetApplier: a failed transaction is retried with exponential backoff and reported', async () => {
  const clock = new FakeClock();
  const failures: { failures: number; retryInMs: number }[] = [];
  let attempts = 0;
  let recovered: number | undefined;
  const applier = new RulesetApplier({
    render: () => 'script',
    apply: async () => {
      if (++attempts <= 3) throw new Error('nft: Could not process rule');
    },
    onFailure: (_error, info) => failures.push(info),
    onApplied: ({ failuresBefore }) => (recovered = failuresBefore),
    backoff: { initialMs: 100, jitter: 0 },
    clock,
  });
  applier.request();
  await applier.settled();
  for (const wait of [100, 200, 400]) {
    assert.equal(failures.at(-1)?.retryInMs, wait);
    // A change while the retry waits does not skip the backoff.
    applier.request();
    assert.equal(attempts, failures.length);
    clock.advance(wait);
    await applier.settled();
  }
  assert.deepEqual(failures.map((f) => f.failures), [1, 2, 3]);
  assert.equal(attempts, 4);
  assert.equal(recovered, 3);
  await applier.stop();
});
