// Spec.Validate, the create and update decisions and the safety nets, as tables: each rule with the input that
// breaks it and upstream's message (api/v1beta1/disruption_types.go, disruption_webhook.go, the kinds' files).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DISRUPTION_FINALIZER, SAFEMODE_ENVIRONMENT_ANNOTATION, USER_INFO_ANNOTATION } from '../../src/chaos/api/constants.ts';
import type { Disruption, DisruptionSpec } from '../../src/chaos/api/types.ts';
import { chaosConfig, DEFAULT_CHAOS_CONFIG, type ChaosConfig } from '../../src/chaos/config.ts';
import {
  formatSpecError,
  formatSpecErrors,
  safetyNets,
  SAFETY_NETS_HEADER,
  serviceKey,
  specHash,
  validateCreate,
  validateSpec,
  validateUpdate,
  type ServiceInfo,
  type TargetCounts,
} from '../../src/chaos/validation/index.ts';

const base: DisruptionSpec = { count: 1, selector: { app: 'web' }, cpuPressure: {} };
const spec = (over: Partial<DisruptionSpec>, drop: (keyof DisruptionSpec)[] = []): DisruptionSpec => {
  const s = { ...base, ...over };
  for (const k of drop) delete s[k];
  return s;
};
const messages = (s: DisruptionSpec) => validateSpec(s).map(formatSpecError);

test('a minimal spec per kind is valid', () => {
  const kinds: Partial<DisruptionSpec>[] = [
    { cpuPressure: { count: '50%' } },
    { memoryPressure: { targetPercent: '76%', rampDuration: '1m' } },
    { diskPressure: { path: '/data', throttling: { writeBytesPerSec: 1024 } } },
    { containerFailure: { forced: true } },
    { nodeFailure: {}, level: 'node' },
    { podReplacement: { deleteStorage: false } },
    { network: { drop: 100, hosts: [{ host: '10.0.0.0/8', port: 80, protocol: 'TCP', flow: 'egress' }] } },
    { dns: { records: [{ hostname: 'example.com', record: { type: 'A', value: '10.0.0.1,10.0.0.2' } }, { hostname: 'mx.example.com', record: { type: 'MX', value: '10 mail.example.com' } }] } },
  ];
  for (const k of kinds) assert.deepEqual(messages(spec(k, k.cpuPressure ? [] : ['cpuPressure'])), [], JSON.stringify(k));
});

