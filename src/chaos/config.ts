// What the chaos family is configured with: upstream's controller flags and chart values that the API layer
// reads (config/config.go), with upstream's flag defaults (§2.12 of the research notes).
import { DEFAULT_CHAOS_NAMESPACE, type DisruptionKindName } from './api/constants.ts';

export interface SafemodeConfig {
  /** Run the initial safety nets on create. */
  enable: boolean;
  /** Percent of the namespace's pods a disruption may target (1..100). */
  namespaceThreshold: number;
  /** Percent of the cluster's pods (or nodes, at node level) a disruption may target (1..100). */
  clusterThreshold: number;
  allowNodeFailure: boolean;
  allowNodeLevel: boolean;
  /** When set, every disruption must carry the chaos.datadoghq.com/environment annotation with this value. */
  environment: string;
}

export interface ChaosConfig {
  chaosNamespace: string;
  /** Written into spec.duration when a disruption gives none (ms). */
  defaultDurationMs: number;
  /** Longest spec.duration accepted on create (ms); 0: no limit. */
  maxDurationMs: number;
  /** Refuse every new disruption (the controller only cleans up). */
  deleteOnly: boolean;
  /** The chaos handler init container is injected: onInit disruptions are possible. */
  handlerEnabled: boolean;
  disabledDisruptions: readonly DisruptionKindName[];
  /** When not empty, only members of one of these groups may create disruptions. */
  permittedUserGroups: readonly string[];
  safemode: SafemodeConfig;
  /** How long an expired disruption stays before it is deleted (ms); negative: never (upstream's -1m flag default). */
  expiredDisruptionGCDelayMs: number;
  /** A deleting disruption whose chaos pods are still there after this long is flagged isStuckOnRemoval (ms). */
  disruptionDeletionTimeoutMs: number;
  /** How long the finalizer stays after every chaos pod is gone (cleanedAt), so that late events still land (ms). */
  finalizerDeletionDelayMs: number;
  /** Never target the controller's own node with a nodeFailure, nor at node level. */
  enableSafeguards: boolean;
  /** The node the controller runs on (upstream's CONTROLLER_NODE_NAME); '' when unknown. */
  controllerNodeName: string;
  injector: InjectorConfig;
}

/** How chaos pods are built (upstream's injector.* flags). */
export interface InjectorConfig {
  image: string;
  serviceAccount: string;
  /** Extra labels and annotations of every chaos pod. */
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
  tolerations: readonly Readonly<Record<string, unknown>>[];
  /** The injector's LOG_LEVEL. */
  logLevel: string;
  /** The injector's --metrics-sink. */
  metricsSink: string;
  /** Hosts every network disruption leaves alone (--allowed-hosts), unless it sets disableDefaultAllowedHosts. */
  networkDisruptionAllowedHosts: readonly string[];
  /** --dns-pod-resolv-conf and --dns-node-resolv-conf of network disruptions; '' leaves them out. */
  dnsPodResolvConf: string;
  dnsNodeResolvConf: string;
  imagePullSecrets: string;
}

/** The upstream chart's image: Bosun's node agent maps it to its own injector. */
export const DEFAULT_INJECTOR_IMAGE = 'datadog/chaos-injector:13.4.0';

export const DEFAULT_INJECTOR_CONFIG: InjectorConfig = {
  image: DEFAULT_INJECTOR_IMAGE,
  serviceAccount: 'chaos-injector',
  labels: {},
  annotations: {},
  tolerations: [],
  logLevel: 'DEBUG',
  metricsSink: 'noop',
  networkDisruptionAllowedHosts: [],
  dnsPodResolvConf: '',
  dnsNodeResolvConf: '',
  imagePullSecrets: '',
};

export const DEFAULT_CHAOS_CONFIG: ChaosConfig = {
  chaosNamespace: DEFAULT_CHAOS_NAMESPACE,
  defaultDurationMs: 3_600_000,
  maxDurationMs: 0,
  deleteOnly: false,
  handlerEnabled: false,
  disabledDisruptions: [],
  permittedUserGroups: [],
  safemode: { enable: true, namespaceThreshold: 80, clusterThreshold: 66, allowNodeFailure: true, allowNodeLevel: true, environment: '' },
  expiredDisruptionGCDelayMs: -60_000,
  disruptionDeletionTimeoutMs: 15 * 60_000,
  finalizerDeletionDelayMs: 20_000,
  enableSafeguards: true,
  controllerNodeName: '',
  injector: DEFAULT_INJECTOR_CONFIG,
};

/** The defaults with some settings overridden (safemode and injector merged field by field). */
export function chaosConfig(
  overrides: Partial<Omit<ChaosConfig, 'safemode' | 'injector'>> & { safemode?: Partial<SafemodeConfig>; injector?: Partial<InjectorConfig> } = {},
): ChaosConfig {
  return {
    ...DEFAULT_CHAOS_CONFIG,
    ...overrides,
    safemode: { ...DEFAULT_CHAOS_CONFIG.safemode, ...overrides.safemode },
    injector: { ...DEFAULT_CHAOS_CONFIG.injector, ...overrides.injector },
  };
}
