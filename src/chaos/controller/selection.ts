// Target selection as pure functions (upstream's selectTargets, targetselector/running_target_selector.go and
// getEligibleTargets): which pods or nodes a disruption matches, which of them may be targets, how many it
// wants, and which to add or drop to get there.
import { fromLabelSelectorObject, LabelSelectorError, type LabelSelector } from '../../apimachinery/label-selector.ts';
import { DISRUPT_ON_INIT_LABEL, DISRUPTION_KIND_LABEL, DISRUPTION_NAME_LABEL, DISRUPTION_NAMESPACE_LABEL, type DisruptionKindName } from '../api/constants.ts';
import type { DisruptionSpec, IntOrString } from '../api/types.ts';
import { intOrPercent } from '../validation/values.ts';
import type { Node, Pod } from '../../apimachinery/api/index.ts';
import { isReadyCondition } from './ready-condition.ts';

export class EmptySelectorError extends Error {
  override readonly name = 'EmptySelectorError' as const;
}

/** selector + advancedSelector (+ the on-init label when onInit); an empty selector would match everything. */
export function targetSelector(spec: DisruptionSpec): LabelSelector {
  const matchLabels = spec.selector && typeof spec.selector === 'object' ? spec.selector : {};
  const advanced = Array.isArray(spec.advancedSelector) ? spec.advancedSelector : [];
  if (Object.keys(matchLabels).length === 0 && advanced.length === 0) throw new EmptySelectorError('the disruption has an empty selector: it would target everything');
  const expressions = advanced.map((r) => ({ key: r.key, operator: r.operator as 'In', ...(r.values ? { values: r.values } : {}) }));
  if (spec.onInit) expressions.push({ key: DISRUPT_ON_INIT_LABEL, operator: 'Exists' as 'In' });
  try {
    return fromLabelSelectorObject({ matchLabels, matchExpressions: expressions });
  } catch (err) {
    if (err instanceof LabelSelectorError) throw err;
    throw new LabelSelectorError(String(err));
  }
}

/** A target must carry every annotation of spec.filter with its value. */
export function passesAnnotationFilter(spec: DisruptionSpec, annotations: Record<string, string> | undefined): boolean {
  return Object.entries(spec.filter?.annotations ?? {}).every(([k, v]) => annotations?.[k] === v);
}

export interface EligibilityContext {
  spec: DisruptionSpec;
  /** Targets already in status (onInit keeps them while Running). */
  currentTargets: ReadonlySet<string>;
  /** Safeguards: never target the controller's own node with a nodeFailure or at node level. */
  safeguardNode: string | undefined;
}

/**
 * A pod that may be a target: Running and not terminating (upstream forgot the latter, so a pod on its way out
 * was picked), or for onInit Pending with its chaos-handler init container running.
 */
export function isEligiblePod(pod: Pod, c: EligibilityContext): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  if (!passesAnnotationFilter(c.spec, pod.metadata.annotations)) return false;
  if (c.safeguardNode && c.spec.nodeFailure && pod.spec?.nodeName === c.safeguardNode) return false;
  const phase = pod.status?.phase;
  if (c.spec.onInit) {
    // A target stays one from its handler's release (still Pending for a moment, between the init container and
    // the app) through Running; a new one is a pod waiting in its handler.
    if (c.currentTargets.has(pod.metadata.name ?? '')) return phase === 'Pending' || phase === 'Running';
    return phase === 'Pending' && (pod.status?.initContainerStatuses ?? []).some((s) => s.name === 'chaos-handler' && s.state?.running !== undefined);
  }
  return phase === 'Running';
}

export function isEligibleNode(node: Node, c: EligibilityContext): boolean {
  if (node.metadata.deletionTimestamp) return false;
  if (!passesAnnotationFilter(c.spec, node.metadata.annotations)) return false;
  if (c.safeguardNode && node.metadata.name === c.safeguardNode) return false;
  return isReadyCondition(node.status?.conditions) !== undefined;
}

/** How many targets count asks for among total (k8s GetScaledValueFromIntOrPercent, percentages rounded up). */
export function scaledCount(count: IntOrString, total: number): number {
  const parsed = intOrPercent(count);
  if (!parsed.ok) return 0;
  return parsed.value.percent ? Math.ceil((parsed.value.value * total) / 100) : parsed.value.value;
}

