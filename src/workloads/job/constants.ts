// batch/v1 names the Job controller writes: the tracking finalizer, condition types and kube-controller-manager's
// reasons and messages.

export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';

export const CONDITION_COMPLETE = 'Complete';
export const CONDITION_FAILED = 'Failed';
export const CONDITION_SUCCESS_CRITERIA_MET = 'SuccessCriteriaMet';
export const CONDITION_FAILURE_TARGET = 'FailureTarget';
export const CONDITION_SUSPENDED = 'Suspended';

export const REASON_COMPLETIONS_REACHED = 'CompletionsReached';
export const MESSAGE_COMPLETIONS_REACHED = 'Reached expected number of succeeded pods';
export const REASON_BACKOFF_LIMIT_EXCEEDED = 'BackoffLimitExceeded';
export const MESSAGE_BACKOFF_LIMIT_EXCEEDED = 'Job has reached the specified backoff limit';
export const REASON_DEADLINE_EXCEEDED = 'DeadlineExceeded';
export const MESSAGE_DEADLINE_EXCEEDED = 'Job was active longer than specified deadline';

/** Pods created or deleted in one sync at most (MaxPodCreateDeletePerSync), and uncounted pods at most. */
export const MAX_PODS_PER_SYNC = 500;
