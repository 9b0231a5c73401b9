// The subset of Kubernetes' protobuf messages the server decodes, with field numbers from k8s.io/api and
// apimachinery's generated.proto. Each line also says how the Go JSON encoder treats the field, because
// proto2 alone cannot: gogo writes every non-pointer field, even when zero, and JSON omits many of those.
//
// Line syntax: `<number> <json name> <type>`. Type prefixes: `*` a Go pointer (kept when sent, even zero),
// `!` a field without omitempty (kept even when zero), `[]` repeated, `map<V>` a map from string, `^` an
// embedded struct whose fields JSON inlines (json name `-`). Without a prefix, a zero scalar is omitted.
// Special types: Time and MicroTime (RFC 3339 strings, null when zero), Quantity (string),
// IntOrString (number or string), FieldsV1 (its raw JSON), bytes (base64).
// Fields not listed here are skipped, as a Go server skips fields it does not know.

const metaV1 = `
message TypeMeta
  1 apiVersion string
  2 kind string
message Unknown
  1 typeMeta TypeMeta
  2 raw bytes
  3 contentEncoding string
  4 contentType string

message ObjectMeta
  1 name string
  2 generateName string
  3 namespace string
  4 selfLink string
  5 uid string
  6 resourceVersion string
  7 generation int64
  8 creationTimestamp Time
  9 deletionTimestamp *Time
  10 deletionGracePeriodSeconds *int64
  11 labels map<string>
  12 annotations map<string>
  13 ownerReferences []OwnerReference
  14 finalizers []string
  17 managedFields []ManagedFieldsEntry
message OwnerReference
  5 apiVersion !string
  1 kind !string
  3 name !string
  4 uid !string
  6 controller *bool
  7 blockOwnerDeletion *bool
message ManagedFieldsEntry
  1 manager string
  2 operation string
  3 apiVersion string
  4 time *Time
  6 fieldsType string
  7 fieldsV1 *FieldsV1
  8 subresource string
message LabelSelector
  1 matchLabels map<string>
  2 matchExpressions []LabelSelectorRequirement
message LabelSelectorRequirement
  1 key !string
  2 operator !string
  3 values []string
message DeleteOptions
  1 gracePeriodSeconds *int64
  2 preconditions *Preconditions
  3 orphanDependents *bool
  4 propagationPolicy *string
  5 dryRun []string
  6 ignoreStoreReadErrorWithClusterBreakingPotential *bool
message Preconditions
  1 uid *string
  2 resourceVersion *string
`;

/** PodCondition and JobCondition carry the same fields under the same numbers in k8s.io/api. */
const probedConditionFields = `  1 type !string
  2 status !string
  3 lastProbeTime Time
  4 lastTransitionTime Time
  5 reason string
  6 message string`;

