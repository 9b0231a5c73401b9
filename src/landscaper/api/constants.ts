// Group, kinds, annotations, labels, finalizer, phases and deploy item types of
// landscaper.gardener.cloud/v1alpha1, spelled exactly as upstream (apis/core/v1alpha1) so that
// existing manifests and other Landscaper components interoperate.

export const LANDSCAPER_GROUP = 'landscaper.gardener.cloud';
export const LANDSCAPER_VERSION = 'v1alpha1';
export const LANDSCAPER_API_VERSION = `${LANDSCAPER_GROUP}/${LANDSCAPER_VERSION}`;

export const KIND_INSTALLATION = 'Installation';
export const KIND_EXECUTION = 'Execution';
export const KIND_DEPLOY_ITEM = 'DeployItem';
export const KIND_TARGET = 'Target';
export const KIND_DATA_OBJECT = 'DataObject';
export const KIND_CONTEXT = 'Context';
export const KIND_BLUEPRINT = 'Blueprint';
export const KIND_INSTALLATION_TEMPLATE = 'InstallationTemplate';

/** The one finalizer on Installations, Executions and DeployItems. */
export const LANDSCAPER_FINALIZER = 'finalizer.landscaper.gardener.cloud';
/**
 * Bosun's own (upstream has none): on Targets and Contexts that deploy items still need for their uninstall,
 * as kubernetes.io/pvc-protection keeps a PersistentVolumeClaim that a pod uses.
 */
export const IN_USE_FINALIZER = 'landscaper.gardener.cloud/in-use';
/** Marks a Secret a Target reads, so that the Secret protection watches it (and no other Secret). */
export const IN_USE_LABEL = 'landscaper.gardener.cloud/in-use';

// --- annotations ---------------------------------------------------------------------------------

export const OPERATION_ANNOTATION = 'landscaper.gardener.cloud/operation';
export const OPERATION_RECONCILE = 'reconcile';
/** Upstream says "currently not used"; still copied from installation to execution. */
export const OPERATION_FORCE_RECONCILE = 'force-reconcile';
export const OPERATION_INTERRUPT = 'interrupt';
/** Deploy items only: the deployer generates its own job ID (testing). */
export const OPERATION_TEST_RECONCILE = 'test-reconcile';
/** Declared upstream for the (unused) abort of deploy items. */
export const OPERATION_ABORT = 'abort';
export type Operation =
  | typeof OPERATION_RECONCILE
  | typeof OPERATION_FORCE_RECONCILE
  | typeof OPERATION_INTERRUPT
  | typeof OPERATION_TEST_RECONCILE
  | typeof OPERATION_ABORT;

export const RECONCILE_REASON_ANNOTATION = 'landscaper.gardener.cloud/reconcile-reason';
export const RECONCILE_REASON_RETRY = 'retry';
export const RECONCILE_IF_CHANGED_ANNOTATION = 'landscaper.gardener.cloud/reconcile-if-changed';
export const DELETE_WITHOUT_UNINSTALL_ANNOTATION = 'landscaper.gardener.cloud/delete-without-uninstall';
export const DELETE_IGNORE_SUCCESSORS_ANNOTATION = 'landscaper.gardener.cloud/delete-ignore-successors';
export const TOUCH_ANNOTATION = 'landscaper.gardener.cloud/touch';
export const RECONCILE_TIME_ANNOTATION = 'landscaper.gardener.cloud/reconcile-time';
export const DEPLOYER_TYPE_ANNOTATION = 'landscaper.gardener.cloud/deployer-type';
export const DEPLOYER_TARGET_NAME_ANNOTATION = 'landscaper.gardener.cloud/deployer-target-name';
/** Value of deployer-target-name when a deploy item has no target. */
export const DEPLOYER_NO_TARGET_NAME = 'noTargetName';
export const CACHE_HELM_CHARTS_ANNOTATION = 'landscaper.gardener.cloud/cache-helm-charts';
export const CLUSTER_NAME_ANNOTATION = 'landscaper.gardener.cloud/clustername';
export const SUBINSTALLATION_NAME_ANNOTATION = 'landscaper.gardener.cloud/subinstallation-name';
export const KEEP_CHILDREN_ANNOTATION = 'landscaper.gardener.cloud/keep-children';
export const IGNORE_ANNOTATION = 'landscaper.gardener.cloud/ignore';
/** Execution → DeployItem: the template's dependsOn, comma-joined. */
export const EXECUTION_DEPENDS_ON_ANNOTATION = 'execution.landscaper.gardener.cloud/dependsOn';
/** DataObjects and Targets: SHA-1 (hex) of the stored data. */
export const DATA_OBJECT_HASH_ANNOTATION = 'data.landscaper.gardener.cloud/hash';

// --- labels --------------------------------------------------------------------------------------

