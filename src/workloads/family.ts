// The workloads family: the control-plane half of running pods, with kube-scheduler's and kube-controller-manager's
// semantics: the scheduler, the Job controller (with its orphan-pod cleanup and TTL-after-finished), the
// ReplicaSet and Deployment controllers, and the node lifecycle controller. Pods themselves run on a node agent.
import type { Manager } from '../runtime/manager.ts';
import { registerDeploymentController, type DeploymentControllerOptions } from './deployment/controller.ts';
import { registerJobController, type JobControllerOptions } from './job/controller.ts';
import { registerNodeLifecycleController, type NodeLifecycleOptions } from './node-lifecycle/controller.ts';
import { registerReplicaSetController, type ReplicaSetControllerOptions } from './replicaset/controller.ts';
import { registerScheduler, type SchedulerOptions } from './scheduler/controller.ts';

/** Per-controller options; false leaves a controller out (e.g. when a real kube-scheduler runs). */
export interface WorkloadsOptions {
  scheduler?: SchedulerOptions | false;
  job?: JobControllerOptions | false;
  replicaSet?: ReplicaSetControllerOptions | false;
  deployment?: DeploymentControllerOptions | false;
  nodeLifecycle?: NodeLifecycleOptions | false;
}

export function registerWorkloads(mgr: Manager, options: WorkloadsOptions = {}): void {
  if (options.scheduler !== false) registerScheduler(mgr, options.scheduler);
  if (options.job !== false) registerJobController(mgr, options.job);
  if (options.replicaSet !== false) registerReplicaSetController(mgr, options.replicaSet);
  if (options.deployment !== false) registerDeploymentController(mgr, options.deployment);
  if (options.nodeLifecycle !== false) registerNodeLifecycleController(mgr, options.nodeLifecycle);
}
