// Upstream's controller config file (config/config.go: the chart's `controller:`, `injector:` and `handler:`
// values, durations as Go strings) read into a ChaosConfig, for `bosun up --chaos-config`. Keys Bosun has no use
// for (bind addresses, notifiers, tracing, cloud providers…) are ignored; a known key with a wrong type is an error.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { DurationError, parseGoDuration } from '../apimachinery/duration.ts';
import { DISRUPTION_KIND_NAMES, type DisruptionKindName } from './api/constants.ts';
import { DEFAULT_CHAOS_CONFIG, type ChaosConfig } from './config.ts';
import { messageOf } from '../apimachinery/error-message.ts';

export class ChaosConfigError extends Error {
  override readonly name = 'ChaosConfigError' as const;
}

type Section = Record<string, unknown>;

function section(parent: Section, key: string, path: string): Section {
  const value = parent[key];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ChaosConfigError(`${path}${key}: expected a mapping`);
  return value as Section;
}

function read<T>(s: Section, key: string, path: string, kind: 'string' | 'boolean' | 'number', fallback: T): T {
  const value = s[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== kind) throw new ChaosConfigError(`${path}${key}: expected a ${kind}, got ${JSON.stringify(value)}`);
  return value as T;
}

function durationMs(s: Section, key: string, path: string, fallback: number): number {
  const value = s[key];
  if (value === undefined || value === null) return fallback;
  try {
    if (typeof value === 'number') return value / 1e6; // a bare number is nanoseconds, as Go's time.Duration
    if (typeof value === 'string') return parseGoDuration(value);
  } catch (err) {
    if (err instanceof DurationError) throw new ChaosConfigError(`${path}${key}: ${err.message}`);
    throw err;
  }
  throw new ChaosConfigError(`${path}${key}: expected a duration, got ${JSON.stringify(value)}`);
}

function stringList(s: Section, key: string, path: string, fallback: readonly string[]): readonly string[] {
  const value = s[key];
  if (value === undefined || value === null) return fallback;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new ChaosConfigError(`${path}${key}: expected a list of strings`);
  return value as string[];
}

function stringMap(s: Section, key: string, path: string, fallback: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const value = section(s, key, path);
  if (s[key] === undefined || s[key] === null) return fallback;
  for (const [k, v] of Object.entries(value)) if (typeof v !== 'string') throw new ChaosConfigError(`${path}${key}.${k}: expected a string`);
  return value as Record<string, string>;
}

/** The handler container's cpu and memory (upstream: handler.cpu, handler.memory; the chart: handler.resources). */
function handlerResources(handler: Section, base: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const nested = section(handler, 'resources', 'handler.');
  const cpu = read(handler, 'cpu', 'handler.', 'string', read(nested, 'cpu', 'handler.resources.', 'string', base['cpu'] ?? ''));
  const memory = read(handler, 'memory', 'handler.', 'string', read(nested, 'memory', 'handler.resources.', 'string', base['memory'] ?? ''));
  return { ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) };
}

