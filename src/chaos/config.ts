// What the chaos family is configured with: upstream's controller flags and chart values that the API layer
// reads (config/config.go), with upstream's flag defaults (the chart's values differ: defaultDuration 5m instead of 1h,
// expiredDisruptionGCDelay 10m instead of disabled).
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
  /** The chaos handler init container of onInit targets (used when handlerEnabled). */
  handler: HandlerConfig;
}

/** Upstream's handler.* settings. */
export interface HandlerConfig {
  image: string;
  /** How long the handler holds a pod waiting for its injector (ms). */
  timeoutMs: number;
  /** The longest a pod's disrupt-on-init-timeout annotation may ask for (ms). */
  maxTimeoutMs: number;
  /** Requests and limits of the handler container. */
  resources: Readonly<Record<string, string>>;
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
  /**
   * Mount the node's sysrq files (node failure's last resort). Off on Bosun's embedded control plane, whose node
   * agents fail a node through their runtime API: a kernel without sysrq (many VMs and containers) would
   * otherwise keep every chaos pod from starting.
   */
  mountSysrq: boolean;
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
  mountSysrq: true,
};

export const DEFAULT_HANDLER_CONFIG: HandlerConfig = { image: 'datadog/chaos-handler:13.4.0', timeoutMs: 60_000, maxTimeoutMs: 0, resources: {} };

/** Upstream's controller flag defaults (config/config.go). */
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
  handler: DEFAULT_HANDLER_CONFIG,
};

/**
 * What Bosun runs with unless told otherwise: upstream's Helm chart values (chart/values.yaml), the way users
 * deploy chaos-controller, so their disruptions behave here as there: 5 minutes by default and at most 2 hours,
 * expired disruptions deleted after 10 minutes, the handler on (onInit disruptions work), safemode's nets off.
 */
export const CHART_CHAOS_CONFIG: ChaosConfig = {
  ...DEFAULT_CHAOS_CONFIG,
  defaultDurationMs: 5 * 60_000,
  maxDurationMs: 2 * 3_600_000,
  expiredDisruptionGCDelayMs: 10 * 60_000,
  handlerEnabled: true,
  safemode: { ...DEFAULT_CHAOS_CONFIG.safemode, enable: false },
  handler: { image: 'datadog/chaos-handler:13.4.0', timeoutMs: 10 * 60_000, maxTimeoutMs: 2 * 3_600_000, resources: { cpu: '10m', memory: '5Mi' } },
};

/** The defaults with some settings overridden (safemode and injector merged field by field). */
export function chaosConfig(
  overrides: Partial<Omit<ChaosConfig, 'safemode' | 'injector' | 'handler'>> & { safemode?: Partial<SafemodeConfig>; injector?: Partial<InjectorConfig>; handler?: Partial<HandlerConfig> } = {},
): ChaosConfig {
  return {
    ...DEFAULT_CHAOS_CONFIG,
    ...overrides,
    safemode: { ...DEFAULT_CHAOS_CONFIG.safemode, ...overrides.safemode },
    injector: { ...DEFAULT_CHAOS_CONFIG.injector, ...overrides.injector },
    handler: { ...DEFAULT_CHAOS_CONFIG.handler, ...overrides.handler },
  };
}