/** On subinstallations: the parent installation's name. */
export const ENCOMPASSED_BY_LABEL = 'landscaper.gardener.cloud/encompassed-by';
/** On deploy items: the managing execution's name. */
export const EXECUTION_MANAGED_BY_LABEL = 'execution.landscaper.gardener.cloud/managed-by';
/** On deploy items: the template name inside the execution. */
export const EXECUTION_MANAGED_NAME_LABEL = 'execution.landscaper.gardener.cloud/name';

export const DATA_OBJECT_CONTEXT_LABEL = 'data.landscaper.gardener.cloud/context';
export const DATA_OBJECT_SOURCE_TYPE_LABEL = 'data.landscaper.gardener.cloud/sourceType';
export const DATA_OBJECT_SOURCE_LABEL = 'data.landscaper.gardener.cloud/source';
export const DATA_OBJECT_KEY_LABEL = 'data.landscaper.gardener.cloud/key';
export const DATA_OBJECT_INDEX_LABEL = 'data.landscaper.gardener.cloud/index';
export const DATA_OBJECT_TARGET_MAP_KEY_LABEL = 'data.landscaper.gardener.cloud/targetmapkey';
export const DATA_OBJECT_JOB_ID_LABEL = 'data.landscaper.gardener.cloud/jobid';

export const DATA_OBJECT_SOURCE_TYPE_IMPORT = 'import';
export const DATA_OBJECT_SOURCE_TYPE_EXPORT = 'export';
export type DataObjectSourceType = typeof DATA_OBJECT_SOURCE_TYPE_IMPORT | typeof DATA_OBJECT_SOURCE_TYPE_EXPORT;

/** Key of the Secret entries holding DI exports, template state and Secret imports. */
export const DATA_OBJECT_SECRET_DATA_KEY = 'config';

/** Prefixes of DataObject contexts and sources ("Do not change length" upstream). */
export const INSTALLATION_PREFIX = 'Inst.';
export const EXECUTION_PREFIX = 'Exec.';
/** A dataRef starting with "#" is not contextified. */
export const NON_CONTEXTIFIED_PREFIX = '#';

/** The Context every namespace gets and installations default to. */
export const DEFAULT_CONTEXT_NAME = 'default';

// --- phases --------------------------------------------------------------------------------------

export const PHASE_INIT = 'Init';
export const PHASE_CLEANUP_ORPHANED = 'CleanupOrphaned';
export const PHASE_OBJECTS_CREATED = 'ObjectsCreated';
export const PHASE_PROGRESSING = 'Progressing';
export const PHASE_COMPLETING = 'Completing';
export const PHASE_SUCCEEDED = 'Succeeded';
export const PHASE_FAILED = 'Failed';
export const PHASE_INIT_DELETE = 'InitDelete';
export const PHASE_TRIGGER_DELETE = 'TriggerDelete';
export const PHASE_DELETING = 'Deleting';
export const PHASE_DELETE_FAILED = 'DeleteFailed';

export type InstallationPhase =
  | typeof PHASE_INIT
  | typeof PHASE_CLEANUP_ORPHANED
  | typeof PHASE_OBJECTS_CREATED
  | typeof PHASE_PROGRESSING
  | typeof PHASE_COMPLETING
  | typeof PHASE_SUCCEEDED
  | typeof PHASE_FAILED
  | typeof PHASE_INIT_DELETE
  | typeof PHASE_TRIGGER_DELETE
  | typeof PHASE_DELETING
  | typeof PHASE_DELETE_FAILED;

/** TriggerDelete is declared for executions upstream but never set by the controller. */
export type ExecutionPhase =
  | typeof PHASE_INIT
  | typeof PHASE_PROGRESSING
  | typeof PHASE_COMPLETING
  | typeof PHASE_SUCCEEDED
  | typeof PHASE_FAILED
  | typeof PHASE_INIT_DELETE
  | typeof PHASE_TRIGGER_DELETE
  | typeof PHASE_DELETING
  | typeof PHASE_DELETE_FAILED;

export type DeployItemPhase =
  | typeof PHASE_INIT
  | typeof PHASE_PROGRESSING
  | typeof PHASE_COMPLETING
  | typeof PHASE_SUCCEEDED
  | typeof PHASE_FAILED
  | typeof PHASE_INIT_DELETE
  | typeof PHASE_DELETING
  | typeof PHASE_DELETE_FAILED;

export const INSTALLATION_PHASES: readonly InstallationPhase[] = [
  PHASE_INIT, PHASE_CLEANUP_ORPHANED, PHASE_OBJECTS_CREATED, PHASE_PROGRESSING, PHASE_COMPLETING, PHASE_SUCCEEDED,
  PHASE_FAILED, PHASE_INIT_DELETE, PHASE_TRIGGER_DELETE, PHASE_DELETING, PHASE_DELETE_FAILED,
];

/** Final phases: a job ends in one of these (with jobIDFinished = jobID). */
export function isFinalPhase(phase: string | undefined): boolean {
  return phase === PHASE_SUCCEEDED || phase === PHASE_FAILED || phase === PHASE_DELETE_FAILED;
}

