// The nftables rulesets of the network and dns kinds, for kernels without tc qdiscs: pure renderers of one
// `nft` script each, applied in the target's network namespace as one transaction. Each script first creates
// and deletes its table, then writes it whole, so applying it again (an injector restarted, a container
// re-injected) replaces the table atomically; clean deletes the table the same idempotent way.
//
// The network table mirrors upstream's tc tree (network/plan.ts) on the output hook, which sees the same
// packets as the egress qdiscs of the disrupted links:
//   egress   (filter hook, output): packets leaving by a disrupted link jump to classify
//   classify safeguards and allowed hosts return (upstream's band 1:1), hosts and services' destinations (or
//            everything) goto disrupt (band 1:4), in upstream's filter priority order: the first match wins
//   disrupt  drop (`numgen random mod 100 < N`, netem's loss) then the bandwidth limit (a named limit shared
//            by every disrupted packet, as the one tbf was): over the rate, packets are dropped
import type { NetworkDisruptionSpec } from './network-spec.ts';
import type { DefaultRoute, ResolvedHost } from './plan.ts';
import { allProtocols, connState, type Protocol } from './tc-commands.ts';

/** inet: one table sees IPv4 and IPv6 (the rules match IPv4 only, as upstream's `protocol ip` filters). */
export const NETWORK_TABLE = 'inet bosun-chaos';
export const DNS_TABLE = 'inet bosun-chaos-dns';

export interface NftNetworkInput {
  spec: Pick<NetworkDisruptionSpec, 'drop' | 'bandwidthLimit' | 'hosts' | 'services'>;
  level: 'pod' | 'node';
  /** The disrupted links' names (upstream's LinkList). */
  links: readonly string[];
  defaultRoutes: readonly DefaultRoute[];
  nodeIP: string;
  hosts: readonly ResolvedHost[];
  allowedHosts: readonly ResolvedHost[];
  /** The services filters' destinations (ClusterIP:port, endpoint IP:target port), disrupted after the hosts. */
  services: readonly ResolvedHost[];
}

const METADATA_IP = '169.254.169.254';
/**
 * The bandwidth bucket holds at least 64 KiB: the output hook sees GSO packets of up to 64 KiB, and a packet
 * bigger than the bucket would never pass (tbf drops those too, so upstream's `burst = rate` stalls TCP at
 * small rates). The rate holds on average; a burst of up to this size passes at once.
 */
export const MIN_BURST_BYTES = 65536;

/** `table X {}` then `delete table X`: the delete never fails, whether the table was there or not. */
const dropTable = (table: string): string[] => [`table ${table} {}`, `delete table ${table}`];

/** The script that deletes a table if it exists. */
export const deleteTableScript = (table: string): string => `${dropTable(table).join('\n')}\n`;

/** `/32` is implied for a single address; 0.0.0.0/0 matches any IPv4 address. */
function addressMatch(direction: 'saddr' | 'daddr', cidr: string | undefined): string {
  if (cidr === undefined || cidr === '0.0.0.0/0') return 'meta nfproto ipv4';
  return `ip ${direction} ${cidr.replace(/\/32$/, '')}`;
}

interface Match {
  srcIP?: string;
  dstIP?: string;
  srcPort?: number;
  dstPort?: number;
  protocol: Protocol;
  connState?: string;
  oif?: string;
}

function matchExpression(m: Match): string {
  const parts: string[] = [];
  if (m.oif !== undefined) parts.push(`oifname "${m.oif}"`);
  parts.push(m.srcIP !== undefined && m.srcIP !== '0.0.0.0/0' ? addressMatch('saddr', m.srcIP) : addressMatch('daddr', m.dstIP));
  if (m.srcIP !== undefined && m.srcIP !== '0.0.0.0/0' && m.dstIP !== undefined && m.dstIP !== '0.0.0.0/0') parts.push(addressMatch('daddr', m.dstIP));
  parts.push(`meta l4proto ${m.protocol}`);
  if (m.srcPort) parts.push(`th sport ${m.srcPort}`);
  if (m.dstPort) parts.push(`th dport ${m.dstPort}`);
  if (m.connState === '+trk+new') parts.push('ct state new');
  if (m.connState === '+trk+est') parts.push('ct state established');
  return parts.join(' ');
}

