// The PersistentVolume controller's two loops, after kube-controller-manager's syncClaim and syncVolume: a
// Pending claim is bound to a matching (or reserved) volume, both sides written (the volume's claimRef, then the
// claim's volumeName and bind annotations, then both phases Bound); a claim no volume matches waits for its
// class's provisioner (WaitForFirstConsumer: for a pod to choose a node). A volume whose claim is gone is
// Released; its reclaim policy is then its provisioner's business (local-path: the node deletes the directory).
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../apimachinery/api/index.ts';
import { objectKey } from '../../apimachinery/object.ts';
import { persistentVolumeClaimsResource, persistentVolumesResource } from '../../apimachinery/builtin-resources.ts';
import { SELECTED_NODE_ANNOTATION, STORAGE_PROVISIONER_ANNOTATION } from '../../apimachinery/storage-classes.ts';
import type { KubeClient } from '../../client/client.ts';
import { ignoreNotFound } from '../../client/errors.ts';
import type { Action, EventRecorder, Informer, ReconcileContext, StatusWriter } from '../../runtime/index.ts';
import { action } from '../../runtime/index.ts';
import { matchingVolume, reservedFor } from './matching.ts';

export interface VolumeBindingData {
  client: KubeClient;
  recorder: EventRecorder;
  claims: Informer<PersistentVolumeClaim>;
  volumes: Informer<PersistentVolume>;
  classes: Informer<StorageClass>;
  claimStatus: StatusWriter<PersistentVolumeClaim>;
  volumeStatus: StatusWriter<PersistentVolume>;
}

const BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
const BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';


async function setClaimPhase(d: VolumeBindingData, claim: PersistentVolumeClaim, phase: string, volume: PersistentVolume | undefined, signal: AbortSignal): Promise<void> {
  await ignoreNotFound(
    d.claimStatus.write(
      claim,
      (draft) => {
        draft.status = phase === 'Bound' && volume ? { phase, accessModes: volume.spec.accessModes ?? [], capacity: volume.spec.capacity ?? {} } : { ...draft.status, phase };
      },
      { signal },
    ),
  );
}

async function setVolumePhase(d: VolumeBindingData, volume: PersistentVolume, phase: NonNullable<PersistentVolume['status']>['phase'], signal: AbortSignal): Promise<void> {
  if (volume.status?.phase === phase) return;
  await ignoreNotFound(d.volumeStatus.write(volume, (draft) => void (draft.status = { ...draft.status, phase }), { signal }));
}

