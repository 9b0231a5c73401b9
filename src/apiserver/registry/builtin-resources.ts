// The built-in kinds the embedded server serves: what controllers and kubectl need, nothing more.
import type { KubeObject } from '../../apimachinery/object.ts';
import {
  ADMISSION_REGISTRATION_GROUP,
  ADMISSION_REGISTRATION_VERSION,
  MUTATING_WEBHOOK_CONFIGURATION_KIND,
  MUTATING_WEBHOOK_CONFIGURATIONS,
  VALIDATING_WEBHOOK_CONFIGURATION_KIND,
  VALIDATING_WEBHOOK_CONFIGURATIONS,
} from '../../apimachinery/webhook-configuration.ts';
import { defaultWebhookConfiguration } from '../admissionregistration/webhook-defaults.ts';
import { validateWebhookConfiguration } from '../admissionregistration/webhook-validation.ts';
import { reviewToken } from '../auth/token-review.ts';
import { userInfoJson, type UserInfo } from '../auth/user-info.ts';
import { defaultEndpoints, defaultEndpointSlice, validateEndpoints, validateEndpointSlice } from '../services/endpoint-validation.ts';
import { serviceStrategy } from '../services/service-strategy.ts';
import type { ResourceType, SubresourceInfo } from './resource-type.ts';
import { podStrategy } from './pod-strategy.ts';
import { secretStrategy } from './secret-strategy.ts';
import { cronJobStrategy } from './cronjob-strategy.ts';
import { deploymentStrategy, jobStrategy, replicaSetStrategy } from './workload-strategies.ts';
import { controllerRevisionStrategy, statefulSetStrategy } from './statefulset-strategy.ts';
import { horizontalPodAutoscalerStrategy } from './hpa-strategy.ts';
import { horizontalPodAutoscalerV1Strategy } from './hpa-v1-conversion.ts';
import { persistentVolumeStrategy, storageClassStrategy } from './storage-strategy.ts';
import { daemonSetStrategy } from './daemonset-strategy.ts';
import { limitRangeStrategy } from './limitrange-strategy.ts';
import { podDisruptionBudgetStrategy } from './pdb-strategy.ts';
import { resourceQuotaStrategy } from '../quota/quota-strategies.ts';
import { ingressClassStrategy, ingressStrategy } from '../networking/ingress-strategy.ts';
import { RBAC_GROUP, RBAC_VERSION, type ClusterRole, type RoleBinding } from '../../apimachinery/rbac.ts';
import { validateBinding, validateClusterRole, validateRole } from '../auth/rbac/rbac-validation.ts';

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;

/** `kubectl scale` finds the Scale kind of a workload through discovery. */
const scale: SubresourceInfo = { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] };

function field(path: string): (object: KubeObject) => string | undefined {
  const parts = path.split('.');
  return (object) => {
    let value: unknown = object;
    for (const part of parts) {
      if (typeof value !== 'object' || value === null) return undefined;
      value = (value as Record<string, unknown>)[part];
    }
    return value === undefined || value === null ? undefined : String(value);
  };
}

function fields(...paths: string[]): Record<string, (object: KubeObject) => string | undefined> {
  return Object.fromEntries(paths.map((p) => [p, field(p)]));
}

function builtin(spec: Partial<ResourceType> & Pick<ResourceType, 'group' | 'version' | 'kind' | 'plural'>): ResourceType {
  return {
    listKind: `${spec.kind}List`,
    singular: spec.kind.toLowerCase(),
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: allVerbs,
    statusSubresource: false,
    tracksGeneration: false,
    strategicMerge: true,
    nameRule: 'dns1123-subdomain',
    fieldSelectors: {},
    custom: false,
    ...spec,
  };
}

/** kube-apiserver's namespace strategy keeps this label equal to the name on every write; selectors rely on it. */
function labelNamespaceName(object: KubeObject): void {
  object.metadata.labels = { ...object.metadata.labels, 'kubernetes.io/metadata.name': object.metadata.name ?? '' };
}

