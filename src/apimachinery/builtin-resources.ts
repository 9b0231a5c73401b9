// The built-in Kubernetes resources Bosun reads and writes, resolved up front so no request needs discovery.
import type { ResourceRef } from './resource-ref.ts';
import {
  ADMISSION_REGISTRATION_GROUP,
  ADMISSION_REGISTRATION_VERSION,
  MUTATING_WEBHOOK_CONFIGURATION_KIND,
  MUTATING_WEBHOOK_CONFIGURATIONS,
  VALIDATING_WEBHOOK_CONFIGURATION_KIND,
  VALIDATING_WEBHOOK_CONFIGURATIONS,
} from './webhook-configuration.ts';

export const namespacesResource: ResourceRef = { group: '', version: 'v1', resource: 'namespaces', namespaced: false, kind: 'Namespace' };
export const podsResource: ResourceRef = { group: '', version: 'v1', resource: 'pods', namespaced: true, kind: 'Pod' };
export const nodesResource: ResourceRef = { group: '', version: 'v1', resource: 'nodes', namespaced: false, kind: 'Node' };
export const secretsResource: ResourceRef = { group: '', version: 'v1', resource: 'secrets', namespaced: true, kind: 'Secret' };
export const configMapsResource: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' };
export const serviceAccountsResource: ResourceRef = { group: '', version: 'v1', resource: 'serviceaccounts', namespaced: true, kind: 'ServiceAccount' };
export const persistentVolumeClaimsResource: ResourceRef = { group: '', version: 'v1', resource: 'persistentvolumeclaims', namespaced: true, kind: 'PersistentVolumeClaim' };
export const persistentVolumesResource: ResourceRef = { group: '', version: 'v1', resource: 'persistentvolumes', namespaced: false, kind: 'PersistentVolume' };
export const storageClassesResource: ResourceRef = { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses', namespaced: false, kind: 'StorageClass' };
export const servicesResource: ResourceRef = { group: '', version: 'v1', resource: 'services', namespaced: true, kind: 'Service' };
export const endpointsResource: ResourceRef = { group: '', version: 'v1', resource: 'endpoints', namespaced: true, kind: 'Endpoints' };
export const endpointSlicesResource: ResourceRef = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', namespaced: true, kind: 'EndpointSlice' };
export const eventsResource: ResourceRef = { group: '', version: 'v1', resource: 'events', namespaced: true, kind: 'Event' };
export const leasesResource: ResourceRef = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', namespaced: true, kind: 'Lease' };
export const jobsResource: ResourceRef = { group: 'batch', version: 'v1', resource: 'jobs', namespaced: true, kind: 'Job' };
export const cronJobsResource: ResourceRef = { group: 'batch', version: 'v1', resource: 'cronjobs', namespaced: true, kind: 'CronJob' };
export const deploymentsResource: ResourceRef = { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true, kind: 'Deployment' };
export const replicaSetsResource: ResourceRef = { group: 'apps', version: 'v1', resource: 'replicasets', namespaced: true, kind: 'ReplicaSet' };
export const statefulSetsResource: ResourceRef = { group: 'apps', version: 'v1', resource: 'statefulsets', namespaced: true, kind: 'StatefulSet' };
export const horizontalPodAutoscalersResource: ResourceRef = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', namespaced: true, kind: 'HorizontalPodAutoscaler' };
export const controllerRevisionsResource: ResourceRef = { group: 'apps', version: 'v1', resource: 'controllerrevisions', namespaced: true, kind: 'ControllerRevision' };
export const daemonSetsResource: ResourceRef = { group: 'apps', version: 'v1', resource: 'daemonsets', namespaced: true, kind: 'DaemonSet' };
export const podDisruptionBudgetsResource: ResourceRef = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', namespaced: true, kind: 'PodDisruptionBudget' };
export const ingressesResource: ResourceRef = { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', namespaced: true, kind: 'Ingress' };
export const ingressClassesResource: ResourceRef = { group: 'networking.k8s.io', version: 'v1', resource: 'ingressclasses', namespaced: false, kind: 'IngressClass' };
export const validatingWebhookConfigurationsResource: ResourceRef = {
  group: ADMISSION_REGISTRATION_GROUP,
  version: ADMISSION_REGISTRATION_VERSION,
  resource: VALIDATING_WEBHOOK_CONFIGURATIONS,
  namespaced: false,
  kind: VALIDATING_WEBHOOK_CONFIGURATION_KIND,
};
export const mutatingWebhookConfigurationsResource: ResourceRef = {
  group: ADMISSION_REGISTRATION_GROUP,
  version: ADMISSION_REGISTRATION_VERSION,
  resource: MUTATING_WEBHOOK_CONFIGURATIONS,
  namespaced: false,
  kind: MUTATING_WEBHOOK_CONFIGURATION_KIND,
};

/** Where kubelets keep their heartbeat Leases, one per node, named after it (corev1.NamespaceNodeLease). */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
