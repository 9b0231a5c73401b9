// autoscaling/v2 (k8s.io/api/autoscaling/v2): HorizontalPodAutoscaler with resource metrics and scaling
// behavior, and the autoscaling/v1 Scale of a workload's /scale subresource.
import type { KubeObject } from '../object.ts';
import type { ConditionStatus } from './core-v1.ts';

export interface CrossVersionObjectReference {
  kind: string;
  name: string;
  apiVersion?: string;
}

export type MetricTargetType = 'Utilization' | 'Value' | 'AverageValue';

export interface MetricTarget {
  type: MetricTargetType;
  value?: string;
  averageValue?: string;
  averageUtilization?: number;
}

export interface ResourceMetricSource {
  name: string;
  target: MetricTarget;
}

export interface ContainerResourceMetricSource extends ResourceMetricSource {
  container: string;
}

export interface MetricSpec {
  type: 'Resource' | 'ContainerResource' | 'Pods' | 'Object' | 'External';
  resource?: ResourceMetricSource;
  containerResource?: ContainerResourceMetricSource;
}

export interface HPAScalingPolicy {
  type: 'Pods' | 'Percent';
  value: number;
  periodSeconds: number;
}

export interface HPAScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: 'Max' | 'Min' | 'Disabled';
  policies?: HPAScalingPolicy[];
}

export interface HorizontalPodAutoscalerBehavior {
  scaleUp?: HPAScalingRules;
  scaleDown?: HPAScalingRules;
}

export interface HorizontalPodAutoscalerSpec {
  scaleTargetRef: CrossVersionObjectReference;
  minReplicas?: number;
  maxReplicas: number;
  metrics?: MetricSpec[];
  behavior?: HorizontalPodAutoscalerBehavior;
}

export interface MetricValueStatus {
  value?: string;
  averageValue?: string;
  averageUtilization?: number;
}

export interface MetricStatus {
  type: MetricSpec['type'];
  resource?: { name: string; current: MetricValueStatus };
  containerResource?: { name: string; container: string; current: MetricValueStatus };
}

export interface HorizontalPodAutoscalerCondition {
  type: 'ScalingActive' | 'AbleToScale' | 'ScalingLimited';
  status: ConditionStatus;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface HorizontalPodAutoscalerStatus {
  observedGeneration?: number;
  lastScaleTime?: string;
  currentReplicas?: number;
  desiredReplicas: number;
  currentMetrics?: MetricStatus[];
  conditions?: HorizontalPodAutoscalerCondition[];
}

export interface HorizontalPodAutoscaler extends KubeObject {
  spec: HorizontalPodAutoscalerSpec;
  status?: HorizontalPodAutoscalerStatus;
}

/** autoscaling/v1 Scale: what /scale serves; status.selector in the string form of a label selector. */
export interface Scale extends KubeObject {
  spec: { replicas?: number };
  status?: { replicas: number; selector?: string };
}