// [what, spec, expected "field: message" lines]
const specRules: [string, DisruptionSpec, string[]][] = [
  ['no selector', spec({}, ['selector']), ['spec.selector: either selector or advancedSelector field must be set']],
  ['a selector value that is no label value', spec({ selector: { app: 'a b' } }), ['spec.selector.app: unable to parse requirement: invalid label value: "a b" in "app=a b"']],
  [
    'an unknown advancedSelector operator',
    spec({ selector: null, advancedSelector: [{ key: 'app', operator: 'Gt', values: ['1'] }] }),
    ['spec.advancedSelector[0]: error parsing advanced selector operator Gt: must be either In, NotIn, Exists or DoesNotExist'],
  ],
  [
    'In without values',
    spec({ selector: null, advancedSelector: [{ key: 'app', operator: 'In' }] }),
    ["spec.advancedSelector[0]: error parsing given advanced selector to requirements: for 'in', 'notin' operators, values set can't be empty"],
  ],
  ['containers at node level', spec({ level: 'node', containers: ['app'] }), ['spec.containers: cannot target specific containers because the level configuration is set to node']],
  [
    'container failure at node level',
    spec({ level: 'node', containerFailure: {} }, ['cpuPressure']),
    ['spec.containerFailure: cannot execute a container failure because the level configuration is set to node'],
  ],
  ['no kind', spec({}, ['cpuPressure']), ['spec: at least one disruption kind must be specified, please read the docs to see your options']],
  [
    'container failure with another kind',
    spec({ containerFailure: {} }),
    ['spec.containerFailure: container failure disruptions are not compatible with other disruption kinds. The container failure will remove the impact of the other disruption types'],
  ],
  [
    'node failure with another kind',
    spec({ nodeFailure: {} }),
    ['spec.nodeFailure: node failure disruptions are not compatible with other disruption kinds. The node failure will remove the impact of the other disruption types'],
  ],
  [
    'pod replacement with another kind, at node level',
    spec({ podReplacement: {}, level: 'node' }),
    [
      'spec.podReplacement: pod replacement disruptions are not compatible with other disruption kinds. The pod replacement will remove the impact of the other disruption types',
      'spec.level: cannot execute a pod replacement because the level configuration is set to node',
    ],
  ],
  [
    'onInit with cpu pressure, at node level, with containers',
    spec({ onInit: true, level: 'node', containers: ['c'] }),
    [
      'spec.containers: cannot target specific containers because the level configuration is set to node',
      'spec.onInit: OnInit is only compatible with network disruptions',
      'spec.onInit: OnInit is only compatible with pod level disruptions',
      'spec.onInit: OnInit is not compatible with containers scoping',
    ],
  ],
  [
    'containers with disk and memory pressure',
    spec({ containers: ['c'], diskPressure: { path: '/', throttling: { readBytesPerSec: 1 } }, memoryPressure: { targetPercent: '50%' } }, ['cpuPressure']),
    [
      'spec.containers: disk pressure disruptions apply to all containers, specifying certain containers does not isolate the disruption',
      'spec.containers: memory pressure disruptions apply to all containers, specifying certain containers does not isolate the disruption',
    ],
  ],
  [
    'inject before createPods',
    spec({ triggers: { inject: { notBefore: '2030-01-01T10:00:00Z' }, createPods: { notBefore: '2030-01-01T11:00:00Z' } } }),
    [
      'spec.triggers.inject.notBefore: spec.triggers.inject.notBefore is 2030-01-01 10:00:00 +0000 UTC, which is before your spec.triggers.createPods.notBefore of 2030-01-01 11:00:00 +0000 UTC. inject.notBefore must come after createPods.notBefore if both are specified',
    ],
  ],
  [
    'notBefore and offset together',
    spec({ triggers: { inject: { notBefore: '2030-01-01T10:00:00Z', offset: '1m' }, createPods: { notBefore: '2030-01-01T09:00:00Z', offset: '5s' } } }),
    [
      'spec.triggers.inject: its not possible to set spec.triggers.inject.notBefore and spec.triggers.inject.offset',
      'spec.triggers.createPods: its not possible to set spec.triggers.createPods.notBefore and spec.triggers.createPods.offset',
    ],
  ],
  ['a notBefore that is no time', spec({ triggers: { inject: { notBefore: 'tomorrow' } } }), ['spec.triggers.inject.notBefore: parsing time "tomorrow" as "2006-01-02T15:04:05Z07:00": cannot parse']],
  [
    'pulse with container failure, one-sided and too short',
    spec({ containerFailure: {}, pulse: { activeDuration: '100ms' } }, ['cpuPressure']),
    [
      'spec.pulse: pulse is only compatible with network, cpu pressure, memory pressure, disk pressure, dns, and grpc disruptions',
      'spec.pulse: if spec.pulse.activeDuration or spec.pulse.dormantDuration are specified, then both options must be set',
      'spec.pulse.activeDuration: pulse activeDuration of 100ms should be greater than 500ms',
    ],
  ],
  ['pulse dormant too short', spec({ pulse: { activeDuration: '1m', dormantDuration: '499ms' } }), ['spec.pulse.dormantDuration: pulse dormantDuration of 499ms should be greater than 500ms']],
  ['dns at node level', spec({ level: 'node', dns: { records: [{ hostname: 'a.b', record: { type: 'A', value: 'NXDOMAIN' } }] } }, ['cpuPressure']), ['spec.dns: DNS disruptions can only be applied at the pod level']],
  ['count 0', spec({ count: 0 }), ['spec.count: count must be a positive integer or a valid percentage value']],
  ['count 101%', spec({ count: '101%' }), ['spec.count: count must be a positive integer or a valid percentage value']],
  ['count 0%', spec({ count: '0%' }), ['spec.count: count must be a positive integer or a valid percentage value']],
  ['count not a number', spec({ count: 'many' }), ['spec.count: error determining value of spec.count: invalid value "many": strconv.Atoi: parsing "many": invalid syntax']],
  ['count missing', spec({}, ['count']), ['spec.count: error determining value of spec.count: invalid type: pointer is nil', 'spec.count: DisruptionSpec.Count is a required field, and must be set']],
  ['a duration Go cannot parse', spec({ duration: '5 minutes' }), ['spec.duration: time: unknown unit " minutes" in duration "5 minutes"']],
  ['a duration without unit', spec({ duration: '30' }), ['spec.duration: time: missing unit in duration "30"']],
  [
    'countTooLarge config without a threshold',
    spec({ unsafeMode: { config: { countTooLarge: {} } } }),
    ['spec.unsafeMode.config.countTooLarge: at least one of unsafeMode.config.countTooLarge.NamespaceThreshold or unsafeMode.config.countTooLarge.ClusterThreshold must be set'],
  ],
  ['an unknown level', spec({ level: 'cluster' as 'pod' }), ['spec.level: DisruptionSpec.Level is set to cluster, but must be one of the following: "pod, node"']],
  // kinds
  ['grpc', spec({ grpc: { port: 50051, endpoints: [{ endpoint: '/a.B/c', error: 'NOT_FOUND' }] } }, ['cpuPressure']), ['spec.grpc: grpc-disruption is not supported by this injector: it needs eBPF programs Bosun does not ship']],
  ['disk failure', spec({ diskFailure: { paths: ['/data'] } }, ['cpuPressure']), ['spec.diskFailure: disk-failure is not supported by this injector: it needs eBPF programs Bosun does not ship']],
  ['cpu pressure count 0', spec({ cpuPressure: { count: 0 } }), ['spec.cpuPressure.count: count must be a positive integer or a valid percentage value']],
  ['cpu pressure count 150%', spec({ cpuPressure: { count: '150%' } }), ['spec.cpuPressure.count: count must be a positive integer or a valid percentage value']],
  ['memory pressure percent not a number', spec({ memoryPressure: { targetPercent: 'half' } }, ['cpuPressure']), ['spec.memoryPressure.targetPercent: invalid targetPercent "half": strconv.Atoi: parsing "half": invalid syntax']],
  ['memory pressure over 100%', spec({ memoryPressure: { targetPercent: '150%' } }, ['cpuPressure']), ['spec.memoryPressure.targetPercent: targetPercent must be between 1 and 100, got 150']],
  ['memory pressure negative ramp', spec({ memoryPressure: { targetPercent: '50%', rampDuration: '-1m' } }, ['cpuPressure']), ['spec.memoryPressure.rampDuration: rampDuration must be non-negative, got -1m0s']],
  [
    'memory pressure without target',
    spec({ memoryPressure: {} as { targetPercent: string } }, ['cpuPressure']),
    ['spec.memoryPressure.targetPercent: invalid targetPercent "": strconv.Atoi: parsing "": invalid syntax', 'spec.memoryPressure.targetPercent: DisruptionSpec.MemoryPressure.TargetPercent is a required field, and must be set'],
  ],
  [
    'disk pressure without path nor throughput',
    spec({ diskPressure: { path: '', throttling: {} } }, ['cpuPressure']),
    ['spec.diskPressure.path: DisruptionSpec.DiskPressure.Path is a required field, and must be set', 'spec.diskPressure.throttling: DisruptionSpec.DiskPressure.Throttling is a required field, and must be set'],
  ],
  [
    'network without any effect',
    spec({ network: { hosts: [{ host: '10.0.0.1' }] } }, ['cpuPressure']),
    ['spec.network: when applying a network disruption, at least one of network.drop, network.delay, network.corrupt, network.duplicate, or network.bandwidthLimit must be set'],
  ],
  [
    'network host flow without host or port, and allowed hosts',
    spec({ network: { drop: 10, hosts: [{ flow: 'ingress' }], allowedHosts: [{ flow: 'egress', protocol: 'udp' }] } }, ['cpuPressure']),
    ['spec.network.hosts[0]: host or port fields must be set when the flow field is set', 'spec.network.allowedHosts[0]: host or port fields must be set when the flow field is set'],
  ],
  [
    'network host port, protocol, flow, connState, dnsResolver and percentage out of range',
    spec({ network: { drop: 10, hosts: [{ host: 'a', port: 70000, protocol: 'icmp', flow: 'sideways', connState: 'old', dnsResolver: 'cloud', percentage: 0 }] } }, ['cpuPressure']),
    [
      'spec.network.hosts[0].port: DisruptionSpec.Network.Hosts[0].Port is set to 70000, but must be less or equal to 65535',
      'spec.network.hosts[0].protocol: DisruptionSpec.Network.Hosts[0].Protocol is set to icmp, but must be one of the following: "udp, tcp"',
      'spec.network.hosts[0].flow: DisruptionSpec.Network.Hosts[0].Flow is set to sideways, but must be one of the following: "ingress, egress"',
      'spec.network.hosts[0].connState: DisruptionSpec.Network.Hosts[0].ConnState is set to old, but must be one of the following: "new, est"',
      'spec.network.hosts[0].dnsResolver: DisruptionSpec.Network.Hosts[0].DNSResolver is set to cloud, but must be one of the following: "pod, node, pod-fallback-node, node-fallback-pod"',
      'spec.network.hosts[0].percentage: DisruptionSpec.Network.Hosts[0].Percentage is set to 0, but must be greater or equal to 1',
    ],
  ],
  [
    'network percentages, delay and jitter out of range',
    spec({ network: { hosts: [{ host: 'a' }], drop: 101, corrupt: 200, duplicate: 150, delay: 60001, delayJitter: 101 } }, ['cpuPressure']),
    [
      'spec.network.drop: DisruptionSpec.Network.Drop is set to 101, but must be less or equal to 100',
      'spec.network.duplicate: DisruptionSpec.Network.Duplicate is set to 150, but must be less or equal to 100',
      'spec.network.corrupt: DisruptionSpec.Network.Corrupt is set to 200, but must be less or equal to 100',
      'spec.network.delay: DisruptionSpec.Network.Delay is set to 60001, but must be less or equal to 60000',
      'spec.network.delayJitter: DisruptionSpec.Network.DelayJitter is set to 101, but must be less or equal to 100',
    ],
  ],
  ['network bandwidth below 32 bytes', spec({ network: { hosts: [{ host: 'a' }], bandwidthLimit: 16 } }, ['cpuPressure']), ['spec.network.bandwidthLimit: bandwidthLimits below 32 bytes are not supported']],
  [
    'network cloud without provider',
    spec({ network: { drop: 1, cloud: {} } }, ['cpuPressure']),
    ['spec.network.cloud: if network.cloud is specified, at least one of cloud.aws, cloud.gcp, or cloud.datadog must be set'],
  ],
  [
    'network http methods and paths',
    spec({ network: { drop: 1, hosts: [{ host: 'a' }], http: { methods: ['GET', 'GET', 'FETCH'], paths: ['/', 'api', '/a b'] } } }, ['cpuPressure']),
    [
      'spec.network.http.paths[0]: the paths specification at the network disruption level is not valid; no needs to define other paths if the / path is defined because it already catches all paths',
      'spec.network.http.paths[1]: the paths specification at the network disruption level is not valid; should start with a /',
      'spec.network.http.paths[2]: the paths specification at the network disruption level is not valid; should not contains spaces',
      'spec.network.http.methods[2]: the methods specification at the network disruption level is not valid; should be a GET, DELETE, POST, PUT, HEAD, PATCH, CONNECT, OPTIONS or TRACE. Invalid value: FETCH',
      'spec.network.http.methods: the methods specification at the network disruption level is not valid; should not contain duplicated methods. Count: 2; Method: GET',
    ],
  ],
  [
    'dns records: none valid',
    spec({ dns: { records: [{ hostname: ' ', record: { type: 'A', value: '999.1.1.1' } }, { hostname: 'x', record: { type: 'PTR', value: 'y' } }, { hostname: 'x.', record: { type: 'ptr', value: 'z' } }], port: 70000, protocol: 'sctp' } }, ['cpuPressure']),
    [
      'spec.dns.records[0].hostname: spec.dns.records[0].hostname cannot be empty',
      "spec.dns.records[0].record.value: spec.dns.records[0].record.value: '999.1.1.1' is not a valid IPv4 address or special value",
      'spec.dns.records[1].record.type: spec.dns.records[1].record.type must be one of: A, AAAA, CNAME, MX, TXT, SRV',
      "spec.dns.records[2].hostname: spec.dns.records[2].hostname 'x.' with type 'ptr' is duplicated (first seen at index 1)",
      'spec.dns.records[2].record.type: spec.dns.records[2].record.type must be one of: A, AAAA, CNAME, MX, TXT, SRV',
      'spec.dns.port: spec.dns.port must be between 1 and 65535',
      'spec.dns.protocol: spec.dns.protocol must be one of: udp, tcp, both',
    ],
  ],
  [
    'dns record values per type',
    spec(
      {
        dns: {
          records: [
            { hostname: 'a', record: { type: 'AAAA', value: '10.0.0.1' } },
            { hostname: 'b', record: { type: 'CNAME', value: 'DROP' } },
            { hostname: 'c', record: { type: 'MX', value: 'mail.example.com' } },
            { hostname: 'd', record: { type: 'SRV', value: '10 x 5060 sip.example.com' } },
          ],
        },
      },
      ['cpuPressure'],
    ),
    [
      "spec.dns.records[0].record.value: spec.dns.records[0].record.value: '10.0.0.1' is not a valid IPv6 address or special value",
      'spec.dns.records[1].record.value: spec.dns.records[1].record.value: special values not allowed for CNAME records',
      "spec.dns.records[2].record.value: spec.dns.records[2].record.value: MX record must be in format 'priority hostname' (e.g., '10 mail.example.com')",
      'spec.dns.records[3].record.value: spec.dns.records[3].record.value: SRV weight must be a number',
    ],
  ],
  ['dns without records', spec({ dns: { records: [] } }, ['cpuPressure']), ['spec.dns.records: spec.dns.records must contain at least one record']],
  [
    'dns in the legacy list form',
    spec({ dns: [{ hostname: 'a', ips: ['10.0.0.1'] }] as unknown as DisruptionSpec['dns'] }, ['cpuPressure']),
    ['spec.dns: json: cannot unmarshal array into Go struct field DisruptionSpec.spec.dns of type v1beta1.DNSDisruptionSpec'],
  ],
];