/**
 * Whether a chaos pod still disrupts its target: it does unless every container terminated with exit code 0.
 * A pod with no container status yet is about to inject, so it counts (upstream counts it as not disrupting,
 * and two disruptions created together could both pick the same target).
 */
export function isDisrupting(pod: Pod): boolean {
  if (pod.status?.phase === 'Succeeded') return false;
  const statuses = pod.status?.containerStatuses ?? [];
  if (statuses.length === 0) return pod.status?.phase !== 'Failed';
  return statuses.some((s) => s.state?.terminated === undefined || s.state.terminated.exitCode !== 0);
}

/**
 * May this disruption take the target, given the chaos pods of other disruptions on it? Not when any disrupts
 * it, unless allowDisruptedTargets and none of them runs a kind this disruption runs too.
 */
export function isTargetAvailable(otherChaosPods: readonly Pod[], spec: DisruptionSpec, kinds: readonly DisruptionKindName[]): boolean {
  const disrupting = otherChaosPods.filter(isDisrupting);
  if (disrupting.length === 0) return true;
  if (!spec.allowDisruptedTargets) return false;
  return !disrupting.some((p) => kinds.includes(p.metadata.labels?.[DISRUPTION_KIND_LABEL] as DisruptionKindName));
}

/** Whether a chaos pod belongs to the named disruption. */
export function ownedBy(pod: Pod, name: string, namespace: string): boolean {
  return pod.metadata.labels?.[DISRUPTION_NAME_LABEL] === name && pod.metadata.labels[DISRUPTION_NAMESPACE_LABEL] === namespace;
}

/** A random integer in [0, n). */
export type Rng = () => number;

function pickRandom<T>(items: readonly T[], n: number, rng: Rng): T[] {
  const pool = [...items];
  // Partial Fisher–Yates: the first n slots end up a uniform random sample.
  for (let i = 0; i < Math.min(n, pool.length); i++) {
    const j = i + Math.floor(rng() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, Math.max(0, n));
}

export interface SelectionInput {
  count: IntOrString;
  /** Names matching the selector, whatever their phase (for ignoredTargetsCount). */
  matching: readonly string[];
  /** Matching names that may be targets (phase, annotations, safeguards). */
  eligible: readonly string[];
  /** Targets in status. */
  current: readonly string[];
  /** Eligible names other disruptions already disrupt. */
  unavailable: ReadonlySet<string>;
  staticTargeting: boolean;
  rng: Rng;
}

export interface SelectionResult {
  targets: string[];
  added: string[];
  removed: string[];
  desired: number;
  /** Nothing matched the selector at all. */
  noTargetsFound: boolean;
  /** Something matched but no target could be kept or added. */
  noMoreTargets: boolean;
}

/** Which targets the disruption should have now (dynamic targeting adds and drops to follow count). */
export function selectTargets(s: SelectionInput): SelectionResult {
  const eligible = new Set(s.eligible);
  const noTargetsFound = s.matching.length === 0;
  const desired = scaledCount(s.count, s.eligible.length);
  if (s.staticTargeting && s.current.length > 0) {
    return { targets: [...s.current], added: [], removed: [], desired, noTargetsFound, noMoreTargets: false };
  }
  // Dead targets (gone, no longer matching, no longer running) are dropped first.
  const alive = s.current.filter((t) => eligible.has(t));
  const removed = s.current.filter((t) => !eligible.has(t));
  const candidates = s.eligible.filter((t) => !alive.includes(t) && !s.unavailable.has(t));
  const wanted = Math.min(desired, alive.length + candidates.length);
  if (wanted < 1) {
    return { targets: alive, added: [], removed, desired, noTargetsFound, noMoreTargets: s.matching.length > 0 };
  }
  if (alive.length < wanted) {
    const added = pickRandom(candidates, wanted - alive.length, s.rng);
    return { targets: [...alive, ...added], added, removed, desired, noTargetsFound, noMoreTargets: false };
  }
  const dropped = pickRandom(alive, alive.length - wanted, s.rng);
  return { targets: alive.filter((t) => !dropped.includes(t)), added: [], removed: [...removed, ...dropped], desired, noTargetsFound, noMoreTargets: false };
}