/** A claim with no volume: what it waits for, said once per sync as the upstream controller does. */
async function waitForVolume(d: VolumeBindingData, claim: PersistentVolumeClaim, signal: AbortSignal): Promise<Action> {
  const className = claim.spec?.storageClassName ?? '';
  const storageClass = className === '' ? undefined : d.classes.get(className);
  const annotations = claim.metadata.annotations ?? {};
  if (storageClass === undefined) {
    const message = className === '' ? 'no persistent volumes available for this claim and no storage class is set' : `storageclass.storage.k8s.io "${className}" not found`;
    void d.recorder.event(claim, 'Warning', 'ProvisioningFailed', message);
  } else if (storageClass.volumeBindingMode === 'WaitForFirstConsumer' && annotations[SELECTED_NODE_ANNOTATION] === undefined) {
    void d.recorder.event(claim, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
  } else {
    if (annotations[STORAGE_PROVISIONER_ANNOTATION] !== storageClass.provisioner) {
      const patch = { metadata: { annotations: { [STORAGE_PROVISIONER_ANNOTATION]: storageClass.provisioner } } };
      await ignoreNotFound(d.client.patch(persistentVolumeClaimsResource, claim.metadata.name ?? '', patch, { type: 'merge', namespace: claim.metadata.namespace ?? '', signal }));
    }
    void d.recorder.event(
      claim,
      'Normal',
      'ExternalProvisioning',
      `Waiting for a volume to be created either by the external provisioner '${storageClass.provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
    );
  }
  if (claim.status?.phase !== 'Pending') await setClaimPhase(d, claim, 'Pending', undefined, signal);
  return action.awaitChange();
}

export async function syncClaim(claim: PersistentVolumeClaim, ctx: ReconcileContext<VolumeBindingData>): Promise<Action> {
  const d = ctx.data;
  const signal = ctx.signal;
  if (claim.metadata.deletionTimestamp) return action.awaitChange();
  const name = claim.metadata.name ?? '';
  const namespace = claim.metadata.namespace ?? '';
  const volumeName = claim.spec?.volumeName ?? '';
  let volume: PersistentVolume | undefined;
  if (volumeName !== '') {
    volume = d.volumes.get(volumeName);
    if (volume === undefined) {
      // The claim was bound and its volume is gone: Lost, as upstream; otherwise it waits for the named volume.
      if (claim.status?.phase === 'Bound') {
        void d.recorder.event(claim, 'Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
        await setClaimPhase(d, claim, 'Lost', undefined, signal);
      }
      return action.awaitChange();
    }
    if (volume.spec.claimRef !== undefined && !reservedFor(volume, claim)) return action.awaitChange();
  } else {
    volume = matchingVolume(d.volumes.list(), claim);
    if (volume === undefined) return waitForVolume(d, claim, signal);
  }
  const claimRef = { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace, name, uid: claim.metadata.uid ?? '', resourceVersion: claim.metadata.resourceVersion ?? '' };
  if (volume.spec.claimRef?.uid !== claim.metadata.uid) {
    const stored = await ignoreNotFound(d.client.patch<PersistentVolume>(persistentVolumesResource, volume.metadata.name ?? '', { spec: { claimRef } }, { type: 'merge', signal }));
    if (stored === undefined) return action.awaitChange();
    volume = stored;
  }
  await setVolumePhase(d, volume, 'Bound', signal);
  if (volumeName === '' || claim.metadata.annotations?.[BIND_COMPLETED] !== 'yes') {
    const patch = { metadata: { annotations: { [BIND_COMPLETED]: 'yes', ...(volumeName === '' ? { [BOUND_BY_CONTROLLER]: 'yes' } : {}) } }, spec: { volumeName: volume.metadata.name } };
    const stored = await ignoreNotFound(d.client.patch<PersistentVolumeClaim>(persistentVolumeClaimsResource, name, patch, { type: 'merge', namespace, signal }));
    if (stored === undefined) return action.awaitChange();
    claim = stored;
  }
  if (claim.status?.phase !== 'Bound') await setClaimPhase(d, claim, 'Bound', volume, signal);
  return action.awaitChange();
}

export async function syncVolume(volume: PersistentVolume, ctx: ReconcileContext<VolumeBindingData>): Promise<Action> {
  const d = ctx.data;
  if (volume.metadata.deletionTimestamp) return action.awaitChange();
  const ref = volume.spec.claimRef;
  if (ref === undefined) {
    await setVolumePhase(d, volume, 'Available', ctx.signal);
    return action.awaitChange();
  }
  const claim = d.claims.get(ref.name ?? '', ref.namespace ?? '');
  const reservedOnly = ref.uid === undefined || ref.uid === '';
  if (claim === undefined || (!reservedOnly && claim.metadata.uid !== ref.uid)) {
    // A volume reserved for a claim not made yet stays Available; one whose bound claim went is Released.
    await setVolumePhase(d, volume, reservedOnly ? 'Available' : 'Released', ctx.signal);
    return action.awaitChange();
  }
  if (claim.spec?.volumeName === volume.metadata.name) await setVolumePhase(d, volume, 'Bound', ctx.signal);
  return action.awaitChange();
}

export function claimKeysOf(volume: PersistentVolume, claims: Informer<PersistentVolumeClaim>): string[] {
  const ref = volume.spec.claimRef;
  if (ref !== undefined) return [objectKey(ref.namespace, ref.name ?? '')];
  // A free volume may suit any claim still waiting.
  return claims
    .list()
    .filter((c) => (c.spec?.volumeName ?? '') === '')
    .map((c) => objectKey(c.metadata.namespace, c.metadata.name ?? ''));
}