for (const [what, s, expected] of specRules) {
  test(`Spec.Validate: ${what}`, () => assert.deepEqual(messages(s), expected));
}

test('count takes an int, a numeric string and a percentage', () => {
  for (const count of [3, '3', '25%', '100%', '+2']) assert.deepEqual(messages(spec({ count })), [], String(count));
});

test('network.services: existing ClusterIP Services with the given ports (the webhook looks them up)', () => {
  const services = new Map<string, ServiceInfo | undefined>([
    [serviceKey('shop', 'api'), { type: 'ClusterIP', ports: [{ name: 'http', port: 80 }] }],
    [serviceKey('shop', 'lb'), { type: 'LoadBalancer', ports: [{ port: 80 }] }],
    [serviceKey('shop', 'gone'), undefined],
  ]);
  const check = (svc: NonNullable<DisruptionSpec['network']>['services']) =>
    validateSpec(spec({ network: { drop: 1, services: svc ?? [] } }, ['cpuPressure']), { services }).map(formatSpecError);
  assert.deepEqual(check([{ name: 'api', namespace: 'shop', ports: [{ port: 80 }, { name: 'http' }] }]), []);
  assert.deepEqual(check([{ name: 'gone', namespace: 'shop' }]), ['spec.network.services[0]: the service specified in the network disruption (shop/gone) does not exist']);
  assert.deepEqual(check([{ name: 'api', namespace: '' }]), ['spec.network.services[0]: either service namespace or name have not been properly set for this service: /api -> namespace/name']);
  assert.deepEqual(check([{ name: 'api', namespace: 'shop', ports: [{ port: 81 }, { name: 'grpc' }, { name: 'grpc', port: 80 }] }]), [
    'spec.network.services[0].ports: the ports ([81 grpc grpc/80]) specified for the service in the network disruption (shop/api) do not exist',
  ]);
  assert.deepEqual(check([{ name: 'lb', namespace: 'shop' }]), [
    'spec.network.services[0]: the service specified in the network disruption (shop/lb) is of type LoadBalancer, but only the following service types are supported: ClusterIP',
  ]);
});

