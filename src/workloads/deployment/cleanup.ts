// cleanupDeployment: old ReplicaSets beyond revisionHistoryLimit are deleted, oldest revision first, once they
// run nothing. They are what `kubectl rollout undo` can go back to.
import { NotFoundError } from '../../client/errors.ts';
import { replicaSetsResource } from '../../apimachinery/builtin-resources.ts';
import type { ReplicaSet } from '../../apimachinery/api/index.ts';
import type { DeploymentSync } from './context.ts';
import { byRevision } from './replica-sets.ts';

export async function cleanupOldReplicaSets(sync: DeploymentSync, oldRSs: readonly ReplicaSet[]): Promise<void> {
  const limit = sync.deployment.spec.revisionHistoryLimit ?? 10;
  const cleanable = oldRSs.filter((rs) => rs.metadata.deletionTimestamp === undefined).sort(byRevision);
  const excess = cleanable.length - limit;
  for (const rs of cleanable.slice(0, Math.max(0, excess))) {
    if ((rs.status?.replicas ?? 0) !== 0 || (rs.spec.replicas ?? 0) !== 0 || (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
    try {
      await sync.data.client.delete(replicaSetsResource, rs.metadata.name ?? '', { namespace: rs.metadata.namespace ?? '', preconditions: { uid: rs.metadata.uid ?? '' }, signal: sync.signal });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
}
