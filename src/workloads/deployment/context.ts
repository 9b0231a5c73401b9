// One sync of one Deployment: the Deployment as last written, its ReplicaSets, and the writes the strategies
// share (deploymentutil and the controller's sync.go): finding or creating the new ReplicaSet with its revision,
// scaling a ReplicaSet with its ScalingReplicaSet Event, and status writes.
//
// Writes carry the resourceVersion last seen and are not retried on conflict: they were computed from that
// version, so a conflict means the cache was stale and the sync runs again.
import type { KubeClient } from '../../client/client.ts';
import { AlreadyExistsError } from '../../client/errors.ts';
import type { EventRecorder, EventType, Informer } from '../../runtime/index.ts';
import { updateStatus } from '../../runtime/index.ts';
import { deploymentsResource, replicaSetsResource } from '../../apimachinery/builtin-resources.ts';
import type { Deployment, DeploymentStatus, Pod, ReplicaSet } from '../../apimachinery/api/index.ts';
import { controllerOf, controllerRefTo } from '../pods/owner.ts';
import { maxRevision, REVISION_ANNOTATION, setNewReplicaSetAnnotations, setReplicasAnnotations } from './annotations.ts';
import {
  DEPLOYMENT_PROGRESSING,
  getDeploymentCondition,
  newDeploymentCondition,
  REASON_FAILED_RS_CREATE,
  REASON_FOUND_NEW_RS,
  REASON_NEW_RS_CREATED,
  setDeploymentCondition,
} from './conditions.ts';
import { maxSurge, scaledValue } from './fenceposts.ts';
import { findNewReplicaSet, replicasOf, specReplicas } from './replica-sets.ts';
import { computeHash, equalIgnoringHash, POD_TEMPLATE_HASH_LABEL } from './template-hash.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

export interface DeploymentControllerData {
  client: KubeClient;
  recorder: EventRecorder;
  replicaSets: Informer<ReplicaSet>;
  pods: Informer<Pod>;
  now(): Date;
}

export class DeploymentSync {
  readonly data: DeploymentControllerData;
  readonly signal: AbortSignal;
  /** The Deployment as last written (or read). */
  deployment: Deployment;
  /** Its ReplicaSets, as last written. */
  replicaSets: ReplicaSet[];

  constructor(data: DeploymentControllerData, deployment: Deployment, replicaSets: ReplicaSet[], signal: AbortSignal) {
    this.data = data;
    this.deployment = deployment;
    this.replicaSets = replicaSets;
    this.signal = signal;
  }

  get replicas(): number {
    return this.deployment.spec.replicas ?? 1;
  }

  hasProgressDeadline(): boolean {
    const deadline = this.deployment.spec.progressDeadlineSeconds;
    return deadline !== undefined && deadline !== 2147483647;
  }

  event(type: EventType, reason: string, message: string): void {
    void this.data.recorder.event(this.deployment, type, reason, message);
  }

  /** Writes the status when it differs. */
  async writeStatus(status: DeploymentStatus): Promise<void> {
    this.deployment = await updateStatus<Deployment>(this.data.client, deploymentsResource, this.deployment, (draft) => void (draft.status = structuredClone(status)), {
      attempts: 1,
      signal: this.signal,
    });
  }

  /** SetDeploymentRevision, persisted: kubectl reads the Deployment's revision annotation. */
  async setRevision(revision: string): Promise<void> {
    if (this.deployment.metadata.annotations?.[REVISION_ANNOTATION] === revision) return;
    const meta = this.deployment.metadata;
    this.deployment = await this.data.client.patch<Deployment>(deploymentsResource, meta.name ?? '', { metadata: { resourceVersion: meta.resourceVersion, annotations: { [REVISION_ANNOTATION]: revision } } }, {
      type: 'merge',
      namespace: meta.namespace ?? '',
      signal: this.signal,
    });
  }

  private replace(rs: ReplicaSet): ReplicaSet {
    this.replicaSets = [...this.replicaSets.filter((r) => r.metadata.uid !== rs.metadata.uid), rs];
    return rs;
  }

  async updateReplicaSet(rs: ReplicaSet): Promise<ReplicaSet> {
    return this.replace(await this.data.client.update<ReplicaSet>(replicaSetsResource, rs, { signal: this.signal }));
  }

  /**
   * scaleReplicaSetAndRecordEvent: sets spec.replicas and the replica annotations; an Event when the size
   * changed. Returns whether it scaled, and the ReplicaSet as written.
   */
  async scale(rs: ReplicaSet, newScale: number): Promise<{ scaled: boolean; rs: ReplicaSet }> {
    const oldScale = replicasOf(rs);
    const copy = structuredClone(rs);
    copy.spec.replicas = newScale;
    const annotationsChanged = setReplicasAnnotations(copy, this.replicas, this.replicas + maxSurge(this.deployment));
    if (oldScale === newScale && !annotationsChanged) return { scaled: false, rs };
    const written = await this.updateReplicaSet(copy);
    if (oldScale === newScale) return { scaled: false, rs: written };
    this.event('Normal', 'ScalingReplicaSet', `Scaled ${oldScale < newScale ? 'up' : 'down'} replica set ${rs.metadata.name ?? ''} from ${oldScale} to ${newScale}`);
    return { scaled: true, rs: written };
  }