// --- safety nets ----------------------------------------------------------------------------------

const counts = (matching: number, namespace: number, cluster: number): TargetCounts => ({ matching, namespace, cluster });
const nets = (s: DisruptionSpec, config: ChaosConfig = DEFAULT_CHAOS_CONFIG, c?: TargetCounts) => safetyNets(s, { config, ...(c ? { counts: c } : {}) }).map(formatSpecError);

const safetyNetRules: [string, DisruptionSpec, ChaosConfig, TargetCounts | undefined, string[]][] = [
  ['count within both thresholds', spec({ count: 2 }), DEFAULT_CHAOS_CONFIG, counts(10, 10, 100), []],
  [
    'count too large for the namespace (80%)',
    spec({ count: 9 }),
    DEFAULT_CHAOS_CONFIG,
    counts(10, 10, 100),
    ['spec.count: target selection represents 90.00 % of the total pods in the namespace while the threshold is 80.00 %'],
  ],
  [
    'a percentage too large for the namespace',
    spec({ count: '100%' }),
    DEFAULT_CHAOS_CONFIG,
    counts(5, 6, 100),
    ['spec.count: target selection represents 83.33 % of the total pods in the namespace while the threshold is 80.00 %'],
  ],
  [
    'count too large for the cluster (66%)',
    spec({ count: 7 }),
    DEFAULT_CHAOS_CONFIG,
    counts(10, 20, 10),
    ['spec.count: target selection represents 70.00 % of the total pods in the cluster while the threshold is 66.00 %'],
  ],
  ['node level: the cluster\'s nodes only', spec({ count: 3, level: 'node' }), DEFAULT_CHAOS_CONFIG, counts(4, 0, 4), ['spec.count: target selection represents 75.00 % of the total nodes in the cluster while the threshold is 66.00 %']],
  ['nothing matches: nothing to judge', spec({ count: 50 }), DEFAULT_CHAOS_CONFIG, counts(0, 10, 10), []],
  ['no counts (no cluster): not checked', spec({ count: 50 }), DEFAULT_CHAOS_CONFIG, undefined, []],
  ['opt-out: unsafeMode.disableCountTooLarge', spec({ count: 9, unsafeMode: { disableCountTooLarge: true } }), DEFAULT_CHAOS_CONFIG, counts(10, 10, 10), []],
  ['opt-out: unsafeMode.disableAll', spec({ count: 9, unsafeMode: { disableAll: true } }), DEFAULT_CHAOS_CONFIG, counts(10, 10, 10), []],
  ['per-disruption thresholds', spec({ count: 9, unsafeMode: { config: { countTooLarge: { namespaceThreshold: 95, clusterThreshold: 100 } } } }), DEFAULT_CHAOS_CONFIG, counts(10, 10, 10), []],
  [
    'configured thresholds',
    spec({ count: 3 }),
    chaosConfig({ safemode: { namespaceThreshold: 20 } }),
    counts(10, 10, 100),
    ['spec.count: target selection represents 30.00 % of the total pods in the namespace while the threshold is 20.00 %'],
  ],
  [
    'network without hosts nor services',
    spec({ network: { drop: 100 } }, ['cpuPressure']),
    DEFAULT_CHAOS_CONFIG,
    undefined,
    ['spec.network: the specified disruption either contains no Host or Service filters. This will result in all network traffic being affected.'],
  ],
  ['network with a service', spec({ network: { drop: 100, services: [{ name: 'a', namespace: 'b' }] } }, ['cpuPressure']), DEFAULT_CHAOS_CONFIG, undefined, []],
  ['opt-out: unsafeMode.disableNeitherHostNorPort', spec({ network: { drop: 100 }, unsafeMode: { disableNeitherHostNorPort: true } }, ['cpuPressure']), DEFAULT_CHAOS_CONFIG, undefined, []],
  [
    'root disk failure at node level',
    spec({ level: 'node', diskFailure: { paths: ['/tmp', ' / '] } }, ['cpuPressure']),
    DEFAULT_CHAOS_CONFIG,
    undefined,
    ['spec.diskFailure.paths: the specified path for the disk failure disruption targeting a node must not be "/"'],
  ],
  ['root disk failure at pod level', spec({ diskFailure: { paths: ['/'] } }, ['cpuPressure']), DEFAULT_CHAOS_CONFIG, undefined, []],
  ['opt-out: unsafeMode.allowRootDiskFailure', spec({ level: 'node', diskFailure: { paths: ['/'] }, unsafeMode: { allowRootDiskFailure: true } }, ['cpuPressure']), DEFAULT_CHAOS_CONFIG, undefined, []],
  [
    'node failure not allowed (not even with disableAll)',
    spec({ nodeFailure: {}, unsafeMode: { disableAll: true } }, ['cpuPressure']),
    chaosConfig({ safemode: { allowNodeFailure: false } }),
    undefined,
    ['spec.nodeFailure: node failure disruptions are not allowed in this cluster, please use a disruption type or test elsewhere'],
  ],
  [
    'node level not allowed',
    spec({ level: 'node' }),
    chaosConfig({ safemode: { allowNodeLevel: false } }),
    undefined,
    ['spec.level: node level disruptions are not allowed in this cluster, please apply at the pod level or test elsewhere'],
  ],
];

