// The nft script of one node's proxy table, kube-proxy's nftables mode reduced to what Bosun's pod network
// needs: verdict maps from ClusterIP/NodePort to a chain per Service port, numgen random choice among its
// ready endpoints, ClientIP affinity through timed sets, masquerading of every proxied connection, and
// rejects for Service ports without endpoints. The script replaces the whole table in one transaction.
// See docs/networking.md, "The proxy".
import { createHash } from 'node:crypto';
import type { ServicePortRule } from './service-port-rule.ts';

export interface RulesetInput {
  /** The table's name (family ip). */
  table: string;
  /** The pods' bridge: pod traffic arrives on it, and forwarded traffic must not leave it. */
  bridge: string;
  /** This node's block: the pods whose traffic this table proxies (other nodes' tables serve their own). */
  podCIDR: string;
  services: readonly ServicePortRule[];
}

/** The bit that marks a connection for masquerading (kube-proxy's). */
export const MASQUERADE_MARK = '0x00004000';

/** A chain or set name (an nft identifier, which nft 1.0 does not accept quoted): readable, and unique whatever the API objects' names hold. */
function nameOf(prefix: string, id: string): string {
  const readable = id.replace(/[^A-Za-z0-9./_-]/g, '_').slice(0, 180);
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 8);
  return `${prefix}-${hash}-${readable}`;
}

/** An interface name as an nft string. */
function quoted(name: string): string {
  return `"${name}"`;
}

function elements(items: readonly string[]): string {
  return items.length === 0 ? '' : `\n\t\telements = { ${items.join(',\n\t\t\t     ')} }`;
}

function chain(name: string, rules: readonly string[]): string {
  return `\tchain ${name} {\n${rules.map((rule) => `\t\t${rule}\n`).join('')}\t}\n`;
}

function baseChain(name: string, type: string, hook: string, priority: string, rules: readonly string[]): string {
  return chain(name, [`type ${type} hook ${hook} priority ${priority}; policy accept;`, ...rules]);
}

