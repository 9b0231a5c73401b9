// batch/v1 (k8s.io/api/batch/v1): Job and CronJob. Required fields as the API server's validation requires them.
import type { LabelSelectorObject } from '../label-selector.ts';
import type { KubeObject } from '../object.ts';
import type { ConditionStatus, PodTemplateSpec } from './core-v1.ts';

export interface JobSpec {
  parallelism?: number;
  completions?: number;
  activeDeadlineSeconds?: number;
  backoffLimit?: number;
  selector?: LabelSelectorObject;
  manualSelector?: boolean;
  template: PodTemplateSpec;
  ttlSecondsAfterFinished?: number;
  completionMode?: 'NonIndexed' | 'Indexed';
  suspend?: boolean;
}

export interface JobCondition {
  type: string;
  status: ConditionStatus;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface UncountedTerminatedPods {
  succeeded?: string[];
  failed?: string[];
}

export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  completedIndexes?: string;
  uncountedTerminatedPods?: UncountedTerminatedPods;
  ready?: number;
}

export interface Job extends KubeObject {
  spec: JobSpec;
  status?: JobStatus;
}

export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';

export interface JobTemplateSpec {
  metadata?: KubeObject['metadata'];
  spec: JobSpec;
}

export interface CronJobSpec {
  schedule: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: ConcurrencyPolicy;
  suspend?: boolean;
  jobTemplate: JobTemplateSpec;
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
}

/** core/v1 ObjectReference, as CronJob status lists its active Jobs. */
export interface JobReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

export interface CronJobStatus {
  active?: JobReference[];
  lastScheduleTime?: string;
  lastSuccessfulTime?: string;
}

export interface CronJob extends KubeObject {
  spec: CronJobSpec;
  status?: CronJobStatus;
}