for (const [what, s, config, c, expected] of safetyNetRules) {
  test(`safety net: ${what}`, () => assert.deepEqual(nets(s, config, c), expected));
}

// --- create -----------------------------------------------------------------------------------------

const now = new Date('2030-06-01T12:00:00Z');
const disruption = (s: DisruptionSpec, meta: Partial<Disruption['metadata']> = {}): Disruption => ({
  apiVersion: 'chaos.datadoghq.com/v1beta1',
  kind: 'Disruption',
  metadata: { name: 'dis', namespace: 'shop', ...meta },
  spec: s,
});
const create = (d: Disruption, config: ChaosConfig = DEFAULT_CHAOS_CONFIG, c?: TargetCounts) => {
  const verdict = validateCreate(d, { config, now, ...(c ? { counts: c } : {}) });
  return { header: verdict.header, errors: verdict.errors.map(formatSpecError) };
};

const createRules: [string, Disruption, ChaosConfig, string[]][] = [
  ['delete-only mode', disruption(base), chaosConfig({ deleteOnly: true }), ["the controller is currently in delete-only mode, you can't create new disruptions for now"]],
  [
    'permitted user groups',
    disruption(base, { annotations: { [USER_INFO_ANNOTATION]: '{"username":"eve","groups":["dev","qa"]}' } }),
    chaosConfig({ permittedUserGroups: ['sre', 'chaos'] }),
    ['lacking sufficient authorization to create Disruption. your user groups are dev, qa, but you must be in one of the following groups: sre,chaos'],
  ],
  ['permitted user groups without user info', disruption(base), chaosConfig({ permittedUserGroups: ['sre'] }), ['metadata.annotations.UserInfo: user info not found in annotations']],
  ['a name that is no label value', disruption(base, { name: 'a'.repeat(64) }), DEFAULT_CHAOS_CONFIG, [`metadata.name: invalid disruption name: unable to parse requirement: invalid label value: "${'a'.repeat(64)}" in "name=${'a'.repeat(64)}"`]],
  [
    'environment annotation missing',
    disruption(base),
    chaosConfig({ safemode: { environment: 'staging' } }),
    [
      `metadata.annotations.${SAFEMODE_ENVIRONMENT_ANNOTATION}: your disruption does not specify the environment it expects to run in, but this controller requires it to do. Set an annotation on this disruption with the key \`chaos.datadoghq.com/environment\` and the value \`"staging"\` to run in this kubernetes cluster. Be sure that you intend to run this disruption in staging`,
    ],
  ],
  [
    'environment annotation different',
    disruption(base, { annotations: { [SAFEMODE_ENVIRONMENT_ANNOTATION]: 'prod' } }),
    chaosConfig({ safemode: { environment: 'staging' } }),
    [
      `metadata.annotations.${SAFEMODE_ENVIRONMENT_ANNOTATION}: disruption is configured to run in "prod" but has been applied in "staging".  Set an annotation on this disruption with the key \`chaos.datadoghq.com/environment\` and the value \`"staging"\` to run in this kubernetes cluster, and double check your kubecontext is what you expect`,
    ],
  ],
  [
    'onInit without the handler',
    disruption(spec({ onInit: true, network: { drop: 1, hosts: [{ host: 'a' }] } }, ['cpuPressure'])),
    DEFAULT_CHAOS_CONFIG,
    [
      'spec.onInit: the chaos handler is disabled but the disruption onInit field is set to true, please enable the handler by specifying the --handler-enabled flag to the controller if you want to use the onInit feature (requires Kubernetes >= 1.15)',
    ],
  ],
  [
    'too many tc filters',
    disruption(spec({ network: { drop: 1, hosts: Array.from({ length: 2000 }, (_, i) => ({ host: `10.0.${i >> 8}.${i & 255}` })), services: Array.from({ length: 25 }, (_, i) => ({ name: `s${i}`, namespace: 'x' })) } }, ['cpuPressure'])),
    DEFAULT_CHAOS_CONFIG,
    [
      'spec.network: the number of resources (ips, ip ranges, single port) to filter is too high (2050). Please remove some hosts, services or cloud managed services to be affected in the disruption. Maximum resources (ips, ip ranges, single port) filterable is 2048',
    ],
  ],
  [
    'a trigger in the past',
    disruption(spec({ triggers: { inject: { notBefore: '2030-06-01T11:00:00Z' } } })),
    DEFAULT_CHAOS_CONFIG,
    ['spec.triggers.inject.notBefore: spec.trigger.inject.notBefore is 2030-06-01 11:00:00 +0000 UTC, which is in the past. only values in the future are accepted'],
  ],
  [
    'longer than the maximum duration',
    disruption(spec({ duration: '2h' })),
    chaosConfig({ maxDurationMs: 3_600_000 }),
    ['spec.duration: you have specified a duration of 2h0m0s, but the maximum duration allowed is 1h0m0s, please specify a duration lower or equal than this value'],
  ],
  ['a disabled kind', disruption(base), chaosConfig({ disabledDisruptions: ['cpu-pressure'] }), ['spec.cpuPressure: disruption kind cpu-pressure is currently disabled']],
];