/** Review kinds: answered on create, never stored. */
function review(spec: Pick<ResourceType, 'group' | 'version' | 'kind' | 'plural'> & { namespaced?: boolean }, answer: (object: KubeObject, user: UserInfo) => Record<string, unknown>): ResourceType {
  return builtin({ namespaced: false, ...spec, verbs: ['create'], strategicMerge: false, review: (object, user) => ({ ...object, status: answer(object, user) }) });
}

/** Cluster-scoped, defaulted and validated as admissionregistration/v1 does; the server calls them on writes. */
function webhookConfiguration(kind: string, plural: string, mutating: boolean): ResourceType {
  return builtin({
    group: ADMISSION_REGISTRATION_GROUP,
    version: ADMISSION_REGISTRATION_VERSION,
    kind,
    plural,
    namespaced: false,
    categories: ['api-extensions'],
    tracksGeneration: true,
    prepareForCreate: (object) => defaultWebhookConfiguration(object, mutating),
    prepareForUpdate: (object) => defaultWebhookConfiguration(object, mutating),
    validate: (object) => validateWebhookConfiguration(object, mutating),
  });
}

export const builtinResources: readonly ResourceType[] = [
  // Answered with the server's authorizer, which startApiServer puts in place of these denials.
  review({ group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectAccessReview', plural: 'selfsubjectaccessreviews' }, () => ({ allowed: false })),
  review({ group: 'authorization.k8s.io', version: 'v1', kind: 'SubjectAccessReview', plural: 'subjectaccessreviews' }, () => ({ allowed: false })),
  review({ group: 'authorization.k8s.io', version: 'v1', kind: 'LocalSubjectAccessReview', plural: 'localsubjectaccessreviews', namespaced: true }, () => ({ allowed: false })),
  review({ group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectRulesReview', plural: 'selfsubjectrulesreviews' }, () => ({ resourceRules: [], nonResourceRules: [], incomplete: true })),
  review({ group: 'authentication.k8s.io', version: 'v1', kind: 'SelfSubjectReview', plural: 'selfsubjectreviews' }, (_, user) => ({ userInfo: userInfoJson(user) })),
  // Answered with the server's own token authenticators, which startApiServer puts in place of these none.
  builtin({ group: 'authentication.k8s.io', version: 'v1', kind: 'TokenReview', plural: 'tokenreviews', namespaced: false, verbs: ['create'], strategicMerge: false, review: reviewToken(() => undefined) }),
  builtin({
    group: '',
    version: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    namespaced: false,
    shortNames: ['ns'],
    statusSubresource: true,
    nameRule: 'dns1123-label',
    fieldSelectors: fields('status.phase'),
    specFinalizers: true,
    prepareForDelete(object) {
      object['status'] = { ...(object['status'] as object), phase: 'Terminating' };
    },
    prepareForCreate(object) {
      object['spec'] = { finalizers: ['kubernetes'] };
      object['status'] = { phase: 'Active' };
      labelNamespaceName(object);
    },
    prepareForUpdate: labelNamespaceName,
  }),
  builtin({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', shortNames: ['cm'] }),
  builtin({ group: '', version: 'v1', kind: 'LimitRange', plural: 'limitranges', shortNames: ['limits'], ...limitRangeStrategy }),
  builtin({ group: '', version: 'v1', kind: 'ResourceQuota', plural: 'resourcequotas', shortNames: ['quota'], statusSubresource: true, ...resourceQuotaStrategy }),
  builtin({
    group: '',
    version: 'v1',
    kind: 'Secret',
    plural: 'secrets',
    fieldSelectors: fields('type'),
    ...secretStrategy,
  }),
  builtin({
    group: '',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    shortNames: ['ev'],
    nameRule: 'path-segment',
    fieldSelectors: {
      ...fields(
        'involvedObject.kind',
        'involvedObject.namespace',
        'involvedObject.name',
        'involvedObject.uid',
        'involvedObject.apiVersion',
        'involvedObject.resourceVersion',
        'involvedObject.fieldPath',
        'reason',
        'reportingComponent',
        'type',
      ),
      source: field('source.component'),
    },
  }),
  builtin({
    group: '',
    version: 'v1',
    kind: 'Service',
    plural: 'services',
    shortNames: ['svc'],
    categories: ['all'],
    statusSubresource: true,
    nameRule: 'dns1035-label',
    // The default service network; startApiServer replaces it with the configured one.
    ...serviceStrategy(),
  }),
  builtin({
    group: '',
    version: 'v1',
    kind: 'Endpoints',
    plural: 'endpoints',
    shortNames: ['ep'],
    prepareForCreate: defaultEndpoints,
    prepareForUpdate: defaultEndpoints,
    validate: validateEndpoints,
  }),
  builtin({
    group: 'discovery.k8s.io',
    version: 'v1',
    kind: 'EndpointSlice',
    plural: 'endpointslices',
    strategicMerge: false,
    prepareForCreate: defaultEndpointSlice,
    prepareForUpdate: defaultEndpointSlice,
    validate: validateEndpointSlice,
  }),
  builtin({
    group: '',
    version: 'v1',
    kind: 'ServiceAccount',
    plural: 'serviceaccounts',
    shortNames: ['sa'],
    subresources: [{ name: 'token', group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] }],
  }),
  builtin({ group: '', version: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims', shortNames: ['pvc'], statusSubresource: true }),
  builtin({ group: '', version: 'v1', kind: 'PersistentVolume', plural: 'persistentvolumes', namespaced: false, shortNames: ['pv'], statusSubresource: true, ...persistentVolumeStrategy }),
  builtin({ group: 'storage.k8s.io', version: 'v1', kind: 'StorageClass', plural: 'storageclasses', namespaced: false, shortNames: ['sc'], strategicMerge: true, ...storageClassStrategy }),
  builtin({
    group: '',
    version: 'v1',
    kind: 'Pod',
    plural: 'pods',
    ...podStrategy,
    shortNames: ['po'],
    categories: ['all'],
    statusSubresource: true,
    subresources: [
      { name: 'attach', group: '', version: 'v1', kind: 'PodAttachOptions', verbs: ['create', 'get'] },
      { name: 'binding', group: '', version: 'v1', kind: 'Binding', verbs: ['create'] },
      { name: 'eviction', group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] },
      { name: 'exec', group: '', version: 'v1', kind: 'PodExecOptions', verbs: ['create', 'get'] },
      { name: 'log', group: '', version: 'v1', kind: 'Pod', verbs: ['get'] },
      { name: 'portforward', group: '', version: 'v1', kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
    ],
    fieldSelectors: fields(
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.nominatedNodeName',
    ),
  }),
  builtin({
    group: '',
    version: 'v1',
    kind: 'Node',
    plural: 'nodes',
    namespaced: false,
    shortNames: ['no'],
    statusSubresource: true,
    fieldSelectors: fields('spec.unschedulable'),
  }),
  builtin({
    group: 'batch',
    version: 'v1',
    kind: 'Job',
    plural: 'jobs',
    categories: ['all'],
    statusSubresource: true,
    tracksGeneration: true,
    fieldSelectors: fields('status.successful'),
    ...jobStrategy,
  }),
  builtin({
    group: 'batch',
    version: 'v1',
    kind: 'CronJob',
    plural: 'cronjobs',
    shortNames: ['cj'],
    categories: ['all'],
    statusSubresource: true,
    tracksGeneration: true,
    ...cronJobStrategy,
  }),
  builtin({
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    plural: 'deployments',
    shortNames: ['deploy'],
    categories: ['all'],
    statusSubresource: true,
    subresources: [scale],
    tracksGeneration: true,
    ...deploymentStrategy,
  }),
  builtin({
    group: 'apps',
    version: 'v1',
    kind: 'ReplicaSet',
    plural: 'replicasets',
    shortNames: ['rs'],
    categories: ['all'],
    statusSubresource: true,
    subresources: [scale],
    tracksGeneration: true,
    ...replicaSetStrategy,
  }),
  builtin({
    group: 'apps',
    version: 'v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    shortNames: ['sts'],
    categories: ['all'],
    statusSubresource: true,
    subresources: [scale],
    tracksGeneration: true,
    ...statefulSetStrategy,
  }),
  builtin({
    group: 'apps',
    version: 'v1',
    kind: 'DaemonSet',
    plural: 'daemonsets',
    shortNames: ['ds'],
    categories: ['all'],
    statusSubresource: true,
    tracksGeneration: true,
    ...daemonSetStrategy,
  }),
  builtin({ group: 'apps', version: 'v1', kind: 'ControllerRevision', plural: 'controllerrevisions', strategicMerge: false, ...controllerRevisionStrategy }),
  builtin({
    group: 'autoscaling',
    version: 'v2',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    shortNames: ['hpa'],
    categories: ['all'],
    statusSubresource: true,
    tracksGeneration: true,
    ...horizontalPodAutoscalerStrategy,
  }),
  builtin({
    group: 'autoscaling',
    version: 'v1',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    shortNames: ['hpa'],
    categories: ['all'],
    statusSubresource: true,
    tracksGeneration: true,
    ...horizontalPodAutoscalerV1Strategy,
  }),
  builtin({
    group: 'policy',
    version: 'v1',
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    shortNames: ['pdb'],
    statusSubresource: true,
    tracksGeneration: true,
    ...podDisruptionBudgetStrategy,
  }),
  builtin({
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'Ingress',
    plural: 'ingresses',
    shortNames: ['ing'],
    statusSubresource: true,
    tracksGeneration: true,
    // No default class here; startApiServer gives the admission the stored IngressClasses.
    ...ingressStrategy(() => []),
  }),
  builtin({ group: 'networking.k8s.io', version: 'v1', kind: 'IngressClass', plural: 'ingressclasses', namespaced: false, tracksGeneration: true, ...ingressClassStrategy }),
  builtin({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases' }),
  builtin({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    statusSubresource: true,
    tracksGeneration: true,
    strategicMerge: false,
  }),
  builtin({ group: RBAC_GROUP, version: RBAC_VERSION, kind: 'Role', plural: 'roles', nameRule: 'path-segment', validate: (o) => validateRole(o as ClusterRole) }),
  builtin({ group: RBAC_GROUP, version: RBAC_VERSION, kind: 'ClusterRole', plural: 'clusterroles', namespaced: false, nameRule: 'path-segment', validate: (o) => validateClusterRole(o as ClusterRole) }),
  builtin({ group: RBAC_GROUP, version: RBAC_VERSION, kind: 'RoleBinding', plural: 'rolebindings', nameRule: 'path-segment', validate: (o, old) => validateBinding(o as RoleBinding, old as RoleBinding | undefined, true) }),
  builtin({
    group: RBAC_GROUP,
    version: RBAC_VERSION,
    kind: 'ClusterRoleBinding',
    plural: 'clusterrolebindings',
    namespaced: false,
    nameRule: 'path-segment',
    validate: (o, old) => validateBinding(o as RoleBinding, old as RoleBinding | undefined, false),
  }),
  webhookConfiguration(VALIDATING_WEBHOOK_CONFIGURATION_KIND, VALIDATING_WEBHOOK_CONFIGURATIONS, false),
  webhookConfiguration(MUTATING_WEBHOOK_CONFIGURATION_KIND, MUTATING_WEBHOOK_CONFIGURATIONS, true),
];
