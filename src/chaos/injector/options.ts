// The flags every `bosun inject <kind>` takes, with upstream's names (cli/injector/main.go), and their parsed
// form. The controller passes them to chaos pods as the injector container's arguments (upstream's
// services/chaospod.go); a stress child gets --parent-pid and --deadline.
import { Command, Option } from 'commander';
import type { DisruptionLevel } from '../api/constants.ts';
import { DEFAULT_CHAOS_NAMESPACE } from '../api/constants.ts';
import { parseGoDuration, parseRfc3339 } from './durations.ts';
import { InjectorFlagError } from './errors.ts';

/** Where upstream's readiness probe (`test -f /tmp/readiness_probe`) looks. */
export const DEFAULT_READINESS_FILE = '/tmp/readiness_probe';

export interface TargetContainerRef {
  name: string;
  /** As the controller passes it: `bosun://abc` or `containerd://abc`. */
  id: string;
}

export interface CommonOptions {
  level: DisruptionLevel;
  targetContainers: TargetContainerRef[];
  targetPodIP?: string;
  dryRun: boolean;
  metricsSink: string;
  onInit: boolean;
  pulseInitialDelayMs: number;
  pulseActiveMs: number;
  pulseDormantMs: number;
  notInjectedBefore?: Date;
  deadline?: Date;
  chaosNamespace: string;
  parentPid?: number;
  readinessFile: string;
  logContext: Record<string, string>;
}

/** The raw values commander gives (camelCased flag names). */
export interface RawCommonOptions {
  level?: string;
  targetContainers?: string;
  targetPodIp?: string;
  dryRun?: boolean;
  metricsSink?: string;
  onInit?: boolean;
  pulseInitialDelay?: string;
  pulseActiveDuration?: string;
  pulseDormantDuration?: string;
  notInjectedBefore?: string;
  deadline?: string;
  chaosNamespace?: string;
  parentPid?: string;
  readinessFile?: string;
  logContextDisruptionName?: string;
  logContextDisruptionNamespace?: string;
  logContextDisruptionUid?: string;
  logContextTargetName?: string;
  logContextTargetNodeName?: string;
}

const LOG_CONTEXT_FLAGS = ['disruption-name', 'disruption-namespace', 'disruption-uid', 'target-name', 'target-node-name'] as const;

/** Adds the common flags to a kind's subcommand (commander has no persistent flags that parse after the subcommand). */
export function addCommonOptions(command: Command): Command {
  return command
    .option('--level <level>', 'level of injection: pod or node')
    .option('--target-containers <list>', 'targeted containers, name;id,...')
    .option('--target-pod-ip <ip>', 'IP of the targeted pod')
    .option('--dry-run', 'log every change to the host instead of making it', false)
    .option('--metrics-sink <sink>', 'metrics sink (noop; datadog is not supported)', 'noop')
    .option('--on-init', 'inject while the target pod initializes', false)
    .option('--pulse-initial-delay <duration>', 'wait before the first injection', '0')
    .option('--pulse-active-duration <duration>', 'active part of a pulse', '0')
    .option('--pulse-dormant-duration <duration>', 'dormant part of a pulse', '0')
    .option('--not-injected-before <rfc3339>', 'do not inject before this time')
    .option('--deadline <rfc3339>', 'time by which the disruption must be over')
    .option('--chaos-namespace <namespace>', 'namespace of this chaos pod', DEFAULT_CHAOS_NAMESPACE)
    .option('--parent-pid <pid>', 'parent process PID (stress children only)')
    .addOption(new Option('--readiness-file <path>', 'file written once every injection succeeded').default(DEFAULT_READINESS_FILE).hideHelp())
    .option(`--log-context-${LOG_CONTEXT_FLAGS[0]} <value>`, 'log value: disruption name')
    .option(`--log-context-${LOG_CONTEXT_FLAGS[1]} <value>`, 'log value: disruption namespace')
    .option(`--log-context-${LOG_CONTEXT_FLAGS[2]} <value>`, 'log value: disruption UID')
    .option(`--log-context-${LOG_CONTEXT_FLAGS[3]} <value>`, 'log value: target pod or node name')
    .option(`--log-context-${LOG_CONTEXT_FLAGS[4]} <value>`, 'log value: node of the target');
}

export function parseTargetContainers(list: string): TargetContainerRef[] {
  return list
    .split(',')
    .filter((entry) => entry.trim() !== '')
    .map((entry) => {
      const [name, id, ...rest] = entry.trim().split(';');
      if (!name || !id || rest.length > 0) throw new InjectorFlagError(`--target-containers: ${JSON.stringify(entry)} is not name;id`);
      return { name, id };
    });
}

export function parseCommonOptions(raw: RawCommonOptions): CommonOptions {
  if (raw.level !== 'pod' && raw.level !== 'node') throw new InjectorFlagError(`--level: ${JSON.stringify(raw.level ?? '')} must be pod or node`);
  const parentPid = raw.parentPid === undefined ? undefined : Number(raw.parentPid);
  if (parentPid !== undefined && !(Number.isInteger(parentPid) && parentPid > 0)) throw new InjectorFlagError(`--parent-pid: ${JSON.stringify(raw.parentPid)} is not a PID`);
  const logContext: Record<string, string> = {};
  const contextValues = [raw.logContextDisruptionName, raw.logContextDisruptionNamespace, raw.logContextDisruptionUid, raw.logContextTargetName, raw.logContextTargetNodeName];
  LOG_CONTEXT_FLAGS.forEach((flag, index) => {
    const value = contextValues[index];
    if (value) logContext[flag.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase())] = value;
  });
  return {
    level: raw.level,
    targetContainers: parseTargetContainers(raw.targetContainers ?? ''),
    ...(raw.targetPodIp ? { targetPodIP: raw.targetPodIp } : {}),
    dryRun: raw.dryRun === true,
    metricsSink: raw.metricsSink ?? 'noop',
    onInit: raw.onInit === true,
    pulseInitialDelayMs: parseGoDuration('pulse-initial-delay', raw.pulseInitialDelay ?? '0'),
    pulseActiveMs: parseGoDuration('pulse-active-duration', raw.pulseActiveDuration ?? '0'),
    pulseDormantMs: parseGoDuration('pulse-dormant-duration', raw.pulseDormantDuration ?? '0'),
    ...(raw.notInjectedBefore ? { notInjectedBefore: parseRfc3339('not-injected-before', raw.notInjectedBefore) } : {}),
    ...(raw.deadline ? { deadline: parseRfc3339('deadline', raw.deadline) } : {}),
    chaosNamespace: raw.chaosNamespace ?? DEFAULT_CHAOS_NAMESPACE,
    ...(parentPid !== undefined ? { parentPid } : {}),
    readinessFile: raw.readinessFile ?? DEFAULT_READINESS_FILE,
    logContext,
  };
}