for (const [what, d, config, expected] of createRules) {
  test(`create: ${what}`, () => assert.deepEqual(create(d, config).errors, expected));
}

test('create: the safety nets answer under upstream\'s heading, only when safemode is on', () => {
  const risky = disruption(spec({ count: '100%', network: { drop: 100 } }, ['cpuPressure']));
  const caught = create(risky, DEFAULT_CHAOS_CONFIG, counts(4, 4, 40));
  assert.equal(caught.header, SAFETY_NETS_HEADER);
  assert.deepEqual(caught.errors, [
    'spec.count: target selection represents 100.00 % of the total pods in the namespace while the threshold is 80.00 %',
    'spec.network: the specified disruption either contains no Host or Service filters. This will result in all network traffic being affected.',
  ]);
  assert.equal(
    formatSpecErrors(validateCreate(risky, { config: DEFAULT_CHAOS_CONFIG, now, counts: counts(4, 4, 40) }).errors, SAFETY_NETS_HEADER).split('\n')[0],
    'at least one of the initial safety nets caught an issue',
  );
  assert.deepEqual(create(risky, chaosConfig({ safemode: { enable: false } }), counts(4, 4, 40)).errors, []);
});

test('create: Spec.Validate errors come before the later steps', () => {
  assert.deepEqual(create(disruption(spec({ count: 0, duration: '2h' })), chaosConfig({ maxDurationMs: 60_000 })).errors, ['spec.count: count must be a positive integer or a valid percentage value']);
});

