// One sync of a ReplicaSet, after kube-controller-manager's replicaset controller (syncReplicaSet, manageReplicas,
// calculateStatus): claim the active pods the selector matches, create or delete pods towards spec.replicas
// (slow-start batches, the pods least far along deleted first), and report replicas, fullyLabeledReplicas,
// readyReplicas, availableReplicas (Ready for minReadySeconds), observedGeneration and ReplicaFailure.
import { fromLabelSelectorObject, LabelSelectorError, matchesLabels } from '../../apimachinery/label-selector.ts';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { Action, Informer, ReconcileContext } from '../../runtime/index.ts';
import {
  action,
  getCondition,
  removeCondition,
  setCondition,
  TerminalError,
  updateStatus,
} from '../../runtime/index.ts';
import { podsResource, replicaSetsResource } from '../../apimachinery/builtin-resources.ts';
import type { Pod, ReplicaSet, ReplicaSetStatus } from '../../apimachinery/api/index.ts';
import { claim } from '../pods/claim.ts';
import { podsToDelete } from '../pods/deletion-order.ts';
import type { Expectations } from '../pods/expectations.ts';
import { controllerRefTo } from '../pods/owner.ts';
import { podFromTemplate, type PodControl } from '../pods/pod-control.ts';
import { isPodActive, isPodReady, nextPodAvailability, podAvailableAt } from '../pods/pod-state.ts';
import { slowStartBatch } from '../pods/slow-start.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

export interface ReplicaSetControllerData {
  client: KubeClient;
  pods: Informer<Pod>;
  podControl: PodControl;
  expectations: Expectations;
  /** Pods created or deleted in one sync at most (burstReplicas); default 500. */
  burstReplicas: number;
  now(): Date;
}

export const REPLICA_FAILURE = 'ReplicaFailure';

export async function syncReplicaSet(rs: ReplicaSet, ctx: ReconcileContext<ReplicaSetControllerData>): Promise<Action> {
  const d = ctx.data;
  const key = ctx.key;
  let selector;
  try {
    selector = fromLabelSelectorObject(rs.spec.selector ?? {});
  } catch (err) {
    if (err instanceof LabelSelectorError) throw new TerminalError(`replicaset ${key}: invalid selector: ${err.message}`, { cause: err });
    throw err;
  }
  if (selector.length === 0) throw new TerminalError(`replicaset ${key} has an empty selector: it would select every pod`);
  const satisfied = d.expectations.satisfied(key);
  const pods = await claim(d.pods.list(rs.metadata.namespace ?? '').filter(isPodActive), {
    client: d.client,
    resource: podsResource,
    ownerResource: replicaSetsResource,
    owner: rs,
    ref: controllerRefTo(rs, 'apps/v1', 'ReplicaSet'),
    selector,
  });
  let manageError: unknown;
  if (satisfied && rs.metadata.deletionTimestamp === undefined) manageError = await manageReplicas(d, rs, key, pods);

  const now = d.now().getTime();
  const status = calculateStatus(rs, pods, manageError, now);
  try {
    await updateStatus<ReplicaSet>(d.client, replicaSetsResource, rs, (draft) => {
      draft.status = { ...structuredClone(status), observedGeneration: draft.metadata.generation ?? rs.metadata.generation ?? 0 };
    }, { signal: ctx.signal });
  } catch (err) {
    if (err instanceof NotFoundError) return action.awaitChange();
    throw err;
  }
  if (manageError !== undefined) throw manageError;
  // Wake up when the next ready pod has been ready for minReadySeconds: it then counts as available.
  const next = nextPodAvailability(pods, rs.spec.minReadySeconds ?? 0, now);
  return next !== undefined ? action.requeueAfter(next - now) : action.awaitChange();
}

async function manageReplicas(d: ReplicaSetControllerData, rs: ReplicaSet, key: string, pods: Pod[]): Promise<unknown> {
  const diff = pods.length - (rs.spec.replicas ?? 1);
  if (diff < 0) {
    const count = Math.min(-diff, d.burstReplicas);
    const ref = controllerRefTo(rs, 'apps/v1', 'ReplicaSet');
    d.expectations.expectCreations(key, count);
    const result = await slowStartBatch(count, async () => {
      await d.podControl.create(rs, podFromTemplate(rs.spec.template, rs.metadata.namespace ?? '', ref, `${rs.metadata.name ?? ''}-`));
    });
    for (let i = result.succeeded; i < count; i++) d.expectations.creationObserved(key);
    return result.errors[0];
  }
  if (diff > 0) {
    const victims = podsToDelete(pods, Math.min(diff, d.burstReplicas));
    d.expectations.expectDeletions(key, victims.length);
    const errors: unknown[] = [];
    await Promise.all(
      victims.map(async (pod) => {
        try {
          if (!(await d.podControl.delete(rs, pod))) d.expectations.deletionObserved(key);
        } catch (err) {
          d.expectations.deletionObserved(key);
          errors.push(err);
        }
      }),
    );
    return errors[0];
  }
  return undefined;
}

function calculateStatus(rs: ReplicaSet, pods: readonly Pod[], manageError: unknown, now: number): ReplicaSetStatus {
  const status: ReplicaSetStatus = structuredClone(rs.status ?? { replicas: 0 });
  const templateLabels = rs.spec.template.metadata?.labels ?? {};
  const templateSelector = Object.entries(templateLabels).map(([k, v]) => ({ key: k, op: 'in' as const, values: [v] }));
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of pods) {
    if (matchesLabels(templateSelector, pod.metadata.labels)) fullyLabeled++;
    if (!isPodReady(pod)) continue;
    ready++;
    const at = podAvailableAt(pod, rs.spec.minReadySeconds ?? 0);
    if (at !== undefined && at <= now) available++;
  }
  const conditions = (status.conditions ??= []);
  if (manageError !== undefined && !getCondition(conditions, REPLICA_FAILURE)) {
    const diff = pods.length - (rs.spec.replicas ?? 1);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    setCondition(conditions, { type: REPLICA_FAILURE, status: 'True', reason, message: messageOf(manageError) });
  } else if (manageError === undefined) removeCondition(conditions, REPLICA_FAILURE);
  if (conditions.length === 0) delete status.conditions;
  status.replicas = pods.length;
  status.fullyLabeledReplicas = fullyLabeled;
  status.readyReplicas = ready;
  status.availableReplicas = available;
  return status;
}