const coreV1 = `
message ResourceQuota
  1 metadata ObjectMeta
  2 spec ResourceQuotaSpec
  3 status ResourceQuotaStatus
message ResourceQuotaSpec
  1 hard map<Quantity>
  2 []scopes string
message ResourceQuotaStatus
  1 hard map<Quantity>
  2 used map<Quantity>
message ConfigMap
  1 metadata ObjectMeta
  4 immutable *bool
  2 data map<string>
  3 binaryData map<bytes>
message Secret
  1 metadata ObjectMeta
  5 immutable *bool
  2 data map<bytes>
  4 stringData map<string>
  3 type string
message Namespace
  1 metadata ObjectMeta
  2 spec NamespaceSpec
  3 status NamespaceStatus
message NamespaceSpec
  1 finalizers []string
message NamespaceStatus
  1 phase string
  2 conditions []NamespaceCondition
message NamespaceCondition
  1 type !string
  2 status !string
  4 lastTransitionTime Time
  5 reason string
  6 message string
message ServiceAccount
  1 metadata ObjectMeta
  2 secrets []ObjectReference
  3 imagePullSecrets []LocalObjectReference
  4 automountServiceAccountToken *bool
message ObjectReference
  1 kind string
  2 namespace string
  3 name string
  4 uid string
  5 apiVersion string
  6 resourceVersion string
  7 fieldPath string
message LocalObjectReference
  1 name string

message Event
  1 metadata ObjectMeta
  2 involvedObject ObjectReference
  3 reason string
  4 message string
  5 source EventSource
  6 firstTimestamp Time
  7 lastTimestamp Time
  8 count int32
  9 type string
  10 eventTime MicroTime
  11 series *EventSeries
  12 action string
  13 related *ObjectReference
  14 reportingComponent !string
  15 reportingInstance !string
message EventSource
  1 component string
  2 host string
message EventSeries
  1 count int32
  2 lastObservedTime MicroTime

message Pod
  1 metadata ObjectMeta
  2 spec PodSpec
  3 status PodStatus
message PodTemplateSpec
  1 metadata ObjectMeta
  2 spec PodSpec
message PodSpec
  1 volumes []Volume
  20 initContainers []Container
  2 containers []Container
  3 restartPolicy string
  4 terminationGracePeriodSeconds *int64
  5 activeDeadlineSeconds *int64
  6 dnsPolicy string
  7 nodeSelector map<string>
  8 serviceAccountName string
  9 serviceAccount string
  21 automountServiceAccountToken *bool
  10 nodeName string
  11 hostNetwork bool
  12 hostPID bool
  13 hostIPC bool
  27 shareProcessNamespace *bool
  14 securityContext *PodSecurityContext
  15 imagePullSecrets []LocalObjectReference
  16 hostname string
  17 subdomain string
  19 schedulerName string
  22 tolerations []Toleration
  23 hostAliases []HostAlias
  24 priorityClassName string
  25 priority *int32
  26 dnsConfig *PodDNSConfig
  28 readinessGates []PodReadinessGate
  29 runtimeClassName *string
  30 enableServiceLinks *bool
  31 preemptionPolicy *string
  32 overhead map<Quantity>
  35 setHostnameAsFQDN *bool
  36 os *PodOS
  37 hostUsers *bool
  38 schedulingGates []PodSchedulingGate
  40 resources *ResourceRequirements
message PodSecurityContext
  1 seLinuxOptions *SELinuxOptions
  2 runAsUser *int64
  6 runAsGroup *int64
  3 runAsNonRoot *bool
  4 supplementalGroups []int64
  5 fsGroup *int64
  7 sysctls []Sysctl
  9 fsGroupChangePolicy *string
  10 seccompProfile *SeccompProfile
  11 appArmorProfile *AppArmorProfile
message SELinuxOptions
  1 user string
  2 role string
  3 type string
  4 level string
message Sysctl
  1 name !string
  2 value !string
message SeccompProfile
  1 type !string
  2 localhostProfile *string
message AppArmorProfile
  1 type !string
  2 localhostProfile *string
message Toleration
  1 key string
  2 operator string
  3 value string
  4 effect string
  5 tolerationSeconds *int64
message HostAlias
  1 ip !string
  2 hostnames []string
message PodDNSConfig
  1 nameservers []string
  2 searches []string
  3 options []PodDNSConfigOption
message PodDNSConfigOption
  1 name string
  2 value *string
message PodReadinessGate
  1 conditionType !string
message PodOS
  1 name !string
message PodSchedulingGate
  1 name !string

message Container
  1 name !string
  2 image string
  3 command []string
  4 args []string
  5 workingDir string
  6 ports []ContainerPort
  19 envFrom []EnvFromSource
  7 env []EnvVar
  8 resources ResourceRequirements
  23 resizePolicy []ContainerResizePolicy
  24 restartPolicy *string
  9 volumeMounts []VolumeMount
  21 volumeDevices []VolumeDevice
  10 livenessProbe *Probe
  11 readinessProbe *Probe
  22 startupProbe *Probe
  12 lifecycle *Lifecycle
  13 terminationMessagePath string
  20 terminationMessagePolicy string
  14 imagePullPolicy string
  15 securityContext *SecurityContext
  16 stdin bool
  17 stdinOnce bool
  18 tty bool
message ContainerPort
  1 name string
  2 hostPort int32
  3 containerPort !int32
  4 protocol string
  5 hostIP string
message EnvVar
  1 name !string
  2 value string
  3 valueFrom *EnvVarSource
message EnvVarSource
  1 fieldRef *ObjectFieldSelector
  2 resourceFieldRef *ResourceFieldSelector
  3 configMapKeyRef *ConfigMapKeySelector
  4 secretKeyRef *SecretKeySelector
message ObjectFieldSelector
  1 apiVersion string
  2 fieldPath !string
message ResourceFieldSelector
  1 containerName string
  2 resource !string
  3 divisor Quantity
message ConfigMapKeySelector
  1 - ^LocalObjectReference
  2 key !string
  3 optional *bool
message SecretKeySelector
  1 - ^LocalObjectReference
  2 key !string
  3 optional *bool
message EnvFromSource
  1 prefix string
  2 configMapRef *ConfigMapEnvSource
  3 secretRef *SecretEnvSource
message ConfigMapEnvSource
  1 - ^LocalObjectReference
  2 optional *bool
message SecretEnvSource
  1 - ^LocalObjectReference
  2 optional *bool
message ResourceRequirements
  1 limits map<Quantity>
  2 requests map<Quantity>
  3 claims []ResourceClaim
message ResourceClaim
  1 name !string
  2 request string
message ContainerResizePolicy
  1 resourceName !string
  2 restartPolicy !string
message VolumeMount
  1 name !string
  2 readOnly bool
  7 recursiveReadOnly *string
  3 mountPath !string
  4 subPath string
  5 mountPropagation *string
  6 subPathExpr string
message VolumeDevice
  1 name !string
  2 devicePath !string
message Probe
  1 - ^ProbeHandler
  2 initialDelaySeconds int32
  3 timeoutSeconds int32
  4 periodSeconds int32
  5 successThreshold int32
  6 failureThreshold int32
  7 terminationGracePeriodSeconds *int64
message ProbeHandler
  1 exec *ExecAction
  2 httpGet *HTTPGetAction
  3 tcpSocket *TCPSocketAction
  4 grpc *GRPCAction
message Lifecycle
  1 postStart *LifecycleHandler
  2 preStop *LifecycleHandler
message LifecycleHandler
  1 exec *ExecAction
  2 httpGet *HTTPGetAction
  3 tcpSocket *TCPSocketAction
  4 sleep *SleepAction
message ExecAction
  1 command []string
message HTTPGetAction
  1 path string
  2 port IntOrString
  3 host string
  4 scheme string
  5 httpHeaders []HTTPHeader
message HTTPHeader
  1 name !string
  2 value !string
message TCPSocketAction
  1 port IntOrString
  2 host string
message GRPCAction
  1 port !int32
  2 service *string
message SleepAction
  1 seconds !int64
message SecurityContext
  1 capabilities *Capabilities
  2 privileged *bool
  3 seLinuxOptions *SELinuxOptions
  4 runAsUser *int64
  8 runAsGroup *int64
  5 runAsNonRoot *bool
  6 readOnlyRootFilesystem *bool
  7 allowPrivilegeEscalation *bool
  9 procMount *string
  11 seccompProfile *SeccompProfile
  12 appArmorProfile *AppArmorProfile
message Capabilities
  1 add []string
  2 drop []string

message Volume
  1 name !string
  2 - ^VolumeSource
message VolumeSource
  1 hostPath *HostPathVolumeSource
  2 emptyDir *EmptyDirVolumeSource
  6 secret *SecretVolumeSource
  7 nfs *NFSVolumeSource
  10 persistentVolumeClaim *PersistentVolumeClaimVolumeSource
  16 downwardAPI *DownwardAPIVolumeSource
  19 configMap *ConfigMapVolumeSource
  26 projected *ProjectedVolumeSource
  30 image *ImageVolumeSource
message HostPathVolumeSource
  1 path !string
  2 type *string
message EmptyDirVolumeSource
  1 medium string
  2 sizeLimit *Quantity
message SecretVolumeSource
  1 secretName string
  2 items []KeyToPath
  3 defaultMode *int32
  4 optional *bool
message ConfigMapVolumeSource
  1 - ^LocalObjectReference
  2 items []KeyToPath
  3 defaultMode *int32
  4 optional *bool
message KeyToPath
  1 key !string
  2 path !string
  3 mode *int32
message NFSVolumeSource
  1 server !string
  2 path !string
  3 readOnly bool
message PersistentVolumeClaimVolumeSource
  1 claimName !string
  2 readOnly bool
message DownwardAPIVolumeSource
  1 items []DownwardAPIVolumeFile
  2 defaultMode *int32
message DownwardAPIVolumeFile
  1 path !string
  2 fieldRef *ObjectFieldSelector
  3 resourceFieldRef *ResourceFieldSelector
  4 mode *int32
message ProjectedVolumeSource
  1 sources []VolumeProjection
  2 defaultMode *int32
message VolumeProjection
  1 secret *SecretProjection
  2 downwardAPI *DownwardAPIProjection
  3 configMap *ConfigMapProjection
  4 serviceAccountToken *ServiceAccountTokenProjection
message SecretProjection
  1 - ^LocalObjectReference
  2 items []KeyToPath
  4 optional *bool
message ConfigMapProjection
  1 - ^LocalObjectReference
  2 items []KeyToPath
  4 optional *bool
message DownwardAPIProjection
  1 items []DownwardAPIVolumeFile
message ServiceAccountTokenProjection
  1 audience string
  2 expirationSeconds *int64
  3 path !string
message ImageVolumeSource
  1 reference string
  2 pullPolicy string

message PodStatus
  1 phase string
  2 conditions []PodCondition
  3 message string
  4 reason string
  11 nominatedNodeName string
  5 hostIP string
  16 hostIPs []HostIP
  6 podIP string
  12 podIPs []PodIP
  7 startTime *Time
  10 initContainerStatuses []ContainerStatus
  8 containerStatuses []ContainerStatus
  9 qosClass string
  13 ephemeralContainerStatuses []ContainerStatus
message PodCondition
${probedConditionFields}
message HostIP
  1 ip !string
message PodIP
  1 ip !string
message ContainerStatus
  1 name !string
  2 state ContainerState
  3 lastState ContainerState
  4 ready !bool
  5 restartCount !int32
  6 image !string
  7 imageID !string
  8 containerID string
  9 started *bool
message ContainerState
  1 waiting *ContainerStateWaiting
  2 running *ContainerStateRunning
  3 terminated *ContainerStateTerminated
message ContainerStateWaiting
  1 reason string
  2 message string
message ContainerStateRunning
  1 startedAt Time
message ContainerStateTerminated
  1 exitCode !int32
  2 signal int32
  3 reason string
  4 message string
  5 startedAt Time
  6 finishedAt Time
  7 containerID string

message Node
  1 metadata ObjectMeta
  2 spec NodeSpec
  3 status NodeStatus
message NodeSpec
  1 podCIDR string
  7 podCIDRs []string
  3 providerID string
  4 unschedulable bool
  5 taints []Taint
  2 externalID string
message Taint
  1 key !string
  2 value string
  3 effect !string
  4 timeAdded *Time
message NodeStatus
  1 capacity map<Quantity>
  2 allocatable map<Quantity>
  3 phase string
  4 conditions []NodeCondition
  5 addresses []NodeAddress
  6 daemonEndpoints NodeDaemonEndpoints
  7 nodeInfo NodeSystemInfo
  8 images []ContainerImage
  9 volumesInUse []string
  10 volumesAttached []AttachedVolume
message NodeCondition
  1 type !string
  2 status !string
  3 lastHeartbeatTime Time
  4 lastTransitionTime Time
  5 reason string
  6 message string
message NodeAddress
  1 type !string
  2 address !string
message NodeDaemonEndpoints
  1 kubeletEndpoint DaemonEndpoint
message DaemonEndpoint
  1 Port !int32
message NodeSystemInfo
  1 machineID !string
  2 systemUUID !string
  3 bootID !string
  4 kernelVersion !string
  5 osImage !string
  6 containerRuntimeVersion !string
  7 kubeletVersion !string
  8 kubeProxyVersion !string
  9 operatingSystem !string
  10 architecture !string
message ContainerImage
  1 names []string
  2 sizeBytes int64
message AttachedVolume
  1 name !string
  2 devicePath !string
`;

