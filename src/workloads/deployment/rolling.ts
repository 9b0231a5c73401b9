// The RollingUpdate strategy (rolling.go): grow the new ReplicaSet within maxSurge, shrink old ones while at least
// replicas − maxUnavailable stay available (unhealthy old replicas go first), one step per sync; every ReplicaSet
// change brings the next sync.
import type { ReplicaSet } from '../../apimachinery/api/index.ts';
import { cleanupOldReplicaSets } from './cleanup.ts';
import type { DeploymentSync } from './context.ts';
import { maxUnavailable } from './fenceposts.ts';
import { activeReplicaSets, byCreation, replicasOf, specReplicas, statusReplicas } from './replica-sets.ts';
import { deploymentComplete, calculateStatus, syncRolloutStatus } from './rollout-status.ts';

export async function rolloutRolling(sync: DeploymentSync): Promise<number | undefined> {
  const { newRS, oldRSs } = await sync.newAndOld(true);
  let current = newRS;
  if (current && (await reconcileNewReplicaSet(sync, current, oldRSs))) return syncRolloutStatus(sync, [...oldRSs, latest(sync, current)], latest(sync, current));
  current = current && latest(sync, current);
  if (current && (await reconcileOldReplicaSets(sync, current, activeReplicaSets(oldRSs)))) {
    const olds = oldRSs.map((rs) => latest(sync, rs));
    return syncRolloutStatus(sync, [...olds, current], current);
  }
  if (deploymentComplete(sync, calculateStatus(sync, [...oldRSs, current], current))) await cleanupOldReplicaSets(sync, oldRSs);
  return syncRolloutStatus(sync, [...oldRSs, current], current);
}

/** The ReplicaSet as last written in this sync. */
function latest(sync: DeploymentSync, rs: ReplicaSet): ReplicaSet {
  return sync.replicaSets.find((r) => r.metadata.uid === rs.metadata.uid) ?? rs;
}

async function reconcileNewReplicaSet(sync: DeploymentSync, newRS: ReplicaSet, oldRSs: readonly ReplicaSet[]): Promise<boolean> {
  if (replicasOf(newRS) === sync.replicas) return false;
  if (replicasOf(newRS) > sync.replicas) return (await sync.scale(newRS, sync.replicas)).scaled;
  return (await sync.scale(newRS, sync.newReplicaSetReplicas(newRS, [...oldRSs, newRS]))).scaled;
}

async function reconcileOldReplicaSets(sync: DeploymentSync, newRS: ReplicaSet, oldRSs: ReplicaSet[]): Promise<boolean> {
  if (specReplicas(oldRSs) === 0) return false;
  const minAvailable = sync.replicas - maxUnavailable(sync.deployment);
  const newUnavailable = replicasOf(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = specReplicas([...oldRSs, newRS]) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return false;
  const { cleaned, remaining } = await cleanupUnhealthyReplicas(sync, oldRSs, maxScaledDown);
  const scaledDown = await scaleDownOldReplicaSets(sync, [...remaining, newRS], remaining);
  return cleaned + scaledDown > 0;
}

/** Old replicas that are not available cost availability nothing: remove them first, up to maxCleanup. */
async function cleanupUnhealthyReplicas(sync: DeploymentSync, oldRSs: ReplicaSet[], maxCleanup: number): Promise<{ cleaned: number; remaining: ReplicaSet[] }> {
  let cleaned = 0;
  const remaining: ReplicaSet[] = [];
  for (const rs of [...oldRSs].sort(byCreation)) {
    const unhealthy = replicasOf(rs) - (rs.status?.availableReplicas ?? 0);
    if (cleaned >= maxCleanup || replicasOf(rs) === 0 || unhealthy <= 0) {
      remaining.push(rs);
      continue;
    }
    const count = Math.min(maxCleanup - cleaned, unhealthy);
    remaining.push((await sync.scale(rs, replicasOf(rs) - count)).rs);
    cleaned += count;
  }
  return { cleaned, remaining };
}

/** Scale old ReplicaSets down, oldest first, as far as availability above replicas − maxUnavailable allows. */
async function scaleDownOldReplicaSets(sync: DeploymentSync, allRSs: ReplicaSet[], oldRSs: ReplicaSet[]): Promise<number> {
  const minAvailable = sync.replicas - maxUnavailable(sync.deployment);
  const available = statusReplicas(allRSs, 'availableReplicas');
  if (available <= minAvailable) return 0;
  const total = available - minAvailable;
  let scaledDown = 0;
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (scaledDown >= total) break;
    if (replicasOf(rs) === 0) continue;
    const count = Math.min(replicasOf(rs), total - scaledDown);
    await sync.scale(rs, replicasOf(rs) - count);
    scaledDown += count;
  }
  return scaledDown;
}
