// Group, kind, finalizers, labels, annotations, kind names and injection statuses of chaos.datadoghq.com/v1beta1,
// spelled exactly as upstream (api/v1beta1, types/types.go) so that upstream's manifests, chaos pods and tools
// interoperate.

export const CHAOS_GROUP = 'chaos.datadoghq.com';
export const CHAOS_VERSION = 'v1beta1';
export const CHAOS_API_VERSION = `${CHAOS_GROUP}/${CHAOS_VERSION}`;
export const KIND_DISRUPTION = 'Disruption';
export const DISRUPTION_SHORT_NAME = 'dis';

/** Where chaos pods run, whatever the disruption's namespace. */
export const DEFAULT_CHAOS_NAMESPACE = 'chaos-engineering';

// --- finalizers -----------------------------------------------------------------------------------

export const DISRUPTION_FINALIZER = `finalizer.${CHAOS_GROUP}`;
export const CHAOS_POD_FINALIZER = `finalizer.${CHAOS_GROUP}/chaos-pod`;

// --- labels (chaos pods are owned by labels: they live in another namespace than their disruption) ---

export const TARGET_LABEL = `${CHAOS_GROUP}/target`;
export const DISRUPTION_KIND_LABEL = `${CHAOS_GROUP}/disruption-kind`;
export const DISRUPTION_NAME_LABEL = `${CHAOS_GROUP}/disruption-name`;
export const DISRUPTION_NAMESPACE_LABEL = `${CHAOS_GROUP}/disruption-namespace`;
/** On pods whose init container (the chaos handler) waits for an onInit network disruption. */
export const DISRUPT_ON_INIT_LABEL = `${CHAOS_GROUP}/disrupt-on-init`;

// --- annotations ----------------------------------------------------------------------------------

/** The JSON of the creator's authentication/v1 UserInfo, set by the mutating webhook and immutable after. */
export const USER_INFO_ANNOTATION = 'UserInfo';
/** The environment a disruption expects to run in, checked against the controller's when it has one. */
export const SAFEMODE_ENVIRONMENT_ANNOTATION = `${CHAOS_GROUP}/environment`;
/** On pods that accept several disruptions at once. */
export const MULTI_DISRUPTION_ALLOWED_ANNOTATION = `${CHAOS_GROUP}/multi-disruption-allowed`;
/** Copied from a parent DisruptionCron or DisruptionRollout. */
export const SCHEDULED_AT_ANNOTATION = `${CHAOS_GROUP}/scheduled-at`;
export const USER_ANNOTATION = `${CHAOS_GROUP}/user`;
export const USER_GROUPS_ANNOTATION = `${CHAOS_GROUP}/user-groups`;

// --- disruption kinds -----------------------------------------------------------------------------

/** The kinds as upstream names them (chaos pod labels, --disabled-disruptions), in upstream's order. */
export const DISRUPTION_KIND_NAMES = [
  'network-disruption',
  'node-failure',
  'container-failure',
  'cpu-pressure',
  'memory-pressure',
  'disk-pressure',
  'disk-failure',
  'grpc-disruption',
  'dns-disruption',
  'pod-replacement',
] as const;
export type DisruptionKindName = (typeof DISRUPTION_KIND_NAMES)[number];

/** The spec field of each kind. */
export const KIND_SPEC_FIELDS = {
  'network-disruption': 'network',
  'node-failure': 'nodeFailure',
  'container-failure': 'containerFailure',
  'cpu-pressure': 'cpuPressure',
  'memory-pressure': 'memoryPressure',
  'disk-pressure': 'diskPressure',
  'disk-failure': 'diskFailure',
  'grpc-disruption': 'grpc',
  'dns-disruption': 'dns',
  'pod-replacement': 'podReplacement',
} as const satisfies Record<DisruptionKindName, string>;
export type KindSpecField = (typeof KIND_SPEC_FIELDS)[DisruptionKindName];

/** Kinds Bosun's injector cannot run (they need eBPF): refused at admission rather than failing in a chaos pod. */
export const UNSUPPORTED_KINDS: readonly DisruptionKindName[] = ['grpc-disruption', 'disk-failure'];

export type DisruptionLevel = 'pod' | 'node';

// --- injection status -----------------------------------------------------------------------------

export const INJECTION_STATUSES = [
  'NotInjected',
  'PartiallyInjected',
  'PausedPartiallyInjected',
  'Injected',
  'PausedInjected',
  'PreviouslyNotInjected',
  'PreviouslyPartiallyInjected',
  'PreviouslyInjected',
] as const;
/** The disruption's; '' is the initial value before the first reconcile (upstream's Initial). */
export type InjectionStatus = (typeof INJECTION_STATUSES)[number] | '';

export const TARGET_INJECTION_STATUSES = ['NotInjected', 'Injected', 'IsStuckOnRemoval'] as const;
export type TargetInjectionStatus = (typeof TARGET_INJECTION_STATUSES)[number];

// --- limits ---------------------------------------------------------------------------------------

/** Pulse active and dormant durations must be at least this long (ms). */
export const PULSE_MINIMUM_DURATION_MS = 500;
/** The chaos pod's --deadline is the disruption's end plus this pad (ms), so the controller ends it first. */
export const INJECTOR_PAD_DURATION_MS = 2000;
/** u32 filter handles of one tc hashtable: the most hosts, service IPs and cloud ranges one network disruption may filter. */
export const MAXIMUM_TC_FILTERS = 2048;
