// FieldSchemas of the built-in kinds the server serves, transcribed from the k8s.io/api Go types:
// `patchStrategy`/`patchMergeKey` struct tags drive SMP, `+listType`/`+listMapKey`/`+mapType`/`+structType` drive SSA.
// Struct schemas are `preserveUnknown` so that fields not transcribed here still patch sensibly (deduced types).
import { SCALAR, UNKNOWN, withObjectMeta, OBJECT_META_SCHEMA } from './field-schema.ts';
import type { ArrayFieldSchema, FieldSchema, ObjectFieldSchema } from './field-schema.ts';

function struct(properties: Record<string, FieldSchema>, extra: Partial<ObjectFieldSchema> = {}): ObjectFieldSchema {
  return { kind: 'object', properties, preserveUnknown: true, ...extra };
}
function scalars(...names: string[]): Record<string, FieldSchema> {
  return Object.fromEntries(names.map((n) => [n, SCALAR]));
}
const stringMap: ObjectFieldSchema = { kind: 'object', additionalProperties: SCALAR };
const atomicStringMap: ObjectFieldSchema = { kind: 'object', additionalProperties: SCALAR, mapType: 'atomic' };
function atomic(items: FieldSchema = SCALAR): ArrayFieldSchema {
  return { kind: 'array', items, listType: 'atomic' };
}
function mergeByKey(key: string, items: FieldSchema, opts: Partial<ArrayFieldSchema> = {}): ArrayFieldSchema {
  return { kind: 'array', items, patchStrategy: 'merge', patchMergeKey: key, listType: 'map', listMapKeys: [key], ...opts };
}
function primitiveSet(): ArrayFieldSchema {
  return { kind: 'array', items: SCALAR, patchStrategy: 'merge', listType: 'set' };
}

// metav1.LabelSelector is +structType=atomic.
const labelSelector = struct(
  { matchLabels: stringMap, matchExpressions: atomic(struct({ ...scalars('key', 'operator'), values: atomic() })) },
  { mapType: 'atomic' },
);

const condition = struct(scalars('type', 'status', 'observedGeneration', 'lastTransitionTime', 'lastUpdateTime', 'lastProbeTime', 'lastHeartbeatTime', 'reason', 'message'));
const conditionsByType = mergeByKey('type', condition);

const resourceRequirements = struct({
  limits: stringMap,
  requests: stringMap,
  claims: { kind: 'array', items: struct(scalars('name', 'request')), listType: 'map', listMapKeys: ['name'] },
});

const keySelector = struct(scalars('name', 'key', 'optional'), { mapType: 'atomic' });
const envVar = struct({
  ...scalars('name', 'value'),
  valueFrom: struct({
    fieldRef: struct(scalars('apiVersion', 'fieldPath'), { mapType: 'atomic' }),
    resourceFieldRef: struct(scalars('containerName', 'resource', 'divisor'), { mapType: 'atomic' }),
    configMapKeyRef: keySelector,
    secretKeyRef: keySelector,
  }),
});

const probe = struct({
  exec: struct({ command: atomic() }),
  httpGet: struct({ ...scalars('path', 'port', 'host', 'scheme'), httpHeaders: atomic(struct(scalars('name', 'value'))) }),
  tcpSocket: struct(scalars('port', 'host')),
  grpc: struct(scalars('port', 'service')),
  ...scalars('initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold', 'terminationGracePeriodSeconds'),
});

const securityContext = struct({
  capabilities: struct({ add: atomic(), drop: atomic() }),
  seLinuxOptions: struct(scalars('user', 'role', 'type', 'level')),
  windowsOptions: struct(scalars('gmsaCredentialSpecName', 'gmsaCredentialSpec', 'runAsUserName', 'hostProcess')),
  seccompProfile: struct(scalars('type', 'localhostProfile')),
  appArmorProfile: struct(scalars('type', 'localhostProfile')),
  ...scalars('privileged', 'runAsUser', 'runAsGroup', 'runAsNonRoot', 'readOnlyRootFilesystem', 'allowPrivilegeEscalation', 'procMount'),
});