const batchV1 = `
message Job
  1 metadata ObjectMeta
  2 spec JobSpec
  3 status JobStatus
message JobSpec
  1 parallelism *int32
  2 completions *int32
  3 activeDeadlineSeconds *int64
  7 backoffLimit *int32
  12 backoffLimitPerIndex *int32
  13 maxFailedIndexes *int32
  4 selector *LabelSelector
  5 manualSelector *bool
  6 template PodTemplateSpec
  8 ttlSecondsAfterFinished *int32
  9 completionMode *string
  10 suspend *bool
  14 podReplacementPolicy *string
  15 managedBy *string
message JobStatus
  1 conditions []JobCondition
  2 startTime *Time
  3 completionTime *Time
  4 active int32
  5 succeeded int32
  6 failed int32
  11 terminating *int32
  7 completedIndexes string
  10 failedIndexes *string
  8 uncountedTerminatedPods *UncountedTerminatedPods
  9 ready *int32
message JobCondition
${probedConditionFields}
message UncountedTerminatedPods
  1 succeeded []string
  2 failed []string
message CronJob
  1 metadata ObjectMeta
  2 spec CronJobSpec
  3 status CronJobStatus
message CronJobSpec
  1 schedule !string
  8 timeZone *string
  2 startingDeadlineSeconds *int64
  3 concurrencyPolicy string
  4 suspend *bool
  5 jobTemplate JobTemplateSpec
  6 successfulJobsHistoryLimit *int32
  7 failedJobsHistoryLimit *int32
message JobTemplateSpec
  1 metadata ObjectMeta
  2 spec JobSpec
message CronJobStatus
  1 active []ObjectReference
  4 lastScheduleTime *Time
  5 lastSuccessfulTime *Time
`;

