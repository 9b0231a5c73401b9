// core/v1 (k8s.io/api/core/v1): the Pod, Node, ConfigMap and Secret fields Bosun reads and writes. A field is
// required here when the API server's validation requires it; everything else is optional, as `omitempty` in Go.
import type { KubeObject, ObjectMeta } from '../object.ts';
import type { LabelSelectorObject } from '../label-selector.ts';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** A resource.Quantity as it travels in JSON: "100m", "64Mi", or a plain number. */
export type Quantity = string;

export type ResourceList = Record<string, Quantity>;

export type IntOrString = number | string;

/** core/v1 ObjectReference: the object an endpoint, event or binding points at. */
export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface LocalObjectReference {
  name: string;
}

// --- environment ---------------------------------------------------------------------------------------------

export interface ObjectFieldSelector {
  apiVersion?: string;
  fieldPath: string;
}

export interface ResourceFieldSelector {
  /** Required in volumes; env defaults to the container being started. */
  containerName?: string;
  resource: string;
  divisor?: Quantity;
}

export interface ConfigMapKeySelector {
  name: string;
  key: string;
  optional?: boolean;
}

export interface SecretKeySelector {
  name: string;
  key: string;
  optional?: boolean;
}

export interface EnvVarSource {
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  configMapKeyRef?: ConfigMapKeySelector;
  secretKeyRef?: SecretKeySelector;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: EnvVarSource;
}

export interface ConfigMapEnvSource {
  name: string;
  optional?: boolean;
}

export interface SecretEnvSource {
  name: string;
  optional?: boolean;
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: ConfigMapEnvSource;
  secretRef?: SecretEnvSource;
}

// --- volumes -------------------------------------------------------------------------------------------------

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface ConfigMapVolumeSource {
  name: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}

export interface SecretVolumeSource {
  secretName: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}

export interface DownwardAPIVolumeFile {
  path: string;
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  mode?: number;
}

export interface DownwardAPIVolumeSource {
  items?: DownwardAPIVolumeFile[];
  defaultMode?: number;
}

export interface ConfigMapProjection {
  name: string;
  items?: KeyToPath[];
  optional?: boolean;
}

export interface SecretProjection {
  name: string;
  items?: KeyToPath[];
  optional?: boolean;
}

export interface DownwardAPIProjection {
  items?: DownwardAPIVolumeFile[];
}

export interface ServiceAccountTokenProjection {
  path: string;
  audience?: string;
  expirationSeconds?: number;
}

export interface VolumeProjection {
  configMap?: ConfigMapProjection;
  secret?: SecretProjection;
  downwardAPI?: DownwardAPIProjection;
  serviceAccountToken?: ServiceAccountTokenProjection;
}

export interface ProjectedVolumeSource {
  sources?: VolumeProjection[];
  defaultMode?: number;
}

export interface HostPathVolumeSource {
  path: string;
  type?: string;
}

export interface EmptyDirVolumeSource {
  medium?: string;
  sizeLimit?: Quantity;
}

export interface PersistentVolumeClaimVolumeSource {
  claimName: string;
  readOnly?: boolean;
}

export interface Volume {
  name: string;
  emptyDir?: EmptyDirVolumeSource;
  configMap?: ConfigMapVolumeSource;
  secret?: SecretVolumeSource;
  downwardAPI?: DownwardAPIVolumeSource;
  projected?: ProjectedVolumeSource;
  hostPath?: HostPathVolumeSource;
  persistentVolumeClaim?: PersistentVolumeClaimVolumeSource;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  subPath?: string;
  subPathExpr?: string;
  mountPropagation?: string;
}

// --- security ------------------------------------------------------------------------------------------------

export interface Capabilities {
  add?: string[];
  drop?: string[];
}

export interface SeccompProfile {
  type: 'Unconfined' | 'RuntimeDefault' | 'Localhost';
  localhostProfile?: string;
}

export interface SecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  allowPrivilegeEscalation?: boolean;
  privileged?: boolean;
  readOnlyRootFilesystem?: boolean;
  capabilities?: Capabilities;
  seccompProfile?: SeccompProfile;
}

export interface PodSecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  supplementalGroups?: number[];
  fsGroup?: number;
  seccompProfile?: SeccompProfile;
}

// --- probes --------------------------------------------------------------------------------------------------

export interface ExecAction {
  command?: string[];
}

export interface HTTPHeader {
  name: string;
  value: string;
}

export interface HTTPGetAction {
  path?: string;
  port: IntOrString;
  host?: string;
  scheme?: 'HTTP' | 'HTTPS';
  httpHeaders?: HTTPHeader[];
}

export interface TCPSocketAction {
  port: IntOrString;
  host?: string;
}

export interface Probe {
  exec?: ExecAction;
  httpGet?: HTTPGetAction;
  tcpSocket?: TCPSocketAction;
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
}

// --- containers ----------------------------------------------------------------------------------------------

export interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: string;
}

export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
}

export interface Container {
  name: string;
  image?: string;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  ports?: ContainerPort[];
  volumeMounts?: VolumeMount[];
  resources?: ResourceRequirements;
  securityContext?: SecurityContext;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
}

// --- scheduling ----------------------------------------------------------------------------------------------

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  /** Empty matches every effect. */
  effect?: '' | TaintEffect;
  tolerationSeconds?: number;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
}