export function renderRuleset(input: RulesetInput): string {
  const { table, bridge, podCIDR } = input;
  const serviceIPs: string[] = [];
  const nodePorts: string[] = [];
  const noEndpointServices: string[] = [];
  const noEndpointNodePorts: string[] = [];
  const clusterIPs = new Set<string>();
  const perService: string[] = [];

  for (const service of input.services) {
    clusterIPs.add(service.clusterIP);
    const key = `${service.clusterIP} . ${service.protocol} . ${service.port}`;
    const nodeKey = service.nodePort === undefined ? undefined : `${service.protocol} . ${service.nodePort}`;
    if (service.endpoints.length === 0) {
      noEndpointServices.push(key);
      if (nodeKey !== undefined) noEndpointNodePorts.push(nodeKey);
      continue;
    }
    const serviceChain = nameOf('service', service.id);
    serviceIPs.push(`${key} : goto ${serviceChain}`);
    if (nodeKey !== undefined) nodePorts.push(`${nodeKey} : goto ${serviceChain}`);
    const endpointChains = service.endpoints.map((endpoint) => ({ endpoint, chain: nameOf('endpoint', `${service.id}/${endpoint.ip}:${endpoint.port}`) }));
    const affinity = service.affinitySeconds === undefined ? [] : endpointChains.map(({ chain: name }) => ({ chain: name, set: nameOf('affinity', name) }));
    for (const { set } of affinity) perService.push(`\tset ${set} {\n\t\ttype ipv4_addr\n\t\tflags dynamic,timeout\n\t\ttimeout ${service.affinitySeconds}s\n\t}\n`);
    perService.push(
      chain(serviceChain, [
        'jump mark-for-masquerade',
        ...affinity.map(({ chain: name, set }) => `ip saddr @${set} goto ${name}`),
        `numgen random mod ${endpointChains.length} vmap { ${endpointChains.map(({ chain: name }, i) => `${i} : goto ${name}`).join(', ')} }`,
      ]),
    );
    endpointChains.forEach(({ endpoint, chain: name }, i) => {
      const set = affinity[i]?.set;
      perService.push(
        chain(name, [
          ...(set === undefined ? [] : [`update @${set} { ip saddr }`]),
          `meta l4proto ${service.protocol} dnat to ${endpoint.ip}:${endpoint.port}`,
        ]),
      );
    });
  }

  const fromPods = `iifname ${quoted(bridge)} ip saddr ${podCIDR}`;
  const checks = ['ct state new jump endpoints-check', 'ct state new jump cluster-ips-check'];
  return [
    // Creating then deleting the table makes the deletion valid on the first run; the rest recreates it.
    `table ip ${table} {\n}\n`,
    `delete table ip ${table}\n`,
    `table ip ${table} {\n`,
    `\tset cluster-ips {\n\t\ttype ipv4_addr${elements([...clusterIPs].sort())}\n\t}\n`,
    `\tmap service-ips {\n\t\ttype ipv4_addr . inet_proto . inet_service : verdict${elements(serviceIPs)}\n\t}\n`,
    `\tmap service-nodeports {\n\t\ttype inet_proto . inet_service : verdict${elements(nodePorts)}\n\t}\n`,
    `\tset no-endpoint-services {\n\t\ttype ipv4_addr . inet_proto . inet_service${elements(noEndpointServices)}\n\t}\n`,
    `\tset no-endpoint-nodeports {\n\t\ttype inet_proto . inet_service${elements(noEndpointNodePorts)}\n\t}\n`,
    chain('mark-for-masquerade', [`meta mark set meta mark or ${MASQUERADE_MARK}`]),
    chain('masquerading', [`meta mark & ${MASQUERADE_MARK} == 0 return`, `meta mark set meta mark xor ${MASQUERADE_MARK}`, 'masquerade fully-random']),
    chain('services', ['ip daddr . meta l4proto . th dport vmap @service-ips', 'fib daddr type local meta l4proto . th dport vmap @service-nodeports']),
    // A Service port without endpoints, and a ClusterIP's other ports, answer "connection refused" at once: a
    // TCP reset (an ICMP error to a SYN leaves the client retrying for a second), ICMP for other protocols.
    chain('refuse', ['meta l4proto tcp reject with tcp reset', 'reject']),
    chain('refuse-off-machine', ['meta l4proto tcp reject with tcp reset', 'reject with icmp type host-unreachable']),
    chain('endpoints-check', [
      'ip daddr . meta l4proto . th dport @no-endpoint-services goto refuse',
      'fib daddr type local meta l4proto . th dport @no-endpoint-nodeports goto refuse',
    ]),
    chain('cluster-ips-check', ['ip daddr @cluster-ips goto refuse']),
    // Pods of this node, and the host itself; traffic that leaves through DNAT is masqueraded in postrouting.
    baseChain('nat-prerouting', 'nat', 'prerouting', '-100', [`${fromPods} jump services`]),
    baseChain('nat-output', 'nat', 'output', '-100', ['jump services']),
    baseChain('nat-postrouting', 'nat', 'postrouting', '100', ['jump masquerading']),
    baseChain('filter-input', 'filter', 'input', '-10', [
      ...checks,
      // route_localnet lets DNAT reach an endpoint on 127.0.0.0/8 (the API server); nothing else on the host's
      // loopback answers pods.
      `iifname ${quoted(bridge)} ip daddr 127.0.0.0/8 ct status & dnat != dnat counter drop`,
    ]),
    baseChain('filter-output', 'filter', 'output', '-10', checks),
    // The bridge forwards so that DNAT can route pod to pod; nothing forwarded crosses into or out of it.
    baseChain('filter-forward', 'filter', 'forward', '-10', [
      ...checks,
      `iifname ${quoted(bridge)} oifname != ${quoted(bridge)} counter goto refuse-off-machine`,
      `oifname ${quoted(bridge)} iifname != ${quoted(bridge)} counter drop`,
    ]),
    ...perService,
    '}\n',
  ].join('');
}