// --- update -----------------------------------------------------------------------------------------

const update = (old: Disruption, updated: Disruption, pods: string[] = []) => validateUpdate(old, updated, pods).errors.map(formatSpecError);
const withFinalizer = (d: Disruption): Disruption => ({ ...d, metadata: { ...d.metadata, finalizers: [DISRUPTION_FINALIZER] } });

test('update: dynamic targeting lets only count change', () => {
  const old = disruption(spec({ duration: '1h0m0s' }));
  assert.deepEqual(update(old, disruption(spec({ duration: '1h0m0s', count: '50%' }))), []);
  assert.deepEqual(update(old, disruption(spec({ duration: '1h0m0s', cpuPressure: { count: 1 } }))), [
    "spec: [StaticTargeting: false] only a disruption spec's Count field can be updated, please delete and recreate it if needed",
  ]);
});

test('update: static targeting freezes the whole spec', () => {
  const old = disruption(spec({ staticTargeting: true }));
  assert.deepEqual(update(old, disruption(spec({ staticTargeting: true, count: 2 }))), ['spec: [StaticTargeting: true] a disruption spec cannot be updated, please delete and recreate it if needed']);
});

test('update: what Go serialises the same is no change (durations rewritten, empty fields)', () => {
  assert.equal(specHash(spec({ duration: '60m', dryRun: false, containers: [] })), specHash(spec({ duration: '1h' })));
  assert.notEqual(specHash(spec({ count: 3 })), specHash(spec({ count: '3' })));
  assert.equal(specHash(spec({ count: 3 }), { withoutCount: true }), specHash(spec({ count: '3' }), { withoutCount: true }));
});

