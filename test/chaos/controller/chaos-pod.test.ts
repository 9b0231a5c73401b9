// The chaos pod and its injector arguments, per kind, against upstream's GenerateArgs/CreateCmdArgs and
// GenerateChaosPodOfDisruption (golden values written out by hand).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DisruptionKindName } from '../../../src/chaos/api/constants.ts';
import type { Disruption, DisruptionSpec } from '../../../src/chaos/api/types.ts';
import { chaosConfig } from '../../../src/chaos/config.ts';
import { buildChaosPod, chaosPodArgs, type ChaosTarget } from '../../../src/chaos/controller/chaos-pod.ts';
import { kindArgs } from '../../../src/chaos/controller/kind-args.ts';

const created = '2026-01-01T00:00:00Z';
const now = new Date('2026-01-01T00:00:30Z');
const disruption = (spec: Partial<DisruptionSpec>): Disruption => ({
  apiVersion: 'chaos.datadoghq.com/v1beta1',
  kind: 'Disruption',
  metadata: { name: 'demo', namespace: 'apps', uid: 'u-1', creationTimestamp: created },
  spec: { count: 1, selector: { app: 'demo' }, duration: '10m', level: 'pod', ...spec },
});
const target: ChaosTarget = { name: 'web-0', nodeName: 'node-a', containers: [['app', 'containerd://abc'], ['sidecar', 'containerd://def']], podIP: '10.0.0.7' };
const config = chaosConfig();
const context = { injector: config.injector, chaosNamespace: config.chaosNamespace, now };

test('kindArgs: each kind\'s subcommand and flags', () => {
  const table: Array<[DisruptionKindName, Partial<DisruptionSpec>, string[]]> = [
    [
      'network-disruption',
      {
        network: {
          drop: 50,
          delay: 100,
          hosts: [{ host: '10.0.0.0/8', port: 80, protocol: 'tcp' }, { host: 'example.com', flow: 'ingress', percentage: 30 }],
          allowedHosts: [{ host: '1.1.1.1' }],
          services: [{ name: 'db', namespace: 'apps', ports: [{ name: 'pg', port: 5432 }] }],
          http: { paths: ['/a'], methods: ['GET'] },
        },
      },
      [
        'network-disruption', '--corrupt', '0', '--drop', '50', '--duplicate', '0', '--delay', '100', '--delay-jitter', '0', '--bandwidth-limit', '0',
        '--hosts', '10.0.0.0/8;80;tcp;;;;100', '--hosts', 'example.com;0;;ingress;;;30', '--allowed-hosts', '1.1.1.1;0;;;;;100',
        '--services', 'db;apps;5432-pg;100', '--path', '/a', '--method', 'GET',
      ],
    ],
    ['node-failure', { nodeFailure: { shutdown: true } }, ['node-failure', 'inject', '--shutdown']],
    ['node-failure', { nodeFailure: {} }, ['node-failure', 'inject']],
    ['container-failure', { containerFailure: { forced: true } }, ['container-failure', '--forced']],
    ['cpu-pressure', { cpuPressure: {} }, ['cpu-pressure', '--count', '100%']],
    ['cpu-pressure', { cpuPressure: { count: 2 } }, ['cpu-pressure', '--count', '2']],
    ['memory-pressure', { memoryPressure: { targetPercent: '76%', rampDuration: '5m' } }, ['memory-pressure', '--target-percent', '76%', '--ramp-duration', '5m0s']],
    ['disk-pressure', { diskPressure: { path: '/mnt/data', throttling: { writeBytesPerSec: 1024 } } }, ['disk-pressure', '--path', '/mnt/data', '--write-bytes-per-sec', '1024']],
    ['disk-failure', { diskFailure: { paths: [' /tmp '] } }, ['disk-failure', '--path', '/tmp', '--probability', '100%']],
    [
      'grpc-disruption',
      { grpc: { port: 50051, endpoints: [{ endpoint: '/svc/A', error: 'NOT_FOUND', queryPercent: 30 }, { endpoint: '/svc/B', override: '{}' }] } },
      ['grpc-disruption', '--port', '50051', '--endpoint-alterations', '/svc/A;error;NOT_FOUND;30', '--endpoint-alterations', '/svc/B;override;{};0'],
    ],
    [
      'dns-disruption',
      { dns: { records: [{ hostname: 'a.example', record: { type: 'a', value: '10.0.0.1', ttl: 5 } }, { hostname: 'b.example', record: { type: 'CNAME', value: 'c.example' } }] } },
      ['dns-disruption', '--records', 'a.example:A:10.0.0.1:5;b.example:CNAME:c.example:0', '--port', '53', '--protocol', 'both'],
    ],
    ['pod-replacement', { podReplacement: { deleteStorage: true, gracePeriodSeconds: 5 } }, ['pod-replacement', 'inject', '--delete-storage', '--grace-period-seconds', '5']],
  ];
  for (const [kind, spec, expected] of table) assert.deepEqual(kindArgs(kind, disruption(spec).spec), expected, kind);
});

