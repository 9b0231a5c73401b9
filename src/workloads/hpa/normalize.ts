// From the metrics' recommendation to the replicas the autoscaler sets, after kube-controller-manager's
// normalizeDesiredReplicas (no behavior: the highest recommendation of the scale-down window, growth capped at
// max(2×current, 4)) and normalizeDesiredReplicasWithBehaviors (per-direction stabilization windows and rate
// policies over the recent scale events), both clamped to [minReplicas, maxReplicas]. It remembers, per
// autoscaler, its recent recommendations and scale events, as the upstream controller does in memory.
import type { HorizontalPodAutoscalerBehavior, HPAScalingRules } from '../../apimachinery/api/index.ts';

export interface ConditionChange {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

export interface Normalized {
  replicas: number;
  ableToScale: ConditionChange;
  scalingLimited: ConditionChange;
}

interface Recommendation {
  replicas: number;
  atMs: number;
}

interface ScaleEvent {
  change: number;
  atMs: number;
}

export interface NormalizeInput {
  key: string;
  currentReplicas: number;
  desiredReplicas: number;
  minReplicas: number;
  maxReplicas: number;
  behavior: HorizontalPodAutoscalerBehavior | undefined;
  nowMs: number;
}

const SCALE_UP_STABILIZED = 'recent recommendations were lower than current one, applying the lowest recent recommendation';
const SCALE_DOWN_STABILIZED = 'recent recommendations were higher than current one, applying the highest recent recommendation';
const WITHIN_RANGE: Omit<ConditionChange, 'status'> = { reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
const TOO_MANY: Omit<ConditionChange, 'status'> = { reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
const TOO_FEW: Omit<ConditionChange, 'status'> = { reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
const SCALE_UP_LIMIT: Omit<ConditionChange, 'status'> = { reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' };
const SCALE_DOWN_LIMIT: Omit<ConditionChange, 'status'> = { reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' };

export class ReplicaNormalizer {
  private readonly recommendations = new Map<string, Recommendation[]>();
  private readonly scaleUpEvents = new Map<string, ScaleEvent[]>();
  private readonly scaleDownEvents = new Map<string, ScaleEvent[]>();

  /** @param downscaleStabilizationMs the scale-down window when a behavior does not set one (--horizontal-pod-autoscaler-downscale-stabilization). */
  constructor(private readonly downscaleStabilizationMs: number) {}

  /** recordInitialRecommendation: the first sync remembers the current size as a recommendation. */
  recordInitial(key: string, currentReplicas: number, nowMs: number): void {
    if (!this.recommendations.has(key)) this.recommendations.set(key, [{ replicas: currentReplicas, atMs: nowMs }]);
  }

  forget(key: string): void {
    this.recommendations.delete(key);
    this.scaleUpEvents.delete(key);
    this.scaleDownEvents.delete(key);
  }

  normalize(input: NormalizeInput): Normalized {
    return input.behavior === undefined ? this.withoutBehavior(input) : this.withBehavior(input, input.behavior);
  }

  /** storeScaleEvent: a rescale, kept while a policy period may still count it. */
  recordScale(key: string, behavior: HorizontalPodAutoscalerBehavior | undefined, from: number, to: number, nowMs: number): void {
    if (behavior === undefined || from === to) return;
    const up = to > from;
    const rules = up ? behavior.scaleUp : behavior.scaleDown;
    const longestMs = Math.max(0, ...(rules?.policies ?? []).map((p) => p.periodSeconds)) * 1000;
    const events = up ? this.scaleUpEvents : this.scaleDownEvents;
    const kept = (events.get(key) ?? []).filter((e) => e.atMs > nowMs - longestMs);
    events.set(key, [...kept, { change: Math.abs(to - from), atMs: nowMs }]);
  }

  private withoutBehavior(input: NormalizeInput): Normalized {
    const stabilized = this.stabilize(input, undefined, this.downscaleStabilizationMs);
    const ableToScale: ConditionChange =
      stabilized === input.desiredReplicas
        ? { status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' }
        : { status: 'True', reason: 'ScaleDownStabilized', message: SCALE_DOWN_STABILIZED };
    // convertDesiredReplicasWithRules
    const scaleUpLimit = Math.max(2 * input.currentReplicas, 4);
    const [maximum, limit] = input.maxReplicas > scaleUpLimit ? [scaleUpLimit, SCALE_UP_LIMIT] : [input.maxReplicas, TOO_MANY];
    let replicas = stabilized;
    let why = WITHIN_RANGE;
    if (stabilized < input.minReplicas) [replicas, why] = [input.minReplicas, TOO_FEW];
    else if (stabilized > maximum) [replicas, why] = [maximum, limit];
    return { replicas, ableToScale, scalingLimited: { status: replicas === stabilized ? 'False' : 'True', ...why } };
  }

  private withBehavior(input: NormalizeInput, behavior: HorizontalPodAutoscalerBehavior): Normalized {
    const upWindowMs = (behavior.scaleUp?.stabilizationWindowSeconds ?? 0) * 1000;
    const downWindow = behavior.scaleDown?.stabilizationWindowSeconds;
    const stabilized = this.stabilize(input, upWindowMs, downWindow === undefined ? this.downscaleStabilizationMs : downWindow * 1000);
    let ableToScale: ConditionChange = { status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' };
    if (stabilized !== input.desiredReplicas) {
      ableToScale =
        input.desiredReplicas >= input.currentReplicas
          ? { status: 'True', reason: 'ScaleUpStabilized', message: SCALE_UP_STABILIZED }
          : { status: 'True', reason: 'ScaleDownStabilized', message: SCALE_DOWN_STABILIZED };
    }
    const { replicas, why } = this.rateLimited(input, stabilized, behavior);
    return { replicas, ableToScale, scalingLimited: { status: replicas === stabilized ? 'False' : 'True', ...why } };
  }

  /**
   * stabilizeRecommendationWithBehaviors: the lowest recommendation of the scale-up window bounds growth, the
   * highest of the scale-down window bounds shrinking; the new recommendation replaces one older than both.
   * Without a behavior (no scale-up window) it is stabilizeRecommendation: the window's highest recommendation.
   */
  private stabilize(input: NormalizeInput, upWindowMs: number | undefined, downWindowMs: number): number {
    const upCutoff = input.nowMs - (upWindowMs ?? 0);
    const downCutoff = input.nowMs - downWindowMs;
    let up = input.desiredReplicas;
    let down = input.desiredReplicas;
    const history = this.recommendations.get(input.key) ?? [];
    let old = -1;
    history.forEach((rec, i) => {
      if (rec.atMs > upCutoff) up = Math.min(rec.replicas, up);
      if (rec.atMs > downCutoff) down = Math.max(rec.replicas, down);
      if (rec.atMs < upCutoff && rec.atMs < downCutoff) old = i;
    });
    const entry = { replicas: input.desiredReplicas, atMs: input.nowMs };
    if (old >= 0) history[old] = entry;
    else history.push(entry);
    this.recommendations.set(input.key, history);
    return upWindowMs === undefined ? down : Math.min(Math.max(input.currentReplicas, up), down);
  }

  /** convertDesiredReplicasWithBehaviorRate: the policies' limit on change within their periods, then min/max. */
  private rateLimited(input: NormalizeInput, desired: number, behavior: HorizontalPodAutoscalerBehavior): { replicas: number; why: Omit<ConditionChange, 'status'> } {
    const current = input.currentReplicas;
    if (desired > current) {
      const limit = Math.max(this.limit(input, behavior.scaleUp, true), current);
      const [maximum, why] = input.maxReplicas > limit ? [limit, SCALE_UP_LIMIT] : [input.maxReplicas, TOO_MANY];
      if (desired > maximum) return { replicas: maximum, why };
    } else if (desired < current) {
      const limit = Math.min(this.limit(input, behavior.scaleDown, false), current);
      const [minimum, why] = input.minReplicas < limit ? [limit, SCALE_DOWN_LIMIT] : [input.minReplicas, TOO_FEW];
      if (desired < minimum) return { replicas: minimum, why };
    }
    return { replicas: desired, why: WITHIN_RANGE };
  }

  /** calculateScaleUpLimitWithScalingRules / calculateScaleDownLimitWithBehaviors. */
  private limit(input: NormalizeInput, rules: HPAScalingRules | undefined, up: boolean): number {
    const select = rules?.selectPolicy ?? 'Max';
    if (select === 'Disabled') return input.currentReplicas;
    // Up: Max picks the largest proposal; down: Max (most change) picks the smallest.
    const pickLargest = (select === 'Max') === up;
    let result = pickLargest ? -Infinity : Infinity;
    for (const policy of rules?.policies ?? []) {
      const since = input.nowMs - policy.periodSeconds * 1000;
      const changed = (events: Map<string, ScaleEvent[]>): number => (events.get(input.key) ?? []).filter((e) => e.atMs > since).reduce((sum, e) => sum + e.change, 0);
      const periodStart = input.currentReplicas - changed(this.scaleUpEvents) + changed(this.scaleDownEvents);
      let proposed: number;
      if (policy.type === 'Pods') proposed = up ? periodStart + policy.value : periodStart - policy.value;
      else proposed = up ? Math.ceil(periodStart * (1 + policy.value / 100)) : Math.trunc(periodStart * (1 - policy.value / 100));
      result = pickLargest ? Math.max(result, proposed) : Math.min(result, proposed);
    }
    return Number.isFinite(result) ? result : input.currentReplicas;
  }
}
