// The pure planner of a network disruption: from the spec, the target's links and routes and the resolved
// hosts, the exact tc commands, txqueuelen fixes and iptables rules of upstream's
// networkDisruptionInjector.Inject/applyOperations, in upstream's order. The tree:
//   root 1: prio, 4 bands, priomap 1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1; band 1:4 is the disrupted one
//     pod level (not onInit): 1:4 → 2: prio 2 bands, packets marked 0x00020002 go to 2:2
//       → netem (3:) → tbf (4:)   (each operation under the previous)
//   flower filters on 1:0: safeguards and allowed hosts to 1:1, hosts (or everything) to 1:4.
import type { NetworkDisruptionSpec } from './network-spec.ts';
import { conntrackRule, markCgroupPathRule, markClassIdRule, type IptablesRule } from './iptables-rules.ts';
import { allProtocols, connState, flowerFilter, INJECTOR_CGROUP_CLASSID, markFilter, netem, prio, tbf, type FlowerMatch } from './tc-commands.ts';

export const PRIOMAP = [1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] as const;
/** upstream's first filter priority (tcPriority); each AddFilter takes the next one. */
export const FIRST_FILTER_PRIORITY = 1000;
/** The cloud providers' metadata service, kept reachable at node level. */
export const METADATA_IP = '169.254.169.254/32';

export interface Link {
  name: string;
  txqlen: number;
}

export interface DefaultRoute {
  gateway: string;
  dev: string;
}

/** A host spec with its resolved (and percentage-selected) addresses, as CIDRs. */
export interface ResolvedHost {
  port: number;
  protocol: string;
  flow: string;
  connState: string;
  ips: string[];
}

export interface PlanInput {
  spec: NetworkDisruptionSpec;
  level: 'pod' | 'node';
  onInit: boolean;
  /** The links upstream disrupts (eth*, eno*, ens*, enp*, enx*, plus lo* at pod level), in link order. */
  links: Link[];
  defaultRoutes: DefaultRoute[];
  /** The target pod's node IP (TARGET_POD_HOST_IP). */
  nodeIP: string;
  hosts: ResolvedHost[];
  allowedHosts: ResolvedHost[];
  cgroupVersion: 1 | 2;
  /** v2: the container's cgroup path relative to the hierarchy root, for `-m cgroup --path`. */
  cgroupRelativePath?: string;
}

export interface NetworkPlan {
  /** Links whose txqueuelen is 0: set to 1000 before the qdiscs (a prio copies it), back to 0 after. */
  txqlenFixes: string[];
  /** tc argument lists, in order. */
  tc: string[][];
  iptables: IptablesRule[];
  /** v1 at pod level: write INJECTOR_CGROUP_CLASSID to the container's net_cls.classid. */
  netClsClassId: boolean;
  /** The priority after the plan's last filter: services filters, added later, take it and the next ones. */
  nextFilterPriority: number;
}

export function jitterMs(delay: number, delayJitter: number): number {
  // upstream: 10% of the delay by default, else delayJitter percent of it, truncated to the millisecond, at least 1 ms
  const jitter = delayJitter === 0 ? Math.trunc(delay * 0.1) : Math.trunc((delayJitter / 100) * delay);
  return Math.max(jitter, 1);
}

