// Which mechanism a network disruption runs on, chosen in this one place: upstream's tc tree (network/plan.ts)
// where the kernel has the qdiscs, classifier and netfilter matches it needs; else nftables
// (network/nft-ruleset.ts) for what nftables can do — drop a share of packets, police a bandwidth. What only
// qdiscs can do (delay and its jitter, corrupt, duplicate) is refused, the error naming the kernel features
// missing. The probes run in a throwaway network namespace (feature-probes.ts), in dry-run too.
import type { HostReads } from '../../host/host-reads.ts';
import { FEATURES, missingFeatures, type Feature, type MissingFeature } from '../feature-probes.ts';
import type { NetworkDisruptionSpec } from './network-spec.ts';
import type { NetworkPlan } from './plan.ts';

export type NetworkBackend = 'tc' | 'nft';

export interface BackendChoice {
  backend: NetworkBackend;
  /** Empty when the chosen backend can run; else what is missing (a real injection fails with it). */
  missing: MissingFeature[];
  /** What cannot run, as the error says it: "network disruptions with delay". */
  what: string;
}

/** The features upstream's tc plan needs. */
export function tcFeatures(spec: NetworkDisruptionSpec, plan: NetworkPlan): Feature[] {
  const features: Feature[] = [];
  if (plan.tc.length > 0) {
    features.push(FEATURES.prio);
    if (spec.delay > 0 || spec.drop > 0 || spec.corrupt > 0 || spec.duplicate > 0) features.push(FEATURES.netem);
    if (spec.bandwidthLimit > 0) features.push(FEATURES.tbf);
    features.push(FEATURES.flower);
  }
  features.push(FEATURES.iptablesNat);
  if (plan.iptables.some((r) => r.table === 'mangle')) features.push(FEATURES.iptablesMangle, FEATURES.cgroupMatch);
  return features;
}

/** The operations of the spec that only netem can do. */
export function qdiscOnlyOperations(spec: NetworkDisruptionSpec): string[] {
  return (['delay', 'corrupt', 'duplicate'] as const).filter((op) => spec[op] > 0);
}

/**
 * tc when everything it needs is there; nft when the spec only drops or limits bandwidth and nftables works;
 * otherwise the backend that would be used, with what is missing. `tcMissing` adds what the probes cannot see
 * (a target without a net_cls cgroup).
 */
export async function chooseBackend(reads: HostReads, spec: NetworkDisruptionSpec, plan: NetworkPlan, tcMissing: readonly MissingFeature[] = []): Promise<BackendChoice> {
  const missingForTc = [...(await missingFeatures(reads, tcFeatures(spec, plan))), ...tcMissing];
  if (missingForTc.length === 0) return { backend: 'tc', missing: [], what: 'network disruptions' };
  const qdiscOnly = qdiscOnlyOperations(spec);
  if (qdiscOnly.length > 0) return { backend: 'tc', missing: missingForTc, what: `network disruptions with ${qdiscOnly.join(', ')}` };
  const missingForNft = await missingFeatures(reads, [FEATURES.nftables]);
  return { backend: 'nft', missing: missingForNft.length === 0 ? [] : [...missingForTc, ...missingForNft], what: 'network disruptions' };
}