test('chaosPodArgs: the common flags after the kind\'s, --deadline last (the end + 2 s)', () => {
  const d = disruption({ cpuPressure: {}, dryRun: true, pulse: { activeDuration: '1m', dormantDuration: '30s', initialDelay: '10s' } });
  assert.deepEqual(chaosPodArgs(d, 'cpu-pressure', target, context), [
    'cpu-pressure', '--count', '100%',
    '--metrics-sink', 'noop',
    '--level', 'pod',
    '--target-containers', 'app;containerd://abc,sidecar;containerd://def',
    '--target-pod-ip', '10.0.0.7',
    '--chaos-namespace', 'chaos-engineering',
    '--log-context-disruption-name', 'demo',
    '--log-context-disruption-namespace', 'apps',
    '--log-context-disruption-uid', 'u-1',
    '--log-context-target-name', 'web-0',
    '--log-context-target-node-name', 'node-a',
    '--dry-run',
    '--pulse-active-duration', '1m0s', '--pulse-dormant-duration', '30s',
    '--pulse-initial-delay', '10s',
    '--not-injected-before', '2026-01-01T00:00:00Z',
    '--deadline', '2026-01-01T00:10:02Z',
  ]);
});

test('chaosPodArgs: network adds the default allowed hosts and resolv.conf paths unless disabled; node level has no containers', () => {
  const injector = { ...config.injector, networkDisruptionAllowedHosts: ['10.96.0.1;443;tcp;;;;100'], dnsPodResolvConf: '/etc/resolv.conf' };
  const args = chaosPodArgs(disruption({ network: { drop: 1 }, onInit: true, triggers: { inject: { offset: '1m' } } }), 'network-disruption', target, { ...context, injector });
  assert.deepEqual(args.slice(args.indexOf('--log-context-target-node-name') + 2), [
    '--on-init',
    '--not-injected-before', '2026-01-01T00:01:00Z',
    '--allowed-hosts', '10.96.0.1;443;tcp;;;;100',
    '--dns-pod-resolv-conf', '/etc/resolv.conf',
    '--deadline', '2026-01-01T00:11:02Z',
  ]);
  const off = chaosPodArgs(disruption({ network: { drop: 1, disableDefaultAllowedHosts: true } }), 'network-disruption', target, { ...context, injector });
  assert.equal(off.filter((a) => a === '--allowed-hosts').length, 0);
  const node = chaosPodArgs(disruption({ level: 'node', nodeFailure: {} }), 'node-failure', { name: 'node-a', nodeName: 'node-a', containers: [], podIP: '' }, context);
  assert.deepEqual(node.slice(0, 10), ['node-failure', 'inject', '--metrics-sink', 'noop', '--level', 'node', '--target-containers', '', '--target-pod-ip', '']);
});

