// The chaos pod of one target and kind (upstream's services/chaospod.go GenerateChaosPodsOfDisruption and
// api/disruption_kind.go CreateCmdArgs), as a pure function: the injector, privileged in the host's PID
// namespace, pinned to the target's node, with the kind's flags and the common ones.
import {
  CHAOS_POD_FINALIZER,
  DISRUPTION_KIND_LABEL,
  DISRUPTION_NAME_LABEL,
  DISRUPTION_NAMESPACE_LABEL,
  INJECTOR_PAD_DURATION_MS,
  TARGET_LABEL,
  type DisruptionKindName,
} from '../api/constants.ts';
import type { Disruption } from '../api/types.ts';
import type { InjectorConfig } from '../config.ts';
import { formatDuration } from '../../apimachinery/duration.ts';
import { durationNs } from '../validation/values.ts';
import { kindArgs } from './kind-args.ts';
import type { Pod, PodSpec } from '../../apimachinery/api/index.ts';
import { remainingMs, timeToInjectMs } from './timing.ts';

/** The injector container's name: the termination table looks for it. */
export const INJECTOR_CONTAINER = 'injector';
/** The file the injector writes once injected; the readiness probe tests it. */
export const READINESS_FILE = '/tmp/readiness_probe';

export interface ChaosTarget {
  /** Pod or node name. */
  name: string;
  nodeName: string;
  /** name → "runtime://id" of the targeted containers (pod level). */
  containers: ReadonlyArray<readonly [string, string]>;
  podIP: string;
}

export interface ChaosPodContext {
  injector: InjectorConfig;
  chaosNamespace: string;
  now: Date;
}

/** RFC 3339 without fractions, as Go's time.RFC3339 formats a UTC time. */
export function rfc3339Seconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

function positiveDuration(value: Parameters<typeof durationNs>[0]): string | undefined {
  const parsed = durationNs(value);
  return parsed.ok && parsed.value > 0n ? formatDuration(parsed.value) : undefined;
}

/** The injector's arguments: the kind's, then the common flags, then --deadline (the disruption's end + 2 s). */
export function chaosPodArgs(d: Disruption, kind: DisruptionKindName, target: ChaosTarget, c: ChaosPodContext): string[] {
  const args = kindArgs(kind, d.spec);
  args.push(
    '--metrics-sink', c.injector.metricsSink,
    '--level', d.spec.level ?? 'pod',
    '--target-containers', target.containers.map(([name, id]) => `${name};${id}`).join(','),
    '--target-pod-ip', target.podIP,
    '--chaos-namespace', c.chaosNamespace,
    '--log-context-disruption-name', d.metadata.name ?? '',
    '--log-context-disruption-namespace', d.metadata.namespace ?? '',
    '--log-context-disruption-uid', d.metadata.uid ?? '',
    '--log-context-target-name', target.name,
    '--log-context-target-node-name', target.nodeName,
  );
  if (d.spec.dryRun) args.push('--dry-run');
  if (d.spec.onInit) args.push('--on-init');
  const active = positiveDuration(d.spec.pulse?.activeDuration);
  const dormant = positiveDuration(d.spec.pulse?.dormantDuration);
  if (active && dormant) args.push('--pulse-active-duration', active, '--pulse-dormant-duration', dormant);
  const initialDelay = positiveDuration(d.spec.pulse?.initialDelay);
  if (initialDelay) args.push('--pulse-initial-delay', initialDelay);
  args.push('--not-injected-before', rfc3339Seconds(new Date(timeToInjectMs(d))));
  if (kind === 'network-disruption') {
    const allowed = d.spec.network?.disableDefaultAllowedHosts ? [] : c.injector.networkDisruptionAllowedHosts;
    for (const host of allowed) args.push('--allowed-hosts', host);
    if (c.injector.dnsPodResolvConf) args.push('--dns-pod-resolv-conf', c.injector.dnsPodResolvConf);
    if (c.injector.dnsNodeResolvConf) args.push('--dns-node-resolv-conf', c.injector.dnsNodeResolvConf);
  }
  args.push('--deadline', rfc3339Seconds(new Date(c.now.getTime() + INJECTOR_PAD_DURATION_MS + remainingMs(d, c.now.getTime()))));
  return args;
}

export function chaosPodLabels(d: Disruption, kind: DisruptionKindName, targetName: string, injector: InjectorConfig): Record<string, string> {
  return {
    ...injector.labels,
    [TARGET_LABEL]: targetName,
    [DISRUPTION_KIND_LABEL]: kind,
    [DISRUPTION_NAME_LABEL]: d.metadata.name ?? '',
    [DISRUPTION_NAMESPACE_LABEL]: d.metadata.namespace ?? '',
  };
}

