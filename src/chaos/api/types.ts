// The Disruption kind (upstream's api/v1beta1 DisruptionSpec and DisruptionStatus), field for field with the
// JSON names upstream writes. Values are as a user may write them: validation (../validation) says what is
// accepted, so nothing here is narrower than what the API server stores.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { DisruptionLevel, InjectionStatus, TargetInjectionStatus } from './constants.ts';

/** An integer, or a string: a percentage ("25%") or a number ("3"). */
export type IntOrString = number | string;

/** A Go duration string ("5m", "1h30m"); a JSON number is nanoseconds, as upstream reads it. */
export type DisruptionDuration = string | number;

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface DisruptionFilter {
  /** A target must carry all of these annotations with these values. */
  annotations?: Record<string, string>;
}

export interface DisruptionPulse {
  activeDuration?: DisruptionDuration;
  dormantDuration?: DisruptionDuration;
  initialDelay?: DisruptionDuration;
}

export interface DisruptionTrigger {
  /** RFC 3339 time. */
  notBefore?: string;
  offset?: DisruptionDuration;
}

export interface DisruptionTriggers {
  inject?: DisruptionTrigger;
  createPods?: DisruptionTrigger;
}

export interface CountTooLargeConfig {
  /** 1..100 (%). */
  namespaceThreshold?: number;
  clusterThreshold?: number;
}

/** Turns off webhook safety nets (upstream's safemode.go). */
export interface UnsafemodeSpec {
  disableAll?: boolean;
  disableCountTooLarge?: boolean;
  disableNeitherHostNorPort?: boolean;
  /** Declared upstream and read nowhere; kept so that manifests setting it apply. */
  disableSpecificContainDisk?: boolean;
  allowRootDiskFailure?: boolean;
  config?: { countTooLarge?: CountTooLargeConfig };
}

export interface Reporting {
  slackChannel?: string;
  purpose?: string;
  minNotificationType?: string;
  slackUserEmail?: string;
}

// --- kinds ----------------------------------------------------------------------------------------

export interface NetworkDisruptionHostSpec {
  /** IP, CIDR or hostname. */
  host?: string;
  port?: number;
  protocol?: string;
  flow?: string;
  connState?: string;
  dnsResolver?: string;
  percentage?: number;
}

export interface NetworkDisruptionServicePortSpec {
  name?: string;
  port?: number;
}

export interface NetworkDisruptionServiceSpec {
  name: string;
  namespace: string;
  ports?: NetworkDisruptionServicePortSpec[];
  percentage?: number;
}

export interface NetworkDisruptionCloudServiceSpec {
  service: string;
  protocol?: string;
  flow?: string;
  connState?: string;
}

export interface NetworkDisruptionCloudSpec {
  aws?: NetworkDisruptionCloudServiceSpec[];
  gcp?: NetworkDisruptionCloudServiceSpec[];
  datadog?: NetworkDisruptionCloudServiceSpec[];
}

export interface NetworkHTTPFilters {
  methods?: string[];
  paths?: string[];
}

export interface NetworkDisruptionSpec {
  hosts?: NetworkDisruptionHostSpec[] | null;
  allowedHosts?: NetworkDisruptionHostSpec[] | null;
  disableDefaultAllowedHosts?: boolean;
  services?: NetworkDisruptionServiceSpec[] | null;
  cloud?: NetworkDisruptionCloudSpec | null;
  /** Percentages 0..100. */
  drop?: number;
  duplicate?: number;
  corrupt?: number;
  /** Milliseconds, 0..60000. */
  delay?: number;
  /** Percent of delay, 0..100. */
  delayJitter?: number;
  /** Bytes per second, at least 32 when set. */
  bandwidthLimit?: number;
  http?: NetworkHTTPFilters | null;
}

export interface NodeFailureSpec {
  shutdown?: boolean;
}

export interface ContainerFailureSpec {
  forced?: boolean;
}

export interface CPUPressureSpec {
  /** Cores, or a percentage of them; 100% when unset. */
  count?: IntOrString;
}

export interface MemoryPressureSpec {
  /** "1%".."100%" of the target's memory limit. */
  targetPercent: string;
  rampDuration?: DisruptionDuration;
}

export interface DiskPressureSpec {
  path: string;
  throttling: { readBytesPerSec?: number; writeBytesPerSec?: number };
}

export interface DiskFailureSpec {
  paths: string[];
  openat?: { exitCode?: string };
  probability?: string;
}

export interface PodReplacementSpec {
  deleteStorage?: boolean;
  forceDelete?: boolean;
  gracePeriodSeconds?: number;
}

export interface GRPCEndpointAlteration {
  endpoint: string;
  error?: string;
  override?: string;
  queryPercent?: number;
}

export interface GRPCDisruptionSpec {
  port: number;
  endpoints: GRPCEndpointAlteration[];
}

export interface DNSRecord {
  hostname: string;
  record: { type: string; value: string; ttl?: number };
}

export interface DNSDisruptionSpec {
  records: DNSRecord[];
  /** Default 53. */
  port?: number;
  /** udp, tcp or both (default). */
  protocol?: string;
}

export interface DisruptionSpec {
  count: IntOrString;
  allowDisruptedTargets?: boolean;
  selector?: Record<string, string> | null;
  advancedSelector?: LabelSelectorRequirement[] | null;
  filter?: DisruptionFilter;
  dryRun?: boolean;
  onInit?: boolean;
  unsafeMode?: UnsafemodeSpec;
  staticTargeting?: boolean;
  triggers?: DisruptionTriggers;
  pulse?: DisruptionPulse;
  duration?: DisruptionDuration;
  maxRuns?: number;
  /** Default pod. */
  level?: DisruptionLevel;
  containers?: string[];
  network?: NetworkDisruptionSpec;
  nodeFailure?: NodeFailureSpec;
  containerFailure?: ContainerFailureSpec;
  cpuPressure?: CPUPressureSpec;
  memoryPressure?: MemoryPressureSpec;
  diskPressure?: DiskPressureSpec;
  diskFailure?: DiskFailureSpec;
  grpc?: GRPCDisruptionSpec;
  dns?: DNSDisruptionSpec;
  podReplacement?: PodReplacementSpec;
  reporting?: Reporting;
}

export interface TargetInjection {
  injectorPodName?: string;
  injectionStatus?: TargetInjectionStatus;
  /** RFC 3339 time of the last status change. */
  since?: string;
}

export interface DisruptionStatus {
  isStuckOnRemoval?: boolean;
  /** Legacy; written by nothing. */
  isInjected?: boolean;
  injectionStatus?: InjectionStatus;
  /** Target name → kind name → injection. */
  targetInjections?: Record<string, Record<string, TargetInjection>>;
  selectedTargetsCount: number;
  ignoredTargetsCount: number;
  injectedTargetsCount: number;
  desiredTargetsCount: number;
  /** RFC 3339; set once every chaos pod is gone during deletion. */
  cleanedAt?: string;
  runCount?: number;
  /** The spec's hash (without count under dynamic targeting), to notice a change the webhook did not stop. */
  specHash?: string;
}

export interface Disruption extends KubeObject {
  spec: DisruptionSpec;
  status?: DisruptionStatus;
}