export interface Affinity {
  nodeAffinity?: NodeAffinity;
}

// --- pods ----------------------------------------------------------------------------------------------------

export interface HostAlias {
  ip: string;
  hostnames?: string[];
}

export interface PodDNSConfigOption {
  name: string;
  value?: string;
}

export interface PodDNSConfig {
  nameservers?: string[];
  searches?: string[];
  options?: PodDNSConfigOption[];
}

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';

export interface PodSpec {
  nodeName?: string;
  schedulerName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
  hostname?: string;
  subdomain?: string;
  serviceAccountName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  restartPolicy?: RestartPolicy;
  activeDeadlineSeconds?: number;
  terminationGracePeriodSeconds?: number;
  securityContext?: PodSecurityContext;
  initContainers?: Container[];
  containers: Container[];
  volumes?: Volume[];
  hostAliases?: HostAlias[];
  dnsPolicy?: string;
  dnsConfig?: PodDNSConfig;
  overhead?: ResourceList;
  imagePullSecrets?: LocalObjectReference[];
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec: PodSpec;
}

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}

export interface ContainerStateRunning {
  startedAt?: string;
}

export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}

/** At most one of the three is set; none means waiting. */
export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
}

export interface PodCondition {
  type: string;
  status: ConditionStatus;
  observedGeneration?: number;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

export interface PodIP {
  ip: string;
}

export interface HostIP {
  ip: string;
}

export interface PodStatus {
  phase?: PodPhase;
  conditions?: PodCondition[];
  reason?: string;
  message?: string;
  hostIP?: string;
  hostIPs?: HostIP[];
  podIP?: string;
  podIPs?: PodIP[];
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: PodStatus;
}

// --- nodes ---------------------------------------------------------------------------------------------------

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: string;
}

export interface NodeSpec {
  unschedulable?: boolean;
  taints?: Taint[];
}

export interface NodeCondition {
  type: string;
  status: ConditionStatus;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface NodeAddress {
  type: string;
  address: string;
}

export interface DaemonEndpoint {
  Port: number;
}

export interface NodeDaemonEndpoints {
  kubeletEndpoint?: DaemonEndpoint;
}

export interface NodeStatus {
  capacity?: ResourceList;
  allocatable?: ResourceList;
  conditions?: NodeCondition[];
  addresses?: NodeAddress[];
  daemonEndpoints?: NodeDaemonEndpoints;
  /** NodeSystemInfo: machineID, kubeletVersion, operatingSystem, architecture … */
  nodeInfo?: Record<string, string>;
}

export interface Node extends KubeObject {
  spec?: NodeSpec;
  status?: NodeStatus;
}

// --- services ------------------------------------------------------------------------------------------------

export interface ServicePort {
  name?: string;
  /** TCP (default), UDP or SCTP. */
  protocol?: string;
  appProtocol?: string;
  port: number;
  /** A number or the name of a container port; defaults to port. */
  targetPort?: IntOrString;
  nodePort?: number;
}

export interface SessionAffinityConfig {
  clientIP?: { timeoutSeconds?: number };
}

export interface ServiceSpec {
  type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
  selector?: Record<string, string>;
  ports?: ServicePort[];
  /** An address from the service CIDR, "None" for a headless Service, or empty to have one allocated. */
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: ('IPv4' | 'IPv6')[];
  ipFamilyPolicy?: 'SingleStack' | 'PreferDualStack' | 'RequireDualStack';
  externalName?: string;
  externalIPs?: string[];
  sessionAffinity?: 'None' | 'ClientIP';
  sessionAffinityConfig?: SessionAffinityConfig;
  publishNotReadyAddresses?: boolean;
  internalTrafficPolicy?: 'Cluster' | 'Local';
  externalTrafficPolicy?: 'Cluster' | 'Local';
  allocateLoadBalancerNodePorts?: boolean;
}

export interface ServiceStatus {
  loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] };
}

export interface Service extends KubeObject {
  spec?: ServiceSpec;
  status?: ServiceStatus;
}

/** core/v1 Endpoints: what old clients read; the endpoints controller mirrors EndpointSlices' view into it. */
export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol?: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends KubeObject {
  subsets?: EndpointSubset[];
}

// --- configuration -------------------------------------------------------------------------------------------

export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
  /** base64 on the wire. */
  binaryData?: Record<string, string>;
}

export interface Secret extends KubeObject {
  type?: string;
  /** base64 on the wire. */
  data?: Record<string, string>;
  /** Write-only: the API server merges it into data. */
  stringData?: Record<string, string>;
}

// --- storage -------------------------------------------------------------------------------------------------

export interface PersistentVolumeClaimSpec {
  accessModes?: string[];
  resources?: { requests?: ResourceList; limits?: ResourceList };
  storageClassName?: string;
  volumeMode?: string;
  volumeName?: string;
  selector?: LabelSelectorObject;
}

export interface PersistentVolumeClaim extends KubeObject {
  spec?: PersistentVolumeClaimSpec;
  status?: { phase?: string; accessModes?: string[]; capacity?: ResourceList };
}

/** A namespace's limits on what its objects may consume in total (kube-apiserver's ResourceQuota admission). */
export interface ResourceQuota extends KubeObject {
  spec?: { hard?: ResourceList; scopes?: string[] };
  status?: { hard?: ResourceList; used?: ResourceList };
}
