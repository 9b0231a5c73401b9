// Scaling a Deployment (sync.go's scale and sync): a Deployment whose replicas changed, or that is paused, is only
// resized. With one active ReplicaSet it gets all the replicas; a saturated new ReplicaSet empties the old ones;
// during a rolling update the replicas are spread over the active ReplicaSets in proportion to their size
// (GetProportion), the leftover going to the largest.
import type { ReplicaSet } from '../../apimachinery/api/index.ts';
import { maxReplicasOf } from './annotations.ts';
import { cleanupOldReplicaSets } from './cleanup.ts';
import type { DeploymentSync } from './context.ts';
import { maxSurge } from './fenceposts.ts';
import { activeOrLatest, activeReplicaSets, bySize, isSaturated, replicasOf, specReplicas } from './replica-sets.ts';
import { syncDeploymentStatus } from './rollout-status.ts';

export async function syncScaling(sync: DeploymentSync): Promise<void> {
  const { newRS, oldRSs } = await sync.newAndOld(false);
  await scale(sync, newRS, oldRSs);
  if (sync.deployment.spec.paused) await cleanupOldReplicaSets(sync, oldRSs);
  const latest = (rs: ReplicaSet): ReplicaSet => sync.replicaSets.find((r) => r.metadata.uid === rs.metadata.uid) ?? rs;
  const current = newRS && latest(newRS);
  await syncDeploymentStatus(sync, [...oldRSs.map(latest), current], current);
}

async function scale(sync: DeploymentSync, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): Promise<void> {
  const only = activeOrLatest(newRS, oldRSs);
  if (only) {
    if (replicasOf(only) !== sync.replicas) await sync.scale(only, sync.replicas);
    return;
  }
  if (isSaturated(sync.deployment, newRS)) {
    for (const rs of activeReplicaSets(oldRSs)) await sync.scale(rs, 0);
    return;
  }
  if ((sync.deployment.spec.strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return;
  const all = activeReplicaSets([...oldRSs, newRS]);
  const allowed = sync.replicas > 0 ? sync.replicas + maxSurge(sync.deployment) : 0;
  const toAdd = allowed - specReplicas(all);
  if (toAdd > 0) all.sort(bySize(true));
  else if (toAdd < 0) all.sort(bySize(false));
  let added = 0;
  const sizes = new Map<ReplicaSet, number>();
  for (const rs of all) {
    const proportion = toAdd === 0 ? 0 : proportionOf(sync, rs, toAdd, added);
    sizes.set(rs, replicasOf(rs) + proportion);
    added += proportion;
  }
  for (const [i, rs] of all.entries()) {
    let size = sizes.get(rs) ?? replicasOf(rs);
    if (i === 0 && toAdd !== 0) size = Math.max(0, size + toAdd - added);
    await sync.scale(rs, size);
  }
}

/** GetProportion: this ReplicaSet's share of the change, within what is still left to add (or remove). */
function proportionOf(sync: DeploymentSync, rs: ReplicaSet, toAdd: number, added: number): number {
  if (replicasOf(rs) === 0 || toAdd === added) return 0;
  const fraction = fractionOf(sync, rs);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/** getReplicaSetFraction: its size scaled from the Deployment size it was last sized for (max-replicas). */
function fractionOf(sync: DeploymentSync, rs: ReplicaSet): number {
  if (sync.replicas === 0) return -replicasOf(rs);
  const deploymentReplicas = sync.replicas + maxSurge(sync.deployment);
  const annotated = maxReplicasOf(rs) ?? sync.deployment.status?.replicas ?? 0;
  if (annotated === 0) return 0;
  // Go's math.Round: halves away from zero.
  const scaled = (replicasOf(rs) * deploymentReplicas) / annotated;
  return Math.sign(scaled) * Math.round(Math.abs(scaled)) - replicasOf(rs);
}
