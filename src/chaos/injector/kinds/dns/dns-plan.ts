// The iptables rules of a DNS disruption (upstream's dnsDisruptionInjector.setupIPTablesForProtocol): per
// protocol, a DNAT of the DNS port to the chaos pod's responder in the nat chain CHAOS-DNS, and jumps to it
// from nat OUTPUT and PREROUTING (no cgroup match: the whole netns is affected). The responder listens on UDP
// 5353 and, when both protocols are disrupted, TCP 5354.
import { CHAOS_DNS_CHAIN, type IptablesRule } from '../network/iptables-rules.ts';

export type DnsProtocol = 'udp' | 'tcp' | 'both';

export const RESPONDER_BASE_PORT = 5353;

export interface DnsPlan {
  udpPort: number;
  tcpPort: number;
  /** In insertion order; each is inserted at position 1 of its chain. */
  rules: IptablesRule[];
}

export function planDnsDisruption(protocol: DnsProtocol, dnsPort: number, chaosPodIP: string): DnsPlan {
  const udpPort = RESPONDER_BASE_PORT;
  const tcpPort = protocol === 'both' ? RESPONDER_BASE_PORT + 1 : RESPONDER_BASE_PORT;
  const rules: IptablesRule[] = [];
  const forProtocol = (proto: 'udp' | 'tcp', responderPort: number) => {
    const match = ['-p', proto, '--dport', String(dnsPort)];
    rules.push({ table: 'nat', chain: CHAOS_DNS_CHAIN, rulespec: [...match, '-j', 'DNAT', '--to-destination', `${chaosPodIP}:${responderPort}`] });
    rules.push({ table: 'nat', chain: 'OUTPUT', rulespec: [...match, '-j', CHAOS_DNS_CHAIN] });
    rules.push({ table: 'nat', chain: 'PREROUTING', rulespec: [...match, '-j', CHAOS_DNS_CHAIN] });
  };
  if (protocol === 'udp' || protocol === 'both') forProtocol('udp', udpPort);
  if (protocol === 'tcp' || protocol === 'both') forProtocol('tcp', tcpPort);
  return { udpPort, tcpPort, rules };
}
