// The workloads family: the control-plane half of running pods, with kube-scheduler's and kube-controller-manager's
// semantics: the scheduler, the Job controller (with its orphan-pod cleanup and TTL-after-finished), the CronJob
// controller, the ReplicaSet, Deployment, StatefulSet and DaemonSet controllers, the HorizontalPodAutoscaler controller,
// the PersistentVolume binder, the disruption controller, the node lifecycle controller, and the endpointslice and endpoints
// controllers that publish the pods behind Services. Pods themselves run on a node agent.
import type { Family, Manager, PolicyRule } from '../runtime/index.ts';
import { nodesDashboardView, workloadsDashboardView } from './dashboard-view.ts';
import { registerEndpointsController, type EndpointsControllerOptions } from './endpoints/controller.ts';
import { registerEndpointSliceController, type EndpointSliceControllerOptions } from './endpointslice/controller.ts';
import { registerDeploymentController, type DeploymentControllerOptions } from './deployment/controller.ts';
import { registerJobController, type JobControllerOptions } from './job/controller.ts';
import { registerCronJobController, type CronJobControllerOptions } from './cronjob/controller.ts';
import { registerNodeLifecycleController, type NodeLifecycleOptions } from './node-lifecycle/controller.ts';
import { registerReplicaSetController, type ReplicaSetControllerOptions } from './replicaset/controller.ts';
import { registerScheduler, type SchedulerOptions } from './scheduler/controller.ts';
import { registerDisruptionController, type DisruptionControllerOptions } from './disruption/controller.ts';
import { registerStatefulSetController, type StatefulSetControllerOptions } from './statefulset/controller.ts';
import { registerHpaController, type HpaControllerOptions } from './hpa/controller.ts';
import { registerVolumeBinding, type VolumeBindingOptions } from './volume-binding/controller.ts';
import { registerDaemonSetController, type DaemonSetControllerOptions } from './daemonset/controller.ts';

/** Per-controller options; false leaves a controller out (e.g. when a real kube-scheduler runs). */
export interface WorkloadsOptions {
  scheduler?: SchedulerOptions | false;
  job?: JobControllerOptions | false;
  cronJob?: CronJobControllerOptions | false;
  replicaSet?: ReplicaSetControllerOptions | false;
  deployment?: DeploymentControllerOptions | false;
  nodeLifecycle?: NodeLifecycleOptions | false;
  endpointSlice?: EndpointSliceControllerOptions | false;
  endpoints?: EndpointsControllerOptions | false;
  statefulSet?: StatefulSetControllerOptions | false;
  horizontalPodAutoscaler?: HpaControllerOptions | false;
  volumeBinding?: VolumeBindingOptions | false;
  daemonSet?: DaemonSetControllerOptions | false;
  disruption?: DisruptionControllerOptions | false;
}

export function registerWorkloads(mgr: Manager, options: WorkloadsOptions = {}): void {
  if (options.scheduler !== false) registerScheduler(mgr, options.scheduler);
  if (options.job !== false) registerJobController(mgr, options.job);
  if (options.cronJob !== false) registerCronJobController(mgr, options.cronJob);
  if (options.replicaSet !== false) registerReplicaSetController(mgr, options.replicaSet);
  if (options.deployment !== false) registerDeploymentController(mgr, options.deployment);
  if (options.nodeLifecycle !== false) registerNodeLifecycleController(mgr, options.nodeLifecycle);
  if (options.endpointSlice !== false) registerEndpointSliceController(mgr, options.endpointSlice);
  if (options.endpoints !== false) registerEndpointsController(mgr, options.endpoints);
  if (options.statefulSet !== false) registerStatefulSetController(mgr, options.statefulSet);
  if (options.horizontalPodAutoscaler !== false) registerHpaController(mgr, options.horizontalPodAutoscaler);
  if (options.volumeBinding !== false) registerVolumeBinding(mgr, options.volumeBinding);
  if (options.daemonSet !== false) registerDaemonSetController(mgr, options.daemonSet);
  if (options.disruption !== false) registerDisruptionController(mgr, options.disruption);
}

