// policy/v1 (k8s.io/api/policy/v1): PodDisruptionBudget and Eviction, what `kubectl drain` honours.
import type { LabelSelectorObject } from '../label-selector.ts';
import type { KubeObject } from '../object.ts';
import type { ConditionStatus, IntOrString } from './core-v1.ts';

export interface PodDisruptionBudgetSpec {
  minAvailable?: IntOrString;
  maxUnavailable?: IntOrString;
  selector?: LabelSelectorObject;
  unhealthyPodEvictionPolicy?: 'IfHealthyBudget' | 'AlwaysAllow';
}

export interface PodDisruptionBudgetCondition {
  type: string;
  status: ConditionStatus;
  observedGeneration?: number;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PodDisruptionBudgetStatus {
  observedGeneration?: number;
  /** Pods the eviction subresource has let go, by name, with the time it did; the controller forgets them once deleted or stale. */
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: PodDisruptionBudgetCondition[];
}

export interface PodDisruptionBudget extends KubeObject {
  spec?: PodDisruptionBudgetSpec;
  status?: PodDisruptionBudgetStatus;
}
