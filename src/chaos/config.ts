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
}

export const DEFAULT_CHAOS_CONFIG: ChaosConfig = {
  chaosNamespace: DEFAULT_CHAOS_NAMESPACE,
  defaultDurationMs: 3_600_000,
  maxDurationMs: 0,
  deleteOnly: false,
  handlerEnabled: false,
  disabledDisruptions: [],
  permittedUserGroups: [],
  safemode: { enable: true, namespaceThreshold: 80, clusterThreshold: 66, allowNodeFailure: true, allowNodeLevel: true, environment: '' },
};

/** The defaults with some settings overridden (safemode merged field by field). */
export function chaosConfig(overrides: Partial<Omit<ChaosConfig, 'safemode'>> & { safemode?: Partial<SafemodeConfig> } = {}): ChaosConfig {
  return { ...DEFAULT_CHAOS_CONFIG, ...overrides, safemode: { ...DEFAULT_CHAOS_CONFIG.safemode, ...overrides.safemode } };
}