const container = struct({
  ...scalars('name', 'image', 'workingDir', 'terminationMessagePath', 'terminationMessagePolicy', 'imagePullPolicy', 'stdin', 'stdinOnce', 'tty', 'restartPolicy'),
  command: atomic(),
  args: atomic(),
  ports: {
    kind: 'array',
    items: struct({ ...scalars('name', 'hostPort', 'containerPort', 'hostIP'), protocol: { kind: 'scalar', default: 'TCP' } }),
    patchStrategy: 'merge',
    patchMergeKey: 'containerPort',
    listType: 'map',
    listMapKeys: ['containerPort', 'protocol'],
  },
  envFrom: atomic(struct({ prefix: SCALAR, configMapRef: struct(scalars('name', 'optional')), secretRef: struct(scalars('name', 'optional')) })),
  env: mergeByKey('name', envVar),
  resources: resourceRequirements,
  resizePolicy: atomic(struct(scalars('resourceName', 'restartPolicy'))),
  volumeMounts: mergeByKey('mountPath', struct(scalars('name', 'readOnly', 'recursiveReadOnly', 'mountPath', 'subPath', 'mountPropagation', 'subPathExpr'))),
  volumeDevices: mergeByKey('devicePath', struct(scalars('name', 'devicePath'))),
  livenessProbe: probe,
  readinessProbe: probe,
  startupProbe: probe,
  lifecycle: struct({ postStart: UNKNOWN, preStop: UNKNOWN, stopSignal: SCALAR }),
  securityContext,
});

const volume = struct({
  name: SCALAR,
  configMap: struct({ ...scalars('name', 'defaultMode', 'optional'), items: atomic(struct(scalars('key', 'path', 'mode'))) }),
  secret: struct({ ...scalars('secretName', 'defaultMode', 'optional'), items: atomic(struct(scalars('key', 'path', 'mode'))) }),
  emptyDir: struct(scalars('medium', 'sizeLimit')),
  hostPath: struct(scalars('path', 'type')),
  persistentVolumeClaim: struct(scalars('claimName', 'readOnly')),
  projected: struct({ sources: atomic(UNKNOWN), defaultMode: SCALAR }),
  downwardAPI: struct({ items: atomic(UNKNOWN), defaultMode: SCALAR }),
});

const toleration = struct(scalars('key', 'operator', 'value', 'effect', 'tolerationSeconds'));

const podSpec = struct({
  volumes: mergeByKey('name', volume, { patchStrategy: 'merge,retainKeys' }),
  initContainers: mergeByKey('name', container),
  containers: mergeByKey('name', container),
  ephemeralContainers: mergeByKey('name', container),
  ...scalars(
    'restartPolicy', 'terminationGracePeriodSeconds', 'activeDeadlineSeconds', 'dnsPolicy', 'serviceAccountName', 'serviceAccount',
    'automountServiceAccountToken', 'nodeName', 'hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace', 'hostname', 'subdomain',
    'schedulerName', 'priorityClassName', 'priority', 'runtimeClassName', 'enableServiceLinks', 'preemptionPolicy', 'setHostnameAsFQDN', 'hostUsers',
  ),
  nodeSelector: atomicStringMap,
  securityContext: struct({
    ...scalars('runAsUser', 'runAsGroup', 'runAsNonRoot', 'fsGroup', 'fsGroupChangePolicy', 'supplementalGroupsPolicy', 'seLinuxChangePolicy'),
    supplementalGroups: atomic(),
    sysctls: atomic(struct(scalars('name', 'value'))),
    seLinuxOptions: struct(scalars('user', 'role', 'type', 'level')),
    seccompProfile: struct(scalars('type', 'localhostProfile')),
    appArmorProfile: struct(scalars('type', 'localhostProfile')),
    windowsOptions: struct(scalars('gmsaCredentialSpecName', 'gmsaCredentialSpec', 'runAsUserName', 'hostProcess')),
  }),
  imagePullSecrets: mergeByKey('name', struct(scalars('name'))),
  affinity: struct({ nodeAffinity: UNKNOWN, podAffinity: UNKNOWN, podAntiAffinity: UNKNOWN }),
  tolerations: atomic(toleration),
  hostAliases: mergeByKey('ip', struct({ ip: SCALAR, hostnames: atomic() })),
  dnsConfig: struct({ nameservers: atomic(), searches: atomic(), options: atomic(struct(scalars('name', 'value'))) }),
  readinessGates: atomic(struct(scalars('conditionType'))),
  overhead: stringMap,
  topologySpreadConstraints: {
    kind: 'array',
    items: struct({
      ...scalars('maxSkew', 'topologyKey', 'whenUnsatisfiable', 'minDomains', 'nodeAffinityPolicy', 'nodeTaintsPolicy'),
      labelSelector,
      matchLabelKeys: atomic(),
    }),
    patchStrategy: 'merge',
    patchMergeKey: 'topologyKey',
    listType: 'map',
    listMapKeys: ['topologyKey', 'whenUnsatisfiable'],
  },
  os: struct(scalars('name')),
  schedulingGates: mergeByKey('name', struct(scalars('name'))),
  resourceClaims: mergeByKey('name', struct(scalars('name', 'resourceClaimName', 'resourceClaimTemplateName')), { patchStrategy: 'merge,retainKeys' }),
  resources: resourceRequirements,
});

