// The Recreate strategy (recreate.go): scale every old ReplicaSet to 0, wait until none of their pods runs, then
// create or scale up the new ReplicaSet. Old pods going away wake the Deployment (see the pod watch).
import { OWNER_INDEX } from '../../runtime/index.ts';
import type { ReplicaSet } from '../../apimachinery/api/index.ts';
import { isPodTerminal } from '../pods/pod-state.ts';
import { cleanupOldReplicaSets } from './cleanup.ts';
import type { DeploymentSync } from './context.ts';
import { activeReplicaSets, statusReplicas } from './replica-sets.ts';
import { calculateStatus, deploymentComplete, syncRolloutStatus } from './rollout-status.ts';

export async function rolloutRecreate(sync: DeploymentSync): Promise<number | undefined> {
  const found = await sync.newAndOld(false);
  let newRS = found.newRS;
  const oldRSs = found.oldRSs;
  let scaledDown = false;
  for (const rs of activeReplicaSets(oldRSs)) if ((await sync.scale(rs, 0)).scaled) scaledDown = true;
  if (scaledDown) return syncRolloutStatus(sync, [...oldRSs, newRS], newRS);
  if (oldPodsRunning(sync, newRS, oldRSs)) return syncRolloutStatus(sync, [...oldRSs, newRS], newRS);
  newRS ??= (await sync.newAndOld(true)).newRS;
  if (newRS) newRS = (await sync.scale(newRS, sync.replicas)).rs;
  if (deploymentComplete(sync, calculateStatus(sync, [...oldRSs, newRS], newRS))) await cleanupOldReplicaSets(sync, oldRSs);
  return syncRolloutStatus(sync, [...oldRSs, newRS], newRS);
}

/** An old ReplicaSet still reports replicas, or one of its pods has not terminated. */
function oldPodsRunning(sync: DeploymentSync, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): boolean {
  if (statusReplicas(oldRSs, 'replicas') > 0) return true;
  for (const rs of oldRSs) {
    if (rs.metadata.uid === newRS?.metadata.uid) continue;
    if (sync.data.pods.byIndex(OWNER_INDEX, rs.metadata.uid ?? '').some((pod) => !isPodTerminal(pod))) return true;
  }
  return false;
}