const appsV1 = `
message Deployment
  1 metadata ObjectMeta
  2 spec DeploymentSpec
  3 status DeploymentStatus
message DeploymentSpec
  1 replicas *int32
  2 selector *LabelSelector
  3 template PodTemplateSpec
  4 strategy DeploymentStrategy
  5 minReadySeconds int32
  6 revisionHistoryLimit *int32
  7 paused bool
  9 progressDeadlineSeconds *int32
message DeploymentStrategy
  1 type string
  2 rollingUpdate *RollingUpdateDeployment
message RollingUpdateDeployment
  1 maxUnavailable *IntOrString
  2 maxSurge *IntOrString
message DeploymentStatus
  1 observedGeneration int64
  2 replicas int32
  3 updatedReplicas int32
  7 readyReplicas int32
  4 availableReplicas int32
  5 unavailableReplicas int32
  6 conditions []DeploymentCondition
  8 collisionCount *int32
message DeploymentCondition
  1 type !string
  2 status !string
  6 lastUpdateTime Time
  7 lastTransitionTime Time
  4 reason string
  5 message string
message ReplicaSet
  1 metadata ObjectMeta
  2 spec ReplicaSetSpec
  3 status ReplicaSetStatus
message ReplicaSetSpec
  1 replicas *int32
  4 minReadySeconds int32
  2 selector *LabelSelector
  3 template PodTemplateSpec
message ReplicaSetStatus
  1 replicas !int32
  2 fullyLabeledReplicas int32
  4 readyReplicas int32
  5 availableReplicas int32
  3 observedGeneration int64
  6 conditions []ReplicaSetCondition
message ReplicaSetCondition
  1 type !string
  2 status !string
  3 lastTransitionTime Time
  4 reason string
  5 message string
`;