const containerStatus = struct({
  ...scalars('name', 'ready', 'restartCount', 'image', 'imageID', 'containerID', 'started'),
  state: UNKNOWN,
  lastState: UNKNOWN,
});

const podStatus = struct({
  ...scalars('phase', 'message', 'reason', 'nominatedNodeName', 'hostIP', 'podIP', 'startTime', 'qosClass', 'resize', 'observedGeneration'),
  conditions: conditionsByType,
  hostIPs: { kind: 'array', items: struct(scalars('ip')), patchStrategy: 'merge', patchMergeKey: 'ip', listType: 'atomic' },
  podIPs: mergeByKey('ip', struct(scalars('ip'))),
  initContainerStatuses: atomic(containerStatus),
  containerStatuses: atomic(containerStatus),
  ephemeralContainerStatuses: atomic(containerStatus),
  resourceClaimStatuses: mergeByKey('name', struct(scalars('name', 'resourceClaimName')), { patchStrategy: 'merge,retainKeys' }),
});

const podTemplateSpec = struct({ metadata: OBJECT_META_SCHEMA, spec: podSpec });

const objectReference = struct(scalars('kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'), { mapType: 'atomic' });

/** A kind's root: its top-level fields are all transcribed, so it is closed (strict field validation relies on it). */
function top(properties: Record<string, FieldSchema>): ObjectFieldSchema {
  return withObjectMeta({ kind: 'object', properties });
}

const namespace = top({
  spec: struct({ finalizers: atomic() }),
  status: struct({ phase: SCALAR, conditions: conditionsByType }),
});

const configMap = top({ data: stringMap, binaryData: stringMap, immutable: SCALAR });
const secret = top({ data: stringMap, stringData: stringMap, type: SCALAR, immutable: SCALAR });

const event = top({
  involvedObject: struct(scalars('kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath')),
  ...scalars('reason', 'message', 'firstTimestamp', 'lastTimestamp', 'count', 'type', 'eventTime', 'action', 'reportingComponent', 'reportingInstance'),
  source: struct(scalars('component', 'host')),
  series: struct(scalars('count', 'lastObservedTime')),
  related: struct(scalars('kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath')),
});

const serviceAccount = top({
  secrets: mergeByKey('name', objectReference),
  imagePullSecrets: atomic(struct(scalars('name'))),
  automountServiceAccountToken: SCALAR,
});

const pod = top({ spec: podSpec, status: podStatus });

const taint = struct(scalars('key', 'value', 'effect', 'timeAdded'));
const node = top({
  spec: struct({
    ...scalars('podCIDR', 'providerID', 'unschedulable', 'externalID'),
    podCIDRs: primitiveSet(),
    taints: atomic(taint),
    configSource: UNKNOWN,
  }),
  status: struct({
    capacity: stringMap,
    allocatable: stringMap,
    phase: SCALAR,
    conditions: conditionsByType,
    addresses: { kind: 'array', items: struct(scalars('type', 'address')), patchStrategy: 'merge', patchMergeKey: 'type', listType: 'atomic' },
    daemonEndpoints: struct({ kubeletEndpoint: struct(scalars('Port')) }),
    nodeInfo: struct(
      scalars('machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion', 'kubeletVersion', 'kubeProxyVersion', 'operatingSystem', 'architecture'),
    ),
    images: atomic(struct({ names: atomic(), sizeBytes: SCALAR })),
    volumesInUse: atomic(),
    volumesAttached: atomic(struct(scalars('name', 'devicePath'))),
    config: UNKNOWN,
    runtimeHandlers: atomic(UNKNOWN),
    features: UNKNOWN,
  }),
});