/** The config file's document (parsed YAML or JSON) over `base`, by default upstream's flag defaults. */
export function chaosConfigFromFile(doc: unknown, base: ChaosConfig = DEFAULT_CHAOS_CONFIG): ChaosConfig {
  if (doc === undefined || doc === null) return base;
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new ChaosConfigError('the chaos config must be a mapping');
  const c = section(doc as Section, 'controller', '');
  const safe = section(c, 'safeMode', 'controller.');
  const inj = section(doc as Section, 'injector', '');
  const net = section(inj, 'networkDisruption', 'injector.');
  const handler = section(doc as Section, 'handler', '');
  const disabled = stringList(c, 'disabledDisruptions', 'controller.', base.disabledDisruptions);
  for (const kind of disabled) if (!DISRUPTION_KIND_NAMES.includes(kind as DisruptionKindName)) throw new ChaosConfigError(`controller.disabledDisruptions: unknown disruption kind ${JSON.stringify(kind)}`);
  const tolerations = inj['tolerations'];
  if (tolerations !== undefined && tolerations !== null && !Array.isArray(tolerations)) throw new ChaosConfigError('injector.tolerations: expected a list');
  return {
    ...base,
    chaosNamespace: read(inj, 'chaosNamespace', 'injector.', 'string', base.chaosNamespace),
    defaultDurationMs: durationMs(c, 'defaultDuration', 'controller.', base.defaultDurationMs),
    maxDurationMs: durationMs(c, 'maxDuration', 'controller.', base.maxDurationMs),
    deleteOnly: read(c, 'deleteOnly', 'controller.', 'boolean', base.deleteOnly),
    handlerEnabled: read(handler, 'enabled', 'handler.', 'boolean', base.handlerEnabled),
    disabledDisruptions: disabled as readonly DisruptionKindName[],
    permittedUserGroups: stringList(safe, 'permittedUserGroups', 'controller.safeMode.', base.permittedUserGroups),
    safemode: {
      enable: read(safe, 'enable', 'controller.safeMode.', 'boolean', base.safemode.enable),
      namespaceThreshold: read(safe, 'namespaceThreshold', 'controller.safeMode.', 'number', base.safemode.namespaceThreshold),
      clusterThreshold: read(safe, 'clusterThreshold', 'controller.safeMode.', 'number', base.safemode.clusterThreshold),
      allowNodeFailure: read(safe, 'allowNodeFailure', 'controller.safeMode.', 'boolean', base.safemode.allowNodeFailure),
      allowNodeLevel: read(safe, 'allowNodeLevel', 'controller.safeMode.', 'boolean', base.safemode.allowNodeLevel),
      environment: read(safe, 'environment', 'controller.safeMode.', 'string', base.safemode.environment),
    },
    expiredDisruptionGCDelayMs: durationMs(c, 'expiredDisruptionGCDelay', 'controller.', base.expiredDisruptionGCDelayMs),
    disruptionDeletionTimeoutMs: durationMs(c, 'disruptionDeletionTimeout', 'controller.', base.disruptionDeletionTimeoutMs),
    finalizerDeletionDelayMs: durationMs(c, 'finalizerDeletionDelay', 'controller.', base.finalizerDeletionDelayMs),
    enableSafeguards: read(c, 'enableSafeguards', 'controller.', 'boolean', base.enableSafeguards),
    handler: {
      image: read(handler, 'image', 'handler.', 'string', base.handler.image),
      timeoutMs: durationMs(handler, 'timeout', 'handler.', base.handler.timeoutMs),
      maxTimeoutMs: durationMs(handler, 'maxTimeout', 'handler.', base.handler.maxTimeoutMs),
      resources: handlerResources(handler, base.handler.resources),
    },
    injector: {
      ...base.injector,
      image: read(inj, 'image', 'injector.', 'string', base.injector.image),
      serviceAccount: read(inj, 'serviceAccount', 'injector.', 'string', base.injector.serviceAccount),
      labels: stringMap(inj, 'labels', 'injector.', base.injector.labels),
      annotations: stringMap(inj, 'annotations', 'injector.', base.injector.annotations),
      tolerations: Array.isArray(tolerations) ? (tolerations as Record<string, unknown>[]) : base.injector.tolerations,
      logLevel: read(inj, 'logLevel', 'injector.', 'string', base.injector.logLevel),
      metricsSink: read(c, 'metricsSink', 'controller.', 'string', base.injector.metricsSink),
      imagePullSecrets: read(inj, 'imagePullSecrets', 'injector.', 'string', base.injector.imagePullSecrets),
      networkDisruptionAllowedHosts: stringList(net, 'allowedHosts', 'injector.networkDisruption.', base.injector.networkDisruptionAllowedHosts),
      dnsPodResolvConf: read(net, 'dnsPodResolvConf', 'injector.networkDisruption.', 'string', base.injector.dnsPodResolvConf),
      dnsNodeResolvConf: read(net, 'dnsNodeResolvConf', 'injector.networkDisruption.', 'string', base.injector.dnsNodeResolvConf),
    },
  };
}

/** `--chaos-config FILE`: the file (YAML or JSON) over `base`; a bad file is one error naming it. */
export function readChaosConfigFile(path: string, base: ChaosConfig): ChaosConfig {
  try {
    return chaosConfigFromFile(parse(readFileSync(path, 'utf8')), base);
  } catch (err) {
    throw new ChaosConfigError(`--chaos-config ${path}: ${messageOf(err)}`, { cause: err });
  }
}