// core/v1 Service and Endpoints, discovery.k8s.io/v1 EndpointSlice (kubectl create service and expose send protobuf).
const servicesV1 = `
message Service
  1 metadata ObjectMeta
  2 spec ServiceSpec
  3 status ServiceStatus
message ServiceSpec
  1 ports []ServicePort
  2 selector map<string>
  3 clusterIP string
  18 clusterIPs []string
  4 type string
  5 externalIPs []string
  7 sessionAffinity string
  8 loadBalancerIP string
  9 loadBalancerSourceRanges []string
  10 externalName string
  11 externalTrafficPolicy string
  12 healthCheckNodePort int32
  13 publishNotReadyAddresses bool
  14 sessionAffinityConfig *SessionAffinityConfig
  17 ipFamilyPolicy *string
  19 ipFamilies []string
  20 allocateLoadBalancerNodePorts *bool
  21 loadBalancerClass *string
  22 internalTrafficPolicy *string
message ServicePort
  1 name string
  2 protocol string
  6 appProtocol *string
  3 port !int32
  4 targetPort IntOrString
  5 nodePort int32
message SessionAffinityConfig
  1 clientIP *ClientIPConfig
message ClientIPConfig
  1 timeoutSeconds *int32
message ServiceStatus
  1 loadBalancer LoadBalancerStatus
message LoadBalancerStatus
  1 ingress []LoadBalancerIngress
message LoadBalancerIngress
  1 ip string
  2 hostname string

message Endpoints
  1 metadata ObjectMeta
  2 subsets []EndpointSubset
message EndpointSubset
  1 addresses []EndpointAddress
  2 notReadyAddresses []EndpointAddress
  3 ports []EndpointPort
message EndpointAddress
  1 ip !string
  3 hostname string
  4 nodeName *string
  2 targetRef *ObjectReference
message EndpointPort
  1 name string
  2 port !int32
  3 protocol string
  4 appProtocol *string

message EndpointSlice
  1 metadata ObjectMeta
  4 addressType !string
  2 endpoints ![]SliceEndpoint
  3 ports []SliceEndpointPort
message SliceEndpoint
  1 addresses ![]string
  2 conditions EndpointConditions
  3 hostname *string
  4 targetRef *ObjectReference
  6 nodeName *string
  8 zone *string
message EndpointConditions
  1 ready *bool
  2 serving *bool
  3 terminating *bool
message SliceEndpointPort
  1 name *string
  2 protocol *string
  3 port *int32
  4 appProtocol *string
`;