test('buildChaosPod: upstream\'s pod, pinned to the target\'s node', () => {
  const injector = { ...config.injector, labels: { team: 'chaos' }, annotations: { a: 'b' }, tolerations: [{ operator: 'Exists' }] };
  const pod = buildChaosPod(disruption({ cpuPressure: {} }), 'cpu-pressure', target, { ...context, injector });
  assert.deepEqual(pod.metadata, {
    generateName: 'chaos-demo-',
    namespace: 'chaos-engineering',
    labels: {
      team: 'chaos',
      'chaos.datadoghq.com/target': 'web-0',
      'chaos.datadoghq.com/disruption-kind': 'cpu-pressure',
      'chaos.datadoghq.com/disruption-name': 'demo',
      'chaos.datadoghq.com/disruption-namespace': 'apps',
    },
    annotations: { a: 'b' },
    finalizers: ['finalizer.chaos.datadoghq.com/chaos-pod'],
  });
  const spec = pod.spec as Record<string, any>;
  assert.deepEqual(
    { hostPID: spec.hostPID, restartPolicy: spec.restartPolicy, nodeName: spec.nodeName, sa: spec.serviceAccountName, grace: spec.terminationGracePeriodSeconds, deadline: spec.activeDeadlineSeconds, tolerations: spec.tolerations },
    { hostPID: true, restartPolicy: 'Never', nodeName: 'node-a', sa: 'chaos-injector', grace: 60, deadline: 580, tolerations: [{ operator: 'Exists' }] },
  );
  assert.equal(spec.affinity, undefined);
  const c = spec.containers[0];
  assert.deepEqual([c.name, c.image, c.imagePullPolicy, c.securityContext], ['injector', 'datadog/chaos-injector:13.4.0', 'IfNotPresent', { privileged: true }]);
  assert.deepEqual(c.readinessProbe, { periodSeconds: 1, failureThreshold: 5, exec: { command: ['test', '-f', '/tmp/readiness_probe'] } });
  assert.deepEqual(c.resources, { limits: { cpu: '0', memory: '0' }, requests: { cpu: '0', memory: '0' } });
  assert.deepEqual(c.env.map((e: { name: string; value?: string; valueFrom?: { fieldRef: { fieldPath: string } } }) => `${e.name}=${e.value ?? e.valueFrom?.fieldRef.fieldPath}`), [
    'TARGET_POD_HOST_IP=status.hostIP',
    'CHAOS_POD_IP=status.podIP',
    'INJECTOR_POD_NAME=metadata.name',
    'CHAOS_INJECTOR_MOUNT_HOST=/mnt/host/',
    'CHAOS_INJECTOR_MOUNT_PROC=/mnt/host/proc/',
    'CHAOS_INJECTOR_MOUNT_CGROUP=/mnt/cgroup/',
    'LOG_LEVEL=DEBUG',
  ]);
  assert.deepEqual(c.volumeMounts.map((m: { name: string; mountPath: string; readOnly?: boolean }) => `${m.name}:${m.mountPath}${m.readOnly ? ':ro' : ''}`), ['run:/run', 'cgroup:/mnt/cgroup', 'host:/mnt/host:ro', 'boot:/boot:ro']);
  assert.deepEqual(spec.volumes.map((v: { name: string; hostPath: { path: string; type: string } }) => `${v.name}=${v.hostPath.path}(${v.hostPath.type})`), [
    'run=/run(Directory)', 'proc=/proc(Directory)', 'cgroup=/sys/fs/cgroup(Directory)', 'host=/(Directory)', 'boot=/boot(Directory)',
  ]);
  assert.equal(c.args.at(-1), '2026-01-01T00:10:02Z');
});

test('buildChaosPod: sysrq (upstream mounts it everywhere) only in node-failure pods, the one kind that reads it', () => {
  const pod = buildChaosPod(disruption({ level: 'node', nodeFailure: {} }), 'node-failure', { name: 'node-a', nodeName: 'node-a', containers: [], podIP: '' }, context);
  const spec = pod.spec as Record<string, any>;
  const c = spec.containers[0];
  assert.deepEqual(c.env.filter((e: { name: string }) => e.name.includes('SYSRQ')).map((e: { name: string; value: string }) => `${e.name}=${e.value}`), ['CHAOS_INJECTOR_MOUNT_SYSRQ=/mnt/sysrq', 'CHAOS_INJECTOR_MOUNT_SYSRQ_TRIGGER=/mnt/sysrq-trigger']);
  assert.deepEqual(c.volumeMounts.map((m: { name: string }) => m.name), ['run', 'sysrq', 'sysrq-trigger', 'cgroup', 'host', 'boot']);
  assert.deepEqual(spec.volumes.filter((v: { name: string }) => v.name.startsWith('sysrq')).map((v: { hostPath: { path: string; type: string } }) => `${v.hostPath.path}(${v.hostPath.type})`), ['/proc/sys/kernel/sysrq(File)', '/proc/sysrq-trigger(File)']);
});