/** addFiltersForHosts: per address and protocol; ingress matches the host as source (upstream's flow). ARP never reaches an inet table. */
function hostRules(host: ResolvedHost, verdict: string): string[] {
  const state = connState(host.connState);
  return host.ips.flatMap((ip) => {
    const ends = host.flow === 'ingress' ? { srcIP: ip, srcPort: host.port } : { dstIP: ip, dstPort: host.port };
    return allProtocols(host.protocol).filter((p) => p !== 'arp').map((protocol) => `${matchExpression({ ...ends, protocol, connState: state })} ${verdict}`);
  });
}

export function renderNetworkRuleset(input: NftNetworkInput): string {
  const { spec } = input;
  const classify: string[] = [];
  // Safeguards first (upstream adds them before the hosts' filters, with lower priorities).
  if (input.level === 'pod') {
    for (const route of input.defaultRoutes) classify.push(`${matchExpression({ oif: route.dev, dstIP: route.gateway, protocol: 'tcp' })} return`);
    if (input.nodeIP !== '') classify.push(`${matchExpression({ dstIP: input.nodeIP, protocol: 'tcp' })} return`);
  } else {
    classify.push(`${matchExpression({ srcPort: 22, protocol: 'tcp' })} return`); // SSH
    classify.push(`${matchExpression({ dstIP: METADATA_IP, protocol: 'tcp' })} return`);
  }
  for (const host of input.allowedHosts) classify.push(...hostRules(host, 'return'));
  if (spec.hosts.length === 0 && spec.services.length === 0) classify.push('meta nfproto ipv4 meta l4proto { tcp, udp } goto disrupt');
  else for (const host of [...input.hosts, ...input.services]) classify.push(...hostRules(host, 'goto disrupt'));

  const disrupt: string[] = [];
  if (spec.drop >= 100) disrupt.push('drop');
  else if (spec.drop > 0) disrupt.push(`numgen random mod 100 < ${spec.drop} drop`);
  if (spec.bandwidthLimit > 0) disrupt.push('limit name "bandwidth" drop');

  const lines = [...dropTable(NETWORK_TABLE), `table ${NETWORK_TABLE} {`];
  if (spec.bandwidthLimit > 0) lines.push('\tlimit bandwidth {', `\t\trate over ${spec.bandwidthLimit} bytes/second burst ${Math.max(spec.bandwidthLimit, MIN_BURST_BYTES)} bytes`, '\t}');
  lines.push('\tchain disrupt {', ...disrupt.map((r) => `\t\t${r}`), '\t}');
  lines.push('\tchain classify {', ...classify.map((r) => `\t\t${r}`), '\t}');
  lines.push('\tchain egress {', '\t\ttype filter hook output priority filter; policy accept;');
  if (input.links.length > 0) lines.push(`\t\toifname { ${input.links.map((l) => `"${l}"`).join(', ')} } jump classify`);
  lines.push('\t}', '}');
  return `${lines.join('\n')}\n`;
}

export interface NftDnsInput {
  protocols: readonly ('udp' | 'tcp')[];
  /** The DNS port redirected (--port). */
  port: number;
  responderIP: string;
  udpPort: number;
  tcpPort: number;
}

/** The DNS redirect: every query to the port, whatever its destination, DNATed to the responder (nat output for the netns' own queries, prerouting for what enters it). */
export function renderDnsRuleset(input: NftDnsInput): string {
  const rules = input.protocols.map((p) => `\t\tmeta nfproto ipv4 ${p} dport ${input.port} dnat ip to ${input.responderIP}:${p === 'udp' ? input.udpPort : input.tcpPort}`);
  const chain = (name: string, hook: string) => [`\tchain ${name} {`, `\t\ttype nat hook ${hook} priority -100; policy accept;`, ...rules, '\t}'];
  return `${[...dropTable(DNS_TABLE), `table ${DNS_TABLE} {`, ...chain('output', 'output'), ...chain('prerouting', 'prerouting'), '}'].join('\n')}\n`;
}