// networking.k8s.io/v1 Ingress and IngressClass (kubectl create ingress and ingressclass send protobuf); core/v1
// TypedLocalObjectReference is the resource backend's type.
const networkingV1 = `
message Ingress
  1 metadata ObjectMeta
  2 spec IngressSpec
  3 status IngressStatus
message IngressSpec
  4 ingressClassName *string
  1 defaultBackend *IngressBackend
  2 tls []IngressTLS
  3 rules []IngressRule
message IngressBackend
  4 service *IngressServiceBackend
  3 resource *TypedLocalObjectReference
message IngressServiceBackend
  1 name !string
  2 port ServiceBackendPort
message ServiceBackendPort
  1 name string
  2 number int32
message TypedLocalObjectReference
  1 apiGroup *string
  2 kind !string
  3 name !string
message IngressTLS
  1 hosts []string
  2 secretName string
message IngressRule
  1 host string
  2 - ^IngressRuleValue
message IngressRuleValue
  1 http *HTTPIngressRuleValue
message HTTPIngressRuleValue
  1 paths ![]HTTPIngressPath
message HTTPIngressPath
  1 path string
  3 pathType *string
  2 backend !IngressBackend
message IngressStatus
  1 loadBalancer IngressLoadBalancerStatus
message IngressLoadBalancerStatus
  1 ingress []IngressLoadBalancerIngress
message IngressLoadBalancerIngress
  1 ip string
  2 hostname string
  4 ports []IngressPortStatus
message IngressPortStatus
  1 port !int32
  2 protocol !string
  3 error *string

message IngressClass
  1 metadata ObjectMeta
  2 spec IngressClassSpec
message IngressClassSpec
  1 controller string
  2 parameters *IngressClassParametersReference
message IngressClassParametersReference
  1 apiGroup *string
  2 kind !string
  3 name !string
  4 scope *string
  5 namespace *string
`;

const coordinationV1 = `
message Lease
  1 metadata ObjectMeta
  2 spec LeaseSpec
message LeaseSpec
  1 holderIdentity *string
  2 leaseDurationSeconds *int32
  3 acquireTime *MicroTime
  4 renewTime *MicroTime
  5 leaseTransitions *int32
  6 strategy *string
  7 preferredHolder *string
`;

// rbac.authorization.k8s.io/v1: what `kubectl create role|clusterrole|rolebinding|clusterrolebinding` sends.
const rbacV1 = `
message Role
  1 metadata ObjectMeta
  2 rules []PolicyRule
message ClusterRole
  1 metadata ObjectMeta
  2 rules []PolicyRule
  3 aggregationRule *AggregationRule
message AggregationRule
  1 clusterRoleSelectors []LabelSelector
message PolicyRule
  1 verbs []string
  2 apiGroups []string
  3 resources []string
  4 resourceNames []string
  5 nonResourceURLs []string
message RoleBinding
  1 metadata ObjectMeta
  2 subjects []Subject
  3 roleRef !RoleRef
message ClusterRoleBinding
  1 metadata ObjectMeta
  2 subjects []Subject
  3 roleRef !RoleRef
message RoleRef
  1 apiGroup !string
  2 kind !string
  3 name !string
message Subject
  1 kind !string
  2 apiGroup string
  3 name !string
  4 namespace string
`;

