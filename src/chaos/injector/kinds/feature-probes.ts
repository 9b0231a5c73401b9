// Whether this node's kernel and tools can do what a kind needs, asked before any write. Each probe runs in a
// throwaway network namespace (`unshare --net`), which the kernel destroys with the probe's process: trying
// `tc qdisc add … netem` there is the only reliable question (built-in qdiscs leave no trace in /proc/modules
// or /sys/module, and a module may load on demand), and it changes nothing on the host, so it is a read and
// runs in dry-run too.
import type { HostReads } from '../host/host-reads.ts';

export interface Feature {
  /** What is missing, as the error says it: "the kernel has no sch_netem qdisc". */
  missing: string;
  /** Shell run in the throwaway netns; success means present. */
  probe: string;
  /** The tool the probe needs (checked first, so that a missing tool is said so); default tc, or iptables. */
  tool?: string;
}

export interface MissingFeature {
  missing: string;
  /** The probe's command and its error. */
  evidence: string;
}

export class FeatureUnavailableError extends Error {
  override readonly name = 'FeatureUnavailableError' as const;
  constructor(
    readonly what: string,
    readonly missingFeatures: readonly MissingFeature[],
  ) {
    super(`${missingFeatures.map((m) => `${m.missing} (${m.evidence})`).join('; ')}: ${what} cannot run on this node`);
  }
}

const qdisc = (name: string, kind: string, args: string): Feature => ({ missing: `the kernel has no sch_${name} qdisc`, probe: `tc qdisc add dev lo root handle 1: ${kind} ${args}`.trim() });

export const FEATURES = {
  prio: qdisc('prio', 'prio', 'bands 4 priomap 1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1'),
  netem: qdisc('netem', 'netem', 'delay 1ms'),
  tbf: qdisc('tbf', 'tbf', 'rate 1000 latency 50ms burst 1000'),
  flower: {
    missing: 'the kernel has no cls_flower classifier',
    probe: '{ tc qdisc add dev lo root handle 1: prio || tc qdisc add dev lo root handle 1: htb; } 2>/dev/null; tc filter add dev lo parent 1: protocol ip priority 1 flower flowid 1:1',
  },
  iptablesNat: { missing: 'iptables cannot use the nat table', probe: 'iptables --wait -t nat -S' },
  iptablesMangle: { missing: 'iptables cannot use the mangle table', probe: 'iptables --wait -t mangle -S' },
  nftables: {
    missing: 'nftables cannot drop by share or police a rate',
    tool: 'nft',
    probe: `nft 'add table inet probe; add chain inet probe c { type filter hook output priority 0; }; add limit inet probe l { rate over 1024 bytes/second burst 1024 bytes }; add rule inet probe c meta l4proto tcp th dport 80 ct state new numgen random mod 100 < 50 drop; add rule inet probe c limit name "l" drop'`,
  },
  nftDnat: {
    missing: 'nftables cannot DNAT (nft_nat)',
    tool: 'nft',
    probe: `nft 'add table inet probe; add chain inet probe c { type nat hook output priority -100; }; add rule inet probe c meta nfproto ipv4 udp dport 53 dnat ip to 127.0.0.1:5353'`,
  },
  cgroupMatch: { missing: 'the kernel has no xt_cgroup match', probe: 'iptables --wait -t mangle -A POSTROUTING -m cgroup --cgroup 0x00020002 -j MARK --set-mark 0x00020002' },
} as const satisfies Record<string, Feature>;

/** `which`-like: a tool on the PATH, asked through `sh -c 'command -v …'`. */
export async function hasTool(reads: HostReads, tool: string): Promise<boolean> {
  try {
    return (await reads.run(['sh', '-c', `command -v ${tool}`])).code === 0;
  } catch {
    return false;
  }
}

/** The features that are missing; tools the probes need are checked first (a missing iptables is said so). */
export async function missingFeatures(reads: HostReads, features: readonly Feature[]): Promise<MissingFeature[]> {
  const missing: MissingFeature[] = [];
  const tools = new Map<string, boolean>();
  for (const feature of features) {
    const tool = feature.tool ?? (feature.probe.startsWith('iptables') ? 'iptables' : 'tc');
    if (!tools.has(tool)) tools.set(tool, await hasTool(reads, tool));
    if (!tools.get(tool)) {
      if (!missing.some((m) => m.missing === `${tool} is not installed`)) missing.push({ missing: `${tool} is not installed`, evidence: `command -v ${tool}: not found` });
      continue;
    }
    let result: { code: number; stderr: string };
    try {
      result = await reads.run(['unshare', '--net', '--', 'sh', '-c', feature.probe]);
    } catch (err) {
      result = { code: -1, stderr: (err as Error).message };
    }
    if (result.code !== 0) missing.push({ missing: feature.missing, evidence: `${feature.probe}: ${result.stderr.trim().split('\n')[0] || `exit ${result.code}`}` });
  }
  return missing;
}
