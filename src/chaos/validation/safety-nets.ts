// The initial safety nets (upstream's initialSafetyNets), as a pure function over the spec and what the webhook
// counted in the cluster. Each opt-out is upstream's: spec.unsafeMode.disableAll (all but the cluster policy
// ones), disableCountTooLarge, disableNeitherHostNorPort, allowRootDiskFailure, and per-disruption thresholds in
// unsafeMode.config.countTooLarge.
import type { DisruptionSpec } from '../api/types.ts';
import type { ChaosConfig } from '../config.ts';
import { specError, type SpecError } from './errors.ts';
import { intOrPercent } from './values.ts';

/** Targets counted in the cluster for countTooLarge; without them (no cluster) that net is not checked. */
export interface TargetCounts {
  /** Pods (pod level) or nodes (node level) the selectors match. */
  matching: number;
  /** Every pod in the disruption's namespace (pod level only). */
  namespace: number;
  /** Every pod (pod level) or node (node level) in the cluster. */
  cluster: number;
}

export interface SafetyNetContext {
  config: ChaosConfig;
  counts?: TargetCounts;
}

export const SAFETY_NETS_HEADER = 'at least one of the initial safety nets caught an issue';

const percent = (ratio: number): string => (ratio * 100).toFixed(2);

function thresholds(spec: DisruptionSpec, config: ChaosConfig): { namespaceThreshold: number; clusterThreshold: number } {
  const custom = spec.unsafeMode?.config?.countTooLarge;
  return {
    namespaceThreshold: (custom?.namespaceThreshold ?? config.safemode.namespaceThreshold) / 100,
    clusterThreshold: (custom?.clusterThreshold ?? config.safemode.clusterThreshold) / 100,
  };
}

/** Whether create validation needs target counts: the countTooLarge net is on and could catch something. */
export function countTooLargeApplies(spec: DisruptionSpec, config: ChaosConfig): boolean {
  if (!config.safemode.enable || spec.unsafeMode?.disableAll || spec.unsafeMode?.disableCountTooLarge) return false;
  const { namespaceThreshold, clusterThreshold } = thresholds(spec, config);
  return namespaceThreshold < 1 || clusterThreshold < 1;
}

/** countTooLarge: what the count would select, against the namespace's and the cluster's thresholds. */
function countTooLarge(spec: DisruptionSpec, config: ChaosConfig, counts: TargetCounts): SpecError | undefined {
  if (!countTooLargeApplies(spec, config)) return undefined;
  const { namespaceThreshold, clusterThreshold } = thresholds(spec, config);
  const count = intOrPercent(spec.count);
  if (!count.ok || counts.matching === 0) return undefined;
  const estimated = count.value.percent ? (count.value.value / 100) * counts.matching : count.value.value;
  const level = spec.level ?? 'pod';
  if (level !== 'node' && estimated / counts.namespace > namespaceThreshold) {
    return specError('spec.count', `target selection represents ${percent(estimated / counts.namespace)} % of the total pods in the namespace while the threshold is ${percent(namespaceThreshold)} %`);
  }
  if (estimated / counts.cluster > clusterThreshold) {
    return specError('spec.count', `target selection represents ${percent(estimated / counts.cluster)} % of the total ${level}s in the cluster while the threshold is ${percent(clusterThreshold)} %`);
  }
  return undefined;
}

/** Each net that catches the spec, with upstream's message; none: safe. Not called when safemode is off. */
export function safetyNets(spec: DisruptionSpec, context: SafetyNetContext): SpecError[] {
  const out: SpecError[] = [];
  const unsafe = spec.unsafeMode ?? {};
  if (!unsafe.disableAll) {
    if (context.counts) {
      const caught = countTooLarge(spec, context.config, context.counts);
      if (caught) out.push(caught);
    }
    const network = spec.network;
    if (network && !unsafe.disableNeitherHostNorPort && !(network.services?.length ?? 0) && !(network.hosts?.length ?? 0)) {
      out.push(specError('spec.network', 'the specified disruption either contains no Host or Service filters. This will result in all network traffic being affected.'));
    }
    if (spec.diskFailure && !unsafe.allowRootDiskFailure && spec.level === 'node' && (spec.diskFailure.paths ?? []).some((p) => String(p).trim() === '/')) {
      out.push(specError('spec.diskFailure.paths', 'the specified path for the disk failure disruption targeting a node must not be "/"'));
    }
  }
  if (!context.config.safemode.allowNodeFailure && spec.nodeFailure) {
    out.push(specError('spec.nodeFailure', 'node failure disruptions are not allowed in this cluster, please use a disruption type or test elsewhere'));
  }
  if (!context.config.safemode.allowNodeLevel && spec.level === 'node') {
    out.push(specError('spec.level', 'node level disruptions are not allowed in this cluster, please apply at the pod level or test elsewhere'));
  }
  return out;
}
