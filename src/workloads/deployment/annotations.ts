// The deployment.kubernetes.io annotations: revisions (which kubectl rollout history and undo read) and the
// replica counts proportional scaling needs (deploymentutil).
import type { Deployment, ReplicaSet } from '../../apimachinery/api/index.ts';
import { maxSurge } from './fenceposts.ts';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';

/** Deployment annotations a ReplicaSet does not inherit. */
const notCopied = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  'deprecated.deployment.rollback.to',
]);

/** The default limit of the revision-history annotation, in characters. */
const maxRevisionHistoryChars = 2000;

/** The ReplicaSet's revision; 0 when it has none (or a malformed one). */
export function revisionOf(rs: ReplicaSet): number {
  const value = rs.metadata.annotations?.[REVISION_ANNOTATION];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : 0;
}

export function maxRevision(replicaSets: readonly ReplicaSet[]): number {
  return replicaSets.reduce((max, rs) => Math.max(max, revisionOf(rs)), 0);
}

function intAnnotation(rs: ReplicaSet, key: string): number | undefined {
  const value = rs.metadata.annotations?.[key];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

export function desiredReplicasOf(rs: ReplicaSet): number | undefined {
  return intAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
}

export function maxReplicasOf(rs: ReplicaSet): number | undefined {
  return intAnnotation(rs, MAX_REPLICAS_ANNOTATION);
}

/** SetReplicasAnnotations: records the deployment's replicas and replicas + maxSurge; true when changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const annotations = (rs.metadata.annotations ??= {});
  const changed = annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || annotations[MAX_REPLICAS_ANNOTATION] !== String(max);
  annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
  annotations[MAX_REPLICAS_ANNOTATION] = String(max);
  return changed;
}

/**
 * SetNewReplicaSetAnnotations: copy the deployment's own annotations, raise the revision to newRevision (a
 * rollback to this ReplicaSet keeps its previous revisions in revision-history), and on creation record the
 * replica annotations. True when anything changed.
 */
export function setNewReplicaSetAnnotations(deployment: Deployment, rs: ReplicaSet, newRevision: number, exists: boolean): boolean {
  const annotations = (rs.metadata.annotations ??= {});
  let changed = false;
  for (const [key, value] of Object.entries(deployment.metadata.annotations ?? {})) {
    if (notCopied.has(key) || annotations[key] === value) continue;
    annotations[key] = value;
    changed = true;
  }
  const oldText = annotations[REVISION_ANNOTATION];
  if (oldText !== undefined && !/^\d+$/.test(oldText)) return changed;
  const oldRevision = oldText === undefined ? 0 : Number(oldText);
  if (oldRevision < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (oldText !== undefined) {
      const history = annotations[REVISION_HISTORY_ANNOTATION];
      const revisions = history ? history.split(',') : [];
      revisions.push(oldText);
      while (revisions.join(',').length > maxRevisionHistoryChars && revisions.length > 1) revisions.shift();
      annotations[REVISION_HISTORY_ANNOTATION] = revisions.join(',');
    }
  }
  if (!exists && setReplicasAnnotations(rs, deployment.spec.replicas ?? 1, (deployment.spec.replicas ?? 1) + maxSurge(deployment))) changed = true;
  return changed;
}
