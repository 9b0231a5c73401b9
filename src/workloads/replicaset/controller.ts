// Registers the ReplicaSet controller: ReplicaSets keep spec.replicas pods; their pods' events wake them.
import { objectKey } from '../../apimachinery/object.ts';
import type { Controller, Manager } from '../../runtime/index.ts';
import { podsResource, replicaSetsResource } from '../../apimachinery/builtin-resources.ts';
import type { Pod, ReplicaSet } from '../../apimachinery/api/index.ts';
import { Expectations, observeExpectations } from '../pods/expectations.ts';
import { controllerOf } from '../pods/owner.ts';
import { PodControl } from '../pods/pod-control.ts';
import { syncReplicaSet, type ReplicaSetControllerData } from './sync.ts';

export interface ReplicaSetControllerOptions {
  name?: string;
  concurrency?: number;
  burstReplicas?: number;
  now?: () => Date;
}

export function registerReplicaSetController(mgr: Manager, options: ReplicaSetControllerOptions = {}): Controller<ReplicaSet, ReplicaSetControllerData> {
  const pods = mgr.informer<Pod>(podsResource);
  const expectations = new Expectations();
  observeExpectations(pods, expectations, (pod) => {
    const ref = controllerOf(pod);
    return ref?.kind === 'ReplicaSet' && ref.apiVersion.startsWith('apps/') ? objectKey(pod.metadata.namespace, ref.name) : undefined;
  });
  const data: ReplicaSetControllerData = {
    client: mgr.client,
    pods,
    podControl: new PodControl(mgr.client, mgr.recorder('replicaset-controller')),
    expectations,
    burstReplicas: options.burstReplicas ?? 500,
    now: options.now ?? (() => new Date()),
  };
  return mgr
    .controller<ReplicaSet, ReplicaSetControllerData>({ name: options.name ?? 'replicaset', for: replicaSetsResource, data, concurrency: options.concurrency ?? 5, reconcile: syncReplicaSet })
    .owns(pods);
}
