// The redirect of a DNS disruption (upstream's dnsDisruptionInjector.setupIPTablesForProtocol, on nftables):
// per protocol, every packet of the netns to the DNS port, whatever its destination, is DNATed to the chaos
// pod's responder, from the nat output hook (the target's own queries) and prerouting (what enters the netns),
// in the table `inet bosun-chaos-dns` (nft-ruleset.ts). No cgroup match: the whole netns is affected, as
// upstream. The responder listens on UDP 5353 and, when both protocols are disrupted, TCP 5354.
import { renderDnsRuleset } from '../network/nft-ruleset.ts';

export type DnsProtocol = 'udp' | 'tcp' | 'both';

export const RESPONDER_BASE_PORT = 5353;

export interface DnsPlan {
  udpPort: number;
  tcpPort: number;
  /** The nft script that writes the table (replacing it when present). */
  ruleset: string;
}

export function planDnsDisruption(protocol: DnsProtocol, dnsPort: number, chaosPodIP: string): DnsPlan {
  const udpPort = RESPONDER_BASE_PORT;
  const tcpPort = protocol === 'both' ? RESPONDER_BASE_PORT + 1 : RESPONDER_BASE_PORT;
  const protocols = protocol === 'both' ? (['udp', 'tcp'] as const) : ([protocol] as const);
  return { udpPort, tcpPort, ruleset: renderDnsRuleset({ protocols, port: dnsPort, responderIP: chaosPodIP, udpPort, tcpPort }) };
}