  /** NewRSNewReplicas: how far the new ReplicaSet may grow now. */
  newReplicaSetReplicas(newRS: ReplicaSet, allRSs: readonly (ReplicaSet | undefined)[]): number {
    const d = this.deployment;
    if ((d.spec.strategy?.type ?? 'RollingUpdate') === 'Recreate') return this.replicas;
    const surge = scaledValue(d.spec.strategy?.rollingUpdate?.maxSurge ?? '25%', this.replicas, true);
    const maxTotal = this.replicas + surge;
    const current = specReplicas(allRSs);
    if (current >= maxTotal) return replicasOf(newRS);
    return replicasOf(newRS) + Math.min(maxTotal - current, this.replicas - replicasOf(newRS));
  }

  /**
   * getAllReplicaSetsAndSyncRevision: the new ReplicaSet (created when asked and missing) and the old ones. The
   * new one's revision becomes max(old revisions) + 1, which is also how `kubectl rollout undo` makes an old
   * ReplicaSet new again.
   */
  async newAndOld(createIfMissing: boolean): Promise<{ newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] }> {
    const existing = findNewReplicaSet(this.deployment, this.replicaSets);
    const oldRSs = this.replicaSets.filter((rs) => rs !== existing);
    const newRevision = maxRevision(oldRSs) + 1;
    if (existing) return { newRS: await this.syncExistingNew(existing, newRevision), oldRSs };
    if (!createIfMissing) return { newRS: undefined, oldRSs };
    return { newRS: await this.createNew(oldRSs, newRevision), oldRSs };
  }

  private async syncExistingNew(existing: ReplicaSet, newRevision: number): Promise<ReplicaSet> {
    const d = this.deployment;
    const copy = structuredClone(existing);
    const annotationsChanged = setNewReplicaSetAnnotations(d, copy, newRevision, true);
    const minReadyChanged = (copy.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0);
    if (annotationsChanged || minReadyChanged) {
      copy.spec.minReadySeconds = d.spec.minReadySeconds ?? 0;
      return this.updateReplicaSet(copy);
    }
    await this.setRevision(copy.metadata.annotations?.[REVISION_ANNOTATION] ?? '');
    if (this.hasProgressDeadline() && !getDeploymentCondition(this.deployment.status, DEPLOYMENT_PROGRESSING)) {
      const status = structuredClone(this.deployment.status ?? {});
      setDeploymentCondition(status, newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'True', REASON_FOUND_NEW_RS, `Found new replica set "${copy.metadata.name ?? ''}"`, this.data.now()));
      await this.writeStatus(status);
    }
    return copy;
  }

  private async createNew(oldRSs: ReplicaSet[], newRevision: number): Promise<ReplicaSet> {
    const d = this.deployment;
    const hash = computeHash(d.spec.template, d.status?.collisionCount);
    const template = structuredClone(d.spec.template);
    const labels = { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
    template.metadata = { ...template.metadata, labels };
    const selector = structuredClone(d.spec.selector ?? {});
    selector.matchLabels = { ...selector.matchLabels, [POD_TEMPLATE_HASH_LABEL]: hash };
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name ?? ''}-${hash}`,
        namespace: d.metadata.namespace ?? '',
        ownerReferences: [controllerRefTo(d, 'apps/v1', 'Deployment')],
        labels,
      },
      spec: { replicas: 0, minReadySeconds: d.spec.minReadySeconds ?? 0, selector, template },
    };
    const replicas = this.newReplicaSetReplicas(rs, [...oldRSs, rs]);
    rs.spec.replicas = replicas;
    setNewReplicaSetAnnotations(d, rs, newRevision, false);
    let created: ReplicaSet;
    let alreadyExisted = false;
    try {
      created = await this.data.client.create<ReplicaSet>(replicaSetsResource, rs, { signal: this.signal });
    } catch (err) {
      if (err instanceof AlreadyExistsError) {
        // Our own ReplicaSet that the cache has not shown yet, or a hash collision: then count it and retry.
        const found = this.data.replicaSets.get(rs.metadata.name ?? '', rs.metadata.namespace);
        if (found && controllerOf(found)?.uid === d.metadata.uid && equalIgnoringHash(d.spec.template, found.spec.template)) {
          created = found;
          alreadyExisted = true;
        } else {
          await this.writeStatus({ ...structuredClone(d.status ?? {}), collisionCount: (d.status?.collisionCount ?? 0) + 1 });
          throw err;
        }
      } else {
        const message = `Failed to create new replica set "${rs.metadata.name ?? ''}": ${messageOf(err)}`;
        if (this.hasProgressDeadline()) {
          const status = structuredClone(d.status ?? {});
          setDeploymentCondition(status, newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'False', REASON_FAILED_RS_CREATE, message, this.data.now()));
          await this.writeStatus(status).catch(() => undefined);
        }
        this.event('Warning', REASON_FAILED_RS_CREATE, message);
        throw err;
      }
    }
    this.replace(created);
    if (!alreadyExisted && replicas > 0) this.event('Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name ?? ''} from 0 to ${replicas}`);
    await this.setRevision(String(newRevision));
    if (!alreadyExisted && this.hasProgressDeadline()) {
      const status = structuredClone(this.deployment.status ?? {});
      setDeploymentCondition(status, newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'True', REASON_NEW_RS_CREATED, `Created new replica set "${created.metadata.name ?? ''}"`, this.data.now()));
      await this.writeStatus(status);
    }
    return created;
  }
}