// autoscaling/v1 HorizontalPodAutoscaler: what `kubectl autoscale` sends.
const autoscalingV1 = `
message HorizontalPodAutoscaler
  1 metadata ObjectMeta
  2 spec HorizontalPodAutoscalerSpec
  3 status HorizontalPodAutoscalerStatus
message HorizontalPodAutoscalerSpec
  1 scaleTargetRef !CrossVersionObjectReference
  2 minReplicas *int32
  3 maxReplicas !int32
  4 targetCPUUtilizationPercentage *int32
message CrossVersionObjectReference
  1 kind !string
  2 name !string
  3 apiVersion string
message HorizontalPodAutoscalerStatus
  1 observedGeneration *int64
  2 lastScaleTime *Time
  3 currentReplicas !int32
  4 desiredReplicas !int32
  5 currentCPUUtilizationPercentage *int32
`;

// The review kinds kubectl auth whoami / can-i send, and the TokenRequest of kubectl create token; their status
// is the server's to fill, so it is not decoded.
const authenticationV1 = `
message SelfSubjectReview
  1 metadata ObjectMeta
message TokenRequest
  1 metadata ObjectMeta
  2 spec !TokenRequestSpec
message TokenRequestSpec
  1 audiences []string
  3 boundObjectRef *BoundObjectReference
  4 expirationSeconds *int64
message BoundObjectReference
  1 kind string
  2 apiVersion string
  3 name string
  4 uid string
`;

const authorizationV1 = `
message SelfSubjectAccessReview
  1 metadata ObjectMeta
  2 spec !SelfSubjectAccessReviewSpec
message SelfSubjectAccessReviewSpec
  1 resourceAttributes *ResourceAttributes
  2 nonResourceAttributes *NonResourceAttributes
message ResourceAttributes
  1 namespace string
  2 verb string
  3 group string
  4 version string
  5 resource string
  6 subresource string
  7 name string
  8 fieldSelector *FieldSelectorAttributes
  9 labelSelector *LabelSelectorAttributes
message FieldSelectorAttributes
  1 rawSelector string
  2 requirements []FieldSelectorRequirement
message FieldSelectorRequirement
  1 key !string
  2 operator !string
  3 values []string
message LabelSelectorAttributes
  1 rawSelector string
  2 requirements []LabelSelectorRequirement
message NonResourceAttributes
  1 path string
  2 verb string
message SelfSubjectRulesReview
  1 metadata ObjectMeta
  2 spec !SelfSubjectRulesReviewSpec
message SelfSubjectRulesReviewSpec
  1 namespace string
`;

export type ScalarType = 'string' | 'bool' | 'int32' | 'int64' | 'bytes';
/** Message types with a JSON form of their own. */
export type SpecialType = 'Time' | 'MicroTime' | 'Quantity' | 'IntOrString' | 'FieldsV1';
export type ValueType = ScalarType | SpecialType | { readonly message: string };

export interface FieldDef {
  readonly number: number;
  readonly json: string;
  readonly type: ValueType;
  readonly repeated: boolean;
  readonly map: boolean;
  /** An embedded Go struct: its fields appear in the parent's JSON. */
  readonly inline: boolean;
  /** 'omitempty': a zero scalar is dropped; 'keep': a sent value is kept even when zero. */
  readonly zero: 'omitempty' | 'keep';
}

export interface MessageDef {
  readonly name: string;
  /** In JSON (Go struct) order. */
  readonly fields: readonly FieldDef[];
  readonly byNumber: ReadonlyMap<number, FieldDef>;
}

export class ProtobufSchemaError extends Error {
  override readonly name = 'ProtobufSchemaError' as const;
}

const scalarTypes = new Set<string>(['string', 'bool', 'int32', 'int64', 'bytes']);
const specialTypes = new Set<string>(['Time', 'MicroTime', 'Quantity', 'IntOrString', 'FieldsV1']);

function valueType(name: string): ValueType {
  if (scalarTypes.has(name)) return name as ScalarType;
  if (specialTypes.has(name)) return name as SpecialType;
  return { message: name };
}