export function isDeletionPhase(phase: string | undefined): boolean {
  return phase === PHASE_INIT_DELETE || phase === PHASE_TRIGGER_DELETE || phase === PHASE_DELETING || phase === PHASE_DELETE_FAILED;
}

export function isFailedPhase(phase: string | undefined): boolean {
  return phase === PHASE_FAILED || phase === PHASE_DELETE_FAILED;
}

// --- deploy item and target types ----------------------------------------------------------------

export const DEPLOY_ITEM_TYPE_MOCK = 'landscaper.gardener.cloud/mock';
export const DEPLOY_ITEM_TYPE_MANIFEST = 'landscaper.gardener.cloud/kubernetes-manifest';
export const DEPLOY_ITEM_TYPE_HELM = 'landscaper.gardener.cloud/helm';
export const DEPLOY_ITEM_TYPE_CONTAINER = 'landscaper.gardener.cloud/container';

export const TARGET_TYPE_KUBERNETES_CLUSTER = 'landscaper.gardener.cloud/kubernetes-cluster';
/** Short target types in blueprints get this prefix (`kubernetes-cluster` → the full name). */
export const TARGET_TYPE_PREFIX = 'landscaper.gardener.cloud/';

export const MOCK_PROVIDER_API_VERSION = 'mock.deployer.landscaper.gardener.cloud/v1alpha1';
export const MANIFEST_PROVIDER_API_VERSION = 'manifest.deployer.landscaper.gardener.cloud/v1alpha2';

// --- template types ------------------------------------------------------------------------------

export const TEMPLATE_TYPE_GO = 'GoTemplate';
export const TEMPLATE_TYPE_SPIFF = 'Spiff';
export type TemplateType = typeof TEMPLATE_TYPE_GO | typeof TEMPLATE_TYPE_SPIFF;

// --- conditions, error codes ---------------------------------------------------------------------

export const CONDITION_VALIDATE_IMPORTS = 'ValidateImports';
export const CONDITION_CREATE_IMPORTS = 'CreateImports';
export const CONDITION_CREATE_EXPORTS = 'CreateExports';
export const CONDITION_ENSURE_SUBINSTALLATIONS = 'EnsureSubInstallations';
export const CONDITION_RECONCILE_EXECUTION = 'ReconcileExecution';
export const CONDITION_COMPONENT_REFERENCE_OVERWRITE = 'ComponentReferenceOverwrite';
export const CONDITION_RECONCILE_DEPLOY_ITEMS = 'ReconcileDeployItems';
export const CONDITION_DEPLOY_ITEM_VALIDATION = 'DeployItemValidation';
/** A deploy item's deployer waits for something outside (True, with what for), or no longer does (False). */
export const CONDITION_WAITING = 'Waiting';
/**
 * Bosun's own: False while no deployer running in this Bosun handles the deploy item's type and none picked it
 * up (an external deployer still may, until the pickup timeout); True once one did.
 */
export const CONDITION_DEPLOYER_KNOWN = 'DeployerKnown';

export const ERR_UNAUTHORIZED = 'ERR_UNAUTHORIZED';
export const ERR_CLEANUP = 'ERR_CLEANUP';
export const ERR_CONFIGURATION_PROBLEM = 'ERR_CONFIGURATION_PROBLEM';
export const ERR_INTERNAL_PROBLEM = 'ERR_INTERNAL_PROBLEM';
export const ERR_TIMEOUT = 'ERR_TIMEOUT';
export const ERR_CYCLIC_DEPENDENCIES = 'ERR_CYCLIC_DEPENDENCIES';
export const ERR_WEBHOOK = 'ERR_WEBHOOK';
export const ERR_UNFINISHED = 'ERR_UNFINISHED';
export const ERR_FOR_INFO_ONLY = 'ERR_FOR_INFO_ONLY';
export const ERR_NO_RETRY = 'ERR_NO_RETRY';
export type ErrorCode =
  | typeof ERR_UNAUTHORIZED
  | typeof ERR_CLEANUP
  | typeof ERR_CONFIGURATION_PROBLEM
  | typeof ERR_INTERNAL_PROBLEM
  | typeof ERR_TIMEOUT
  | typeof ERR_CYCLIC_DEPENDENCIES
  | typeof ERR_WEBHOOK
  | typeof ERR_UNFINISHED
  | typeof ERR_FOR_INFO_ONLY
  | typeof ERR_NO_RETRY;

/** Codes that force a deploy item to Failed in the deployer library. */
export const UNRECOVERABLE_ERROR_CODES: readonly ErrorCode[] = [
  ERR_CONFIGURATION_PROBLEM, ERR_INTERNAL_PROBLEM, ERR_TIMEOUT, ERR_UNAUTHORIZED, ERR_CYCLIC_DEPENDENCIES,
];

/** Default deploy item timeout (progressing) and the literal that disables timeouts. */
export const DEFAULT_DEPLOY_ITEM_TIMEOUT = '10m';
export const DURATION_NONE = 'none';