export function planNetworkDisruption(input: PlanInput): NetworkPlan {
  const { spec } = input;
  const ifaces = input.links.map((l) => l.name);
  const tc: string[][] = [];
  let priority = FIRST_FILTER_PRIORITY;
  const addFilter = (on: readonly string[], match: FlowerMatch) => {
    priority++;
    for (const iface of on) tc.push(flowerFilter(iface, '1:0', priority, match));
  };

  type Operation = (iface: string, parent: string, handle: string) => string[];
  const operations: Operation[] = [];
  if (spec.delay > 0 || spec.drop > 0 || spec.corrupt > 0 || spec.duplicate > 0) {
    const params = { delayMs: spec.delay, jitterMs: jitterMs(spec.delay, spec.delayJitter), drop: spec.drop, corrupt: spec.corrupt, duplicate: spec.duplicate };
    operations.push((iface, parent, handle) => netem(iface, parent, handle, params));
  }
  if (spec.bandwidthLimit > 0) operations.push((iface, parent, handle) => tbf(iface, parent, handle, spec.bandwidthLimit));

  const txqlenFixes: string[] = [];
  if (operations.length > 0) {
    for (const link of input.links) if (link.txqlen === 0) txqlenFixes.push(link.name);
    for (const iface of ifaces) tc.push(prio(iface, 'root', '1:', 4, PRIOMAP));
    let parent = '1:4';
    let handle = 2;
    if (input.level === 'pod' && !input.onInit) {
      for (const iface of ifaces) tc.push(prio(iface, '1:4', '2:', 2, new Array<number>(16).fill(0)));
      for (const iface of ifaces) tc.push(markFilter(iface, '2:0', INJECTOR_CGROUP_CLASSID, '2:2'));
      parent = '2:2';
      handle = 3;
    }
    for (const operation of operations) {
      for (const iface of ifaces) tc.push(operation(iface, parent, `${handle}:`));
      parent = `${handle}:`;
      handle++;
    }
    // Safeguards, before the hosts' filters so that they win (lower priority numbers come first).
    if (input.level === 'pod') {
      for (const route of input.defaultRoutes) addFilter([route.dev], { dstIP: `${route.gateway}/32`, protocol: 'tcp', flowid: '1:1' });
      addFilter(ifaces, { dstIP: `${input.nodeIP}/32`, protocol: 'tcp', flowid: '1:1' });
    } else {
      addFilter(ifaces, { srcPort: 22, protocol: 'tcp', flowid: '1:1' }); // SSH
      addFilter(ifaces, { protocol: 'arp', flowid: '1:1' }); // cloud health checks
      addFilter(ifaces, { dstIP: METADATA_IP, protocol: 'tcp', flowid: '1:1' });
    }
    for (const host of input.allowedHosts) hostFilters(host, '1:1', addFilter, ifaces);
    if (spec.hosts.length === 0 && spec.services.length === 0) {
      for (const protocol of allProtocols('')) addFilter(ifaces, { dstIP: '0.0.0.0/0', protocol, flowid: '1:4' });
    } else {
      for (const host of input.hosts) hostFilters(host, '1:4', addFilter, ifaces);
    }
  }

  const iptables: IptablesRule[] = [conntrackRule()];
  let netClsClassId = false;
  if (input.level === 'pod' && !input.onInit) {
    if (input.cgroupVersion === 2) iptables.push(markCgroupPathRule(input.cgroupRelativePath ?? '', INJECTOR_CGROUP_CLASSID));
    else {
      netClsClassId = true;
      iptables.push(markClassIdRule(INJECTOR_CGROUP_CLASSID, INJECTOR_CGROUP_CLASSID));
    }
  }
  return { txqlenFixes, tc, iptables, netClsClassId, nextFilterPriority: priority + 1 };
}

/**
 * The filters of services filters' destinations to the disrupted band, each at the next priority (upstream's
 * addServiceFilters); they come after the plan's, and are replaced as the Services change.
 */
export function serviceFilterCommands(ifaces: readonly string[], destinations: readonly ResolvedHost[], nextPriority: () => number): { tc: string[][]; priorities: number[] } {
  const tc: string[][] = [];
  const priorities: number[] = [];
  for (const destination of destinations) {
    hostFilters(destination, '1:4', (on, match) => {
      const priority = nextPriority();
      priorities.push(priority);
      for (const iface of on) tc.push(flowerFilter(iface, '1:0', priority, match));
    }, ifaces);
  }
  return { tc, priorities };
}

/** addFiltersForHosts: per address and protocol, the source (ingress) or destination (egress) match. */
function hostFilters(host: ResolvedHost, flowid: string, addFilter: (on: readonly string[], m: FlowerMatch) => void, ifaces: readonly string[]): void {
  const state = connState(host.connState);
  for (const ip of host.ips) {
    const ends = host.flow === 'ingress' ? { srcIP: ip, srcPort: host.port } : { dstIP: ip, dstPort: host.port };
    for (const protocol of allProtocols(host.protocol)) addFilter(ifaces, { ...ends, protocol, connState: state, flowid });
  }
}