/**
 * What the controllers read, watch and write: every one lists and watches its kinds; the scheduler binds pods and
 * writes their PodScheduled condition; the Job and ReplicaSet controllers create, adopt (patch) and delete pods;
 * the Job controller reads Jobs afresh before adopting and the TTL controller before deleting; the CronJob
 * controller creates and deletes Jobs, reads them afresh when its cache lacks one, and writes CronJob status; the Deployment
 * controller creates, scales and deletes ReplicaSets and patches the revision annotation; the node lifecycle
 * controller patches taints and writes node and pod status; the endpointslice and endpoints controllers read
 * Services and write EndpointSlices and Endpoints; each records Events.
 */
// get on every resource whose status is written: the runtime's status writer reads the object again after a
// write conflict (client-go's RetryOnConflict does the same; upstream's controller roles have get).
const rbac: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'] },
  { apiGroups: [''], resources: ['pods/status'], verbs: ['update'] },
  { apiGroups: [''], resources: ['pods/binding'], verbs: ['create'] },
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'patch'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['update'] },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['list', 'watch'] },
  { apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'list', 'watch', 'create', 'delete'] },
  { apiGroups: ['batch'], resources: ['jobs/status'], verbs: ['update'] },
  { apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['batch'], resources: ['cronjobs/status'], verbs: ['update'] },
  { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
  { apiGroups: ['apps'], resources: ['replicasets/status'], verbs: ['update'] },
  { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch', 'patch'] },
  { apiGroups: ['apps'], resources: ['deployments/status'], verbs: ['update'] },
  { apiGroups: [''], resources: ['services'], verbs: ['list', 'watch'] },
  { apiGroups: [''], resources: ['endpoints'], verbs: ['list', 'watch', 'create', 'update'] },
  { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch', 'create', 'update', 'delete'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
  // The StatefulSet controller: its sets' status, their ControllerRevisions, and the pods' claims and labels.
  { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['apps'], resources: ['statefulsets/status'], verbs: ['update'] },
  { apiGroups: ['apps'], resources: ['controllerrevisions'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'] },
  { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get', 'list', 'watch', 'create', 'patch'] },
  // The HorizontalPodAutoscaler controller: its autoscalers' status, its targets' scale, and the pods' readings.
  { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers/status'], verbs: ['update'] },
  { apiGroups: ['apps'], resources: ['deployments/scale', 'replicasets/scale', 'statefulsets/scale'], verbs: ['get', 'patch'] },
  { apiGroups: ['metrics.k8s.io'], resources: ['pods'], verbs: ['list'] },
  // The PersistentVolume controller: binds claims and volumes and keeps their phases.
  { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['get', 'list', 'watch', 'patch'] },
  { apiGroups: [''], resources: ['persistentvolumes/status', 'persistentvolumeclaims/status'], verbs: ['update'] },
  { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: ['list', 'watch'] },
  // The DaemonSet controller: its sets' status (it shares the pod, node and ControllerRevision rules above).
  { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['apps'], resources: ['daemonsets/status'], verbs: ['update'] },
  // The disruption controller: budgets' status from the pods they select and their controllers' scale.
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets/status'], verbs: ['update'] },
];

/** The family with its controllers' options (`bosun up --node-monitor-grace-period`): built-in kinds only, so no API groups or CRDs of its own. */
export function workloadsFamilyWith(options: WorkloadsOptions): Family {
  return {
    name: 'workloads',
    groups: [],
    crds: [],
    rbac,
    embeddedOnly: true,
    views: [workloadsDashboardView, nodesDashboardView],
    register: (mgr) => registerWorkloads(mgr, options),
  };
}

/** The family as the CLI runs it by default. */
export const workloadsFamily: Family = workloadsFamilyWith({});