test('update: the finalizer cannot be removed while chaos pods exist', () => {
  const old = withFinalizer(disruption(base));
  assert.deepEqual(update(old, disruption(base), ['chaos-engineering/chaos-dis-abcde', 'chaos-engineering/chaos-dis-fghij']), [
    "metadata.finalizers: unable to remove disruption finalizer, disruption 'shop/dis' still has associated pods:\n- chaos-engineering/chaos-dis-abcde\n- chaos-engineering/chaos-dis-fghij\nYou first need to remove those chaos pods (and potentially their finalizers) to be able to remove disruption finalizer",
  ]);
  assert.deepEqual(update(old, disruption(base), []), []);
});

test('update: the UserInfo annotation is immutable once set', () => {
  const user = (json: string) => disruption(base, { annotations: { [USER_INFO_ANNOTATION]: json } });
  assert.deepEqual(update(user('{"username":"alice"}'), user('{"username":"mallory"}')), ['metadata.annotations.UserInfo: the user info annotation is immutable']);
  assert.deepEqual(update(user('{"username":"alice"}'), disruption(base)), ['metadata.annotations.UserInfo: user info not found in annotations']);
  assert.deepEqual(update(user('{"username":"alice","groups":["a"]}'), user('{"groups":["a"],"username":"alice"}')), []);
  assert.deepEqual(update(disruption(base), user('{"username":"late"}')), []);
});

test('update: a disruption being deleted stays removable even when its spec is invalid', () => {
  const invalid = withFinalizer(disruption(spec({ grpc: { port: 1, endpoints: [] } }, ['cpuPressure'])));
  const deleting: Disruption = { ...invalid, metadata: { ...invalid.metadata, deletionTimestamp: '2030-06-01T12:00:00Z', finalizers: [] } };
  assert.deepEqual(update({ ...invalid, metadata: { ...invalid.metadata, deletionTimestamp: '2030-06-01T12:00:00Z' } }, deleting), []);
  assert.deepEqual(update(invalid, { ...invalid, metadata: { ...invalid.metadata, labels: { a: 'b' } } }), ['spec.grpc: grpc-disruption is not supported by this injector: it needs eBPF programs Bosun does not ship']);
});
