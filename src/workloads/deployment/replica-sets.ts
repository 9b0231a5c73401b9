// Reading a Deployment's ReplicaSets (deploymentutil and controller helpers): which one is new, orderings, counts.
import type { Deployment, ReplicaSet } from '../../apimachinery/api/index.ts';
import { desiredReplicasOf, revisionOf } from './annotations.ts';
import { equalIgnoringHash } from './template-hash.ts';

function created(rs: ReplicaSet): number {
  const t = Date.parse(rs.metadata.creationTimestamp ?? '');
  return Number.isNaN(t) ? 0 : t;
}

/** ReplicaSetsByCreationTimestamp: oldest first, then by name. */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  return created(a) - created(b) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}

/** ReplicaSetsBySizeNewer / BySizeOlder: larger first, then newer (or older) first. */
export function bySize(newerFirst: boolean): (a: ReplicaSet, b: ReplicaSet) => number {
  return (a, b) => replicasOf(b) - replicasOf(a) || (newerFirst ? byCreation(b, a) : byCreation(a, b));
}

/** ReplicaSetsByRevision: lowest revision first. */
export function byRevision(a: ReplicaSet, b: ReplicaSet): number {
  return revisionOf(a) - revisionOf(b) || byCreation(a, b);
}

export function replicasOf(rs: ReplicaSet | undefined): number {
  return rs?.spec.replicas ?? 0;
}

/** FindNewReplicaSet: the oldest ReplicaSet whose template equals the Deployment's (the hash label aside). */
export function findNewReplicaSet(deployment: Deployment, replicaSets: readonly ReplicaSet[]): ReplicaSet | undefined {
  return [...replicaSets].sort(byCreation).find((rs) => equalIgnoringHash(rs.spec.template, deployment.spec.template));
}

export function activeReplicaSets(replicaSets: readonly (ReplicaSet | undefined)[]): ReplicaSet[] {
  return replicaSets.filter((rs): rs is ReplicaSet => rs !== undefined && replicasOf(rs) > 0);
}

/** Sum of spec.replicas. */
export function specReplicas(replicaSets: readonly (ReplicaSet | undefined)[]): number {
  return replicaSets.reduce((sum, rs) => sum + replicasOf(rs), 0);
}

type CountField = 'replicas' | 'readyReplicas' | 'availableReplicas';

/** Sum of a status count. */
export function statusReplicas(replicaSets: readonly (ReplicaSet | undefined)[], field: CountField): number {
  return replicaSets.reduce((sum, rs) => sum + (rs?.status?.[field] ?? 0), 0);
}

/** IsSaturated: the new ReplicaSet runs all the replicas, all available. */
export function isSaturated(deployment: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = deployment.spec.replicas ?? 1;
  return desiredReplicasOf(rs) === desired && replicasOf(rs) === desired && (rs.status?.availableReplicas ?? 0) === desired;
}

/** FindActiveOrLatest: the only active ReplicaSet, else the newest when none is active; undefined when several are. */
export function activeOrLatest(newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => byCreation(b, a));
  const active = activeReplicaSets([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  return active.length === 1 ? active[0] : undefined;
}
