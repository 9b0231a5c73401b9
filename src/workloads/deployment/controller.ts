// Registers the Deployment controller: Deployments own ReplicaSets (whose changes wake them); pods that stop or go
// wake the Deployment of their ReplicaSet, which a Recreate rollout waits for.
import { objectKey } from '../../apimachinery/object.ts';
import type { Controller, Manager } from '../../runtime/index.ts';
import { deploymentsResource, podsResource, replicaSetsResource } from '../../apimachinery/builtin-resources.ts';
import type { Deployment, Pod, ReplicaSet } from '../../apimachinery/api/index.ts';
import { controllerOf } from '../pods/owner.ts';
import { isPodActive } from '../pods/pod-state.ts';
import type { DeploymentControllerData } from './context.ts';
import { syncDeployment } from './sync.ts';

export interface DeploymentControllerOptions {
  name?: string;
  concurrency?: number;
  now?: () => Date;
}

export function registerDeploymentController(mgr: Manager, options: DeploymentControllerOptions = {}): Controller<Deployment, DeploymentControllerData> {
  const replicaSets = mgr.informer<ReplicaSet>(replicaSetsResource);
  const pods = mgr.informer<Pod>(podsResource);
  const data: DeploymentControllerData = {
    client: mgr.client,
    recorder: mgr.recorder('deployment-controller'),
    replicaSets,
    pods,
    now: options.now ?? (() => new Date()),
  };
  const deploymentOfPod = (pod: Pod): string[] => {
    const rsRef = controllerOf(pod);
    if (rsRef?.kind !== 'ReplicaSet') return [];
    const rs = replicaSets.get(rsRef.name, pod.metadata.namespace);
    const ref = rs && controllerOf(rs);
    return ref?.kind === 'Deployment' ? [objectKey(pod.metadata.namespace, ref.name)] : [];
  };
  return mgr
    .controller<Deployment, DeploymentControllerData>({ name: options.name ?? 'deployment', for: deploymentsResource, data, concurrency: options.concurrency ?? 5, reconcile: syncDeployment })
    .owns(replicaSets)
    .watches(pods, deploymentOfPod, { predicates: [(e) => e.type === 'deleted' || (e.type === 'modified' && e.old !== undefined && isPodActive(e.old) && !isPodActive(e.object))] });
}
