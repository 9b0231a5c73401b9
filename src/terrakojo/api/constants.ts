// Group, kinds, labels, annotations and finalizers of terrakojo.io/v1alpha1, spelled exactly as upstream
// (eeekcct/terrakojo api/v1alpha1 and internal/controller) so that upstream objects and manifests interoperate.

export const TERRAKOJO_GROUP = 'terrakojo.io';
export const TERRAKOJO_VERSION = 'v1alpha1';
export const TERRAKOJO_API_VERSION = `${TERRAKOJO_GROUP}/${TERRAKOJO_VERSION}`;

export const KIND_REPOSITORY = 'Repository';
export const KIND_BRANCH = 'Branch';
export const KIND_WORKFLOW = 'Workflow';
export const KIND_WORKFLOW_TEMPLATE = 'WorkflowTemplate';

// --- labels ----------------------------------------------------------------------------------------

/** On a Repository: its spec.owner; with REPO_NAME_LABEL what the webhook server finds a Repository by. */
export const OWNER_LABEL = 'terrakojo.io/owner';
/** On a Repository (and its Branches): the GitHub repository name. */
export const REPO_NAME_LABEL = 'terrakojo.io/repo-name';
/** On a Repository and its Branches: the Repository's UID (informational). */
export const REPO_UID_LABEL = 'terrakojo.io/repo-uid';
/** On a Workflow: the UID of the Branch that made it. */
export const OWNER_UID_LABEL = 'terrakojo.io/owner-uid';
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY_VALUE = 'terrakojo-controller';

// --- annotations -----------------------------------------------------------------------------------

/** Set by the webhook server on a Repository to poke a sync; the value (RFC 3339 nano) is never read. */
export const SYNC_REQUESTED_AT_ANNOTATION = 'terrakojo.io/sync-requested-at';
/** On a Branch: the SHA its Workflows were made for (the idempotency marker). */
export const LAST_SHA_ANNOTATION = 'terrakojo.io/last-sha';

// --- finalizers ------------------------------------------------------------------------------------

export const CLEANUP_BRANCHES_FINALIZER = 'terrakojo.io/cleanup-branches';
export const CLEANUP_WORKFLOWS_FINALIZER = 'terrakojo.io/cleanup-workflows';
export const CLEANUP_CHECKRUN_FINALIZER = 'terrakojo.io/cleanup-checkrun';

// --- Workflow parameters ---------------------------------------------------------------------------

export const PARAM_IS_DEFAULT_BRANCH = 'isDefaultBranch';
export const PARAM_EXECUTION_UNIT = 'executionUnit';

export const EXECUTION_UNITS = ['folder', 'repository', 'file'] as const;
export type ExecutionUnit = (typeof EXECUTION_UNITS)[number];

export const WORKFLOW_PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Cancelled'] as const;
export type WorkflowPhase = (typeof WORKFLOW_PHASES)[number];
/** Phases after which a Workflow never runs again. */
export const TERMINAL_WORKFLOW_PHASES: readonly WorkflowPhase[] = ['Succeeded', 'Failed', 'Cancelled'];