const jobSpec = struct({
  ...scalars('parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'backoffLimitPerIndex', 'maxFailedIndexes', 'manualSelector', 'ttlSecondsAfterFinished', 'completionMode', 'suspend', 'podReplacementPolicy', 'managedBy'),
  selector: labelSelector,
  template: podTemplateSpec,
  podFailurePolicy: struct({ rules: atomic(UNKNOWN) }),
  successPolicy: struct({ rules: atomic(UNKNOWN) }),
});
const job = top({
  spec: jobSpec,
  status: struct({
    conditions: { kind: 'array', items: condition, patchStrategy: 'merge', patchMergeKey: 'type', listType: 'atomic' },
    ...scalars('startTime', 'completionTime', 'active', 'succeeded', 'failed', 'terminating', 'completedIndexes', 'failedIndexes', 'ready'),
    uncountedTerminatedPods: struct({ succeeded: { kind: 'array', items: SCALAR, listType: 'set' }, failed: { kind: 'array', items: SCALAR, listType: 'set' } }),
  }),
});

// batch/v1 CronJob: the job template is a Job spec; status.active is +listType=atomic.
const cronJob = top({
  spec: struct({
    ...scalars('schedule', 'timeZone', 'startingDeadlineSeconds', 'concurrencyPolicy', 'suspend', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit'),
    jobTemplate: struct({ metadata: OBJECT_META_SCHEMA, spec: jobSpec }),
  }),
  status: struct({ active: atomic(objectReference), ...scalars('lastScheduleTime', 'lastSuccessfulTime') }),
});

const intOrString = SCALAR;
const deployment = top({
  spec: struct({
    ...scalars('replicas', 'minReadySeconds', 'revisionHistoryLimit', 'paused', 'progressDeadlineSeconds'),
    selector: labelSelector,
    template: podTemplateSpec,
    strategy: struct({ type: SCALAR, rollingUpdate: struct({ maxUnavailable: intOrString, maxSurge: intOrString }) }, { patchStrategy: 'retainKeys' }),
  }),
  status: struct({
    ...scalars('observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount', 'terminatingReplicas'),
    conditions: conditionsByType,
  }),
});

const replicaSet = top({
  spec: struct({ ...scalars('replicas', 'minReadySeconds'), selector: labelSelector, template: podTemplateSpec }),
  status: struct({
    ...scalars('replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas', 'observedGeneration'),
    conditions: conditionsByType,
  }),
});

// apps/v1 StatefulSet: the claim templates are an atomic list; ControllerRevision data is a RawExtension.
const statefulSet = top({
  spec: struct({
    ...scalars('replicas', 'serviceName', 'podManagementPolicy', 'revisionHistoryLimit', 'minReadySeconds'),
    selector: labelSelector,
    template: podTemplateSpec,
    volumeClaimTemplates: atomic(UNKNOWN),
    updateStrategy: struct({ type: SCALAR, rollingUpdate: struct({ partition: SCALAR, maxUnavailable: intOrString }) }),
    persistentVolumeClaimRetentionPolicy: struct(scalars('whenDeleted', 'whenScaled')),
    ordinals: struct(scalars('start')),
  }),
  status: struct({
    ...scalars('observedGeneration', 'replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'currentRevision', 'updateRevision', 'collisionCount', 'availableReplicas'),
    conditions: conditionsByType,
  }),
});
const daemonSet = top({
  spec: struct({
    ...scalars('minReadySeconds', 'revisionHistoryLimit'),
    selector: labelSelector,
    template: podTemplateSpec,
    updateStrategy: struct({ type: SCALAR, rollingUpdate: struct({ maxUnavailable: intOrString, maxSurge: intOrString }) }),
  }),
  status: struct({
    ...scalars('currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'),
    conditions: conditionsByType,
  }),
});
const controllerRevision = top({ data: UNKNOWN, revision: SCALAR });

const lease = top({
  spec: struct(scalars('holderIdentity', 'leaseDurationSeconds', 'acquireTime', 'renewTime', 'leaseTransitions', 'strategy', 'preferredHolder')),
});

const crdNames = struct({ ...scalars('plural', 'singular', 'kind', 'listKind'), shortNames: atomic(), categories: atomic() });
const crd = top({
  spec: struct({
    ...scalars('group', 'scope', 'preserveUnknownFields'),
    names: crdNames,
    versions: atomic(UNKNOWN),
    conversion: UNKNOWN,
  }),
  status: struct({
    conditions: { kind: 'array', items: condition, listType: 'map', listMapKeys: ['type'] },
    acceptedNames: crdNames,
    storedVersions: atomic(),
  }),
});

// admissionregistration/v1: webhooks and matchConditions merge by name; rules and the rest are atomic lists.
const webhook = struct({
  ...scalars('name', 'failurePolicy', 'matchPolicy', 'sideEffects', 'timeoutSeconds', 'reinvocationPolicy'),
  clientConfig: struct({ ...scalars('url', 'caBundle'), service: struct(scalars('namespace', 'name', 'path', 'port')) }),
  rules: atomic(struct({ operations: atomic(), apiGroups: atomic(), apiVersions: atomic(), resources: atomic(), scope: SCALAR })),
  namespaceSelector: labelSelector,
  objectSelector: labelSelector,
  admissionReviewVersions: atomic(),
  matchConditions: mergeByKey('name', struct(scalars('name', 'expression'))),
});
const webhookConfiguration = top({ webhooks: mergeByKey('name', webhook) });

// core/v1 Service: ports merge by port (SSA keys them by port and protocol); selector is an atomic map.
const service = top({
  spec: struct({
    ports: {
      kind: 'array',
      items: struct({ ...scalars('name', 'appProtocol', 'port', 'targetPort', 'nodePort'), protocol: { kind: 'scalar', default: 'TCP' } }),
      patchStrategy: 'merge',
      patchMergeKey: 'port',
      listType: 'map',
      listMapKeys: ['port', 'protocol'],
    },
    selector: atomicStringMap,
    clusterIPs: atomic(),
    ipFamilies: atomic(),
    externalIPs: atomic(),
    loadBalancerSourceRanges: atomic(),
    sessionAffinityConfig: struct({ clientIP: struct(scalars('timeoutSeconds')) }),
    ...scalars(
      'type', 'clusterIP', 'sessionAffinity', 'loadBalancerIP', 'externalName', 'externalTrafficPolicy', 'healthCheckNodePort', 'publishNotReadyAddresses',
      'ipFamilyPolicy', 'allocateLoadBalancerNodePorts', 'loadBalancerClass', 'internalTrafficPolicy', 'trafficDistribution',
    ),
  }),
  status: struct({ loadBalancer: struct({ ingress: atomic(struct(scalars('ip', 'hostname', 'ipMode'))) }), conditions: { kind: 'array', items: condition, listType: 'map', listMapKeys: ['type'] } }),
});
// Endpoints and EndpointSlices: their lists are atomic.
const endpoints = top({ subsets: atomic(struct({ addresses: atomic(), notReadyAddresses: atomic(), ports: atomic() })) });
const endpointSlice = top({ addressType: SCALAR, endpoints: atomic(UNKNOWN), ports: atomic(UNKNOWN) });

/** Keyed by "group/version/Kind"; the core group is "" (so "/v1/Pod"). */
export const BUILTIN_SCHEMAS: ReadonlyMap<string, ObjectFieldSchema> = new Map([
  ['/v1/Namespace', namespace],
  ['/v1/ConfigMap', configMap],
  ['/v1/Secret', secret],
  ['/v1/Event', event],
  ['/v1/ServiceAccount', serviceAccount],
  ['/v1/Service', service],
  ['/v1/Endpoints', endpoints],
  ['discovery.k8s.io/v1/EndpointSlice', endpointSlice],
  ['/v1/Pod', pod],
  ['/v1/Node', node],
  ['batch/v1/Job', job],
  ['batch/v1/CronJob', cronJob],
  ['apps/v1/Deployment', deployment],
  ['apps/v1/ReplicaSet', replicaSet],
  ['apps/v1/StatefulSet', statefulSet],
  ['apps/v1/DaemonSet', daemonSet],
  ['apps/v1/ControllerRevision', controllerRevision],
  ['coordination.k8s.io/v1/Lease', lease],
  ['apiextensions.k8s.io/v1/CustomResourceDefinition', crd],
  ['admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration', webhookConfiguration],
  ['admissionregistration.k8s.io/v1/MutatingWebhookConfiguration', webhookConfiguration],
]);

export function builtinSchemaKey(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}

export function builtinSchema(group: string, version: string, kind: string): ObjectFieldSchema | undefined {
  return BUILTIN_SCHEMAS.get(builtinSchemaKey(group, version, kind));
}