function parseField(line: string, where: string): FieldDef {
  const match = /^(\d+) (\S+) ([*!^]?)(\[\])?(?:map<(\w+)>|(\w+))$/.exec(line);
  if (!match) throw new ProtobufSchemaError(`${where}: cannot parse field line "${line}"`);
  const [, number, json, prefix, repeated, mapValue, plain] = match;
  const typeName = mapValue ?? plain ?? '';
  const type = valueType(typeName);
  const inline = prefix === '^';
  if (inline && typeof type !== 'object') throw new ProtobufSchemaError(`${where}: only messages can be inlined`);
  return {
    number: Number(number),
    json: json ?? '',
    type,
    repeated: repeated !== undefined,
    map: mapValue !== undefined,
    inline,
    zero: prefix === '*' || prefix === '!' ? 'keep' : 'omitempty',
  };
}

export function parseSchema(text: string): Map<string, MessageDef> {
  const messages = new Map<string, MessageDef>();
  let current: { name: string; fields: FieldDef[] } | undefined;
  const finish = () => {
    if (!current) return;
    const byNumber = new Map<number, FieldDef>();
    for (const field of current.fields) {
      if (byNumber.has(field.number)) throw new ProtobufSchemaError(`${current.name}: field number ${field.number} used twice`);
      byNumber.set(field.number, field);
    }
    messages.set(current.name, { name: current.name, fields: current.fields, byNumber });
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const header = /^message (\w+)$/.exec(line);
    if (header) {
      finish();
      current = { name: header[1] ?? '', fields: [] };
      continue;
    }
    if (!current) throw new ProtobufSchemaError(`field outside a message: "${line}"`);
    current.fields.push(parseField(line, current.name));
  }
  finish();
  // Every referenced message must exist, so a typo fails at start-up rather than on some request.
  for (const message of messages.values()) {
    for (const field of message.fields) {
      if (typeof field.type === 'object' && !messages.has(field.type.message)) {
        throw new ProtobufSchemaError(`${message.name}.${field.json}: unknown message ${field.type.message}`);
      }
    }
  }
  return messages;
}

export const messages: ReadonlyMap<string, MessageDef> = parseSchema(metaV1 + coreV1 + servicesV1 + networkingV1 + batchV1 + appsV1 + autoscalingV1 + coordinationV1 + authenticationV1 + authorizationV1 + rbacV1);

/** The top-level message for each kind the server decodes, by `apiVersion/kind`. */
export const topLevelKinds: ReadonlyMap<string, string> = new Map([
  ['v1/Namespace', 'Namespace'],
  ['v1/ConfigMap', 'ConfigMap'],
  ['v1/ResourceQuota', 'ResourceQuota'],
  ['v1/Secret', 'Secret'],
  ['v1/ServiceAccount', 'ServiceAccount'],
  ['v1/Pod', 'Pod'],
  ['v1/Node', 'Node'],
  ['v1/Event', 'Event'],
  ['v1/Service', 'Service'],
  ['v1/Endpoints', 'Endpoints'],
  ['discovery.k8s.io/v1/EndpointSlice', 'EndpointSlice'],
  ['networking.k8s.io/v1/Ingress', 'Ingress'],
  ['networking.k8s.io/v1/IngressClass', 'IngressClass'],
  ['batch/v1/Job', 'Job'],
  ['batch/v1/CronJob', 'CronJob'],
  ['apps/v1/Deployment', 'Deployment'],
  ['apps/v1/ReplicaSet', 'ReplicaSet'],
  ['autoscaling/v1/HorizontalPodAutoscaler', 'HorizontalPodAutoscaler'],
  ['coordination.k8s.io/v1/Lease', 'Lease'],
  ['authentication.k8s.io/v1/SelfSubjectReview', 'SelfSubjectReview'],
  ['authentication.k8s.io/v1/TokenRequest', 'TokenRequest'],
  ['authorization.k8s.io/v1/SelfSubjectAccessReview', 'SelfSubjectAccessReview'],
  ['authorization.k8s.io/v1/SelfSubjectRulesReview', 'SelfSubjectRulesReview'],
  ['rbac.authorization.k8s.io/v1/Role', 'Role'],
  ['rbac.authorization.k8s.io/v1/ClusterRole', 'ClusterRole'],
  ['rbac.authorization.k8s.io/v1/RoleBinding', 'RoleBinding'],
  ['rbac.authorization.k8s.io/v1/ClusterRoleBinding', 'ClusterRoleBinding'],
]);
