// The resources the workload controllers read and write.
import type { ResourceRef } from '../../client/client.ts';

export const podsResource: ResourceRef = { group: '', version: 'v1', resource: 'pods', namespaced: true, kind: 'Pod' };
export const nodesResource: ResourceRef = { group: '', version: 'v1', resource: 'nodes', namespaced: false, kind: 'Node' };
export const leasesResource: ResourceRef = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', namespaced: true, kind: 'Lease' };
export const jobsResource: ResourceRef = { group: 'batch', version: 'v1', resource: 'jobs', namespaced: true, kind: 'Job' };
export const deploymentsResource: ResourceRef = { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true, kind: 'Deployment' };
export const replicaSetsResource: ResourceRef = { group: 'apps', version: 'v1', resource: 'replicasets', namespaced: true, kind: 'ReplicaSet' };

/** Where kubelets keep their heartbeat Leases, one per node, named after it. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