const fieldEnv = (name: string, fieldPath: string) => ({ name, valueFrom: { fieldRef: { fieldPath } } });
const hostPath = (name: string, path: string, type: 'Directory' | 'File') => ({ name, hostPath: { path, type } });
const zero = { cpu: '0', memory: '0' };

export function buildChaosPod(d: Disruption, kind: DisruptionKindName, target: ChaosTarget, c: ChaosPodContext): Pod {
  // Seconds, truncated as Go's int64(Duration.Seconds()) does; the injector stops itself at --deadline first.
  const activeDeadlineSeconds = Math.trunc(remainingMs(d, c.now.getTime()) / 1000) + 10;
  // Deviation: upstream mounts sysrq into every chaos pod, but only node-failure reads it; on a kernel without
  // sysrq (many VMs and containers) the hostPath File check would keep every other kind from starting too.
  const sysrq = c.injector.mountSysrq && kind === 'node-failure';
  const spec: PodSpec = {
    hostPID: true,
    restartPolicy: 'Never',
    nodeName: target.nodeName,
    serviceAccountName: c.injector.serviceAccount,
    terminationGracePeriodSeconds: 60,
    activeDeadlineSeconds,
    ...(c.injector.tolerations.length > 0 ? { tolerations: c.injector.tolerations.map((t) => ({ ...t })) } : {}),
    containers: [
      {
        name: INJECTOR_CONTAINER,
        image: c.injector.image,
        imagePullPolicy: 'IfNotPresent',
        args: chaosPodArgs(d, kind, target, c),
        securityContext: { privileged: true },
        readinessProbe: { periodSeconds: 1, failureThreshold: 5, exec: { command: ['test', '-f', READINESS_FILE] } },
        resources: { limits: zero, requests: zero },
        env: [
          fieldEnv('TARGET_POD_HOST_IP', 'status.hostIP'),
          fieldEnv('CHAOS_POD_IP', 'status.podIP'),
          fieldEnv('INJECTOR_POD_NAME', 'metadata.name'),
          { name: 'CHAOS_INJECTOR_MOUNT_HOST', value: '/mnt/host/' },
          { name: 'CHAOS_INJECTOR_MOUNT_PROC', value: '/mnt/host/proc/' },
          ...(sysrq
            ? [
                { name: 'CHAOS_INJECTOR_MOUNT_SYSRQ', value: '/mnt/sysrq' },
                { name: 'CHAOS_INJECTOR_MOUNT_SYSRQ_TRIGGER', value: '/mnt/sysrq-trigger' },
              ]
            : []),
          { name: 'CHAOS_INJECTOR_MOUNT_CGROUP', value: '/mnt/cgroup/' },
          { name: 'LOG_LEVEL', value: c.injector.logLevel },
        ],
        volumeMounts: [
          { name: 'run', mountPath: '/run' },
          ...(sysrq
            ? [
                { name: 'sysrq', mountPath: '/mnt/sysrq' },
                { name: 'sysrq-trigger', mountPath: '/mnt/sysrq-trigger' },
              ]
            : []),
          { name: 'cgroup', mountPath: '/mnt/cgroup' },
          { name: 'host', mountPath: '/mnt/host', readOnly: true },
          { name: 'boot', mountPath: '/boot', readOnly: true },
        ],
      },
    ],
    volumes: [
      hostPath('run', '/run', 'Directory'),
      hostPath('proc', '/proc', 'Directory'),
      ...(sysrq ? [hostPath('sysrq', '/proc/sys/kernel/sysrq', 'File'), hostPath('sysrq-trigger', '/proc/sysrq-trigger', 'File')] : []),
      hostPath('cgroup', '/sys/fs/cgroup', 'Directory'),
      hostPath('host', '/', 'Directory'),
      hostPath('boot', '/boot', 'Directory'),
    ],
    ...(c.injector.imagePullSecrets ? { imagePullSecrets: [{ name: c.injector.imagePullSecrets }] } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `chaos-${d.metadata.name ?? ''}-`,
      namespace: c.chaosNamespace,
      labels: chaosPodLabels(d, kind, target.name, c.injector),
      ...(Object.keys(c.injector.annotations).length > 0 ? { annotations: { ...c.injector.annotations } } : {}),
      finalizers: [CHAOS_POD_FINALIZER],
    },
    spec,
  };
}
