// Event reasons and the JobStatus condition of a Workflow.

export const EVENT_CHECK_RUN_CREATED = 'CheckRunCreated';
export const EVENT_CHECK_RUN_CREATE_FAILED = 'CheckRunCreateFailed';
export const EVENT_JOB_CREATED = 'JobCreated';
export const EVENT_JOB_CREATE_FAILED = 'JobCreateFailed';
export const EVENT_JOB_NOT_CONTROLLED = 'JobNotControlled';
export const EVENT_TEMPLATE_NOT_FOUND = 'TemplateNotFound';
export const EVENT_CHECK_RUN_CANCELLED = 'CheckRunCancelled';
export const EVENT_CHECK_RUN_CANCEL_SKIPPED = 'CheckRunCancelSkipped';
export const EVENT_BRANCH_NOT_FOUND = 'BranchNotFound';
export const EVENT_GITHUB_ACCESS_FAILED = 'GitHubAccessFailed';

/** Upstream's one condition: True with reason = the phase while a Job exists. */
export const CONDITION_JOB_STATUS = 'JobStatus';
