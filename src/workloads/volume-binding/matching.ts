// Which PersistentVolume a claim may bind to, after the PV controller's findMatchingVolume: one that is free (or
// reserved for this claim by its claimRef), of the claim's class and volume mode, offering every access mode the
// claim asks for and at least its requested storage; the smallest such volume wins.
import type { PersistentVolume, PersistentVolumeClaim } from '../../apimachinery/api/index.ts';
import { parseQuantity } from '../../apimachinery/quantity.ts';

export function reservedFor(volume: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = volume.spec.claimRef;
  if (ref === undefined) return false;
  return ref.namespace === claim.metadata.namespace && ref.name === claim.metadata.name && (ref.uid === undefined || ref.uid === '' || ref.uid === claim.metadata.uid);
}

function capacity(volume: PersistentVolume): number {
  const storage = volume.spec.capacity?.['storage'];
  return storage === undefined ? 0 : parseQuantity(String(storage));
}

function fits(volume: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const spec = claim.spec ?? {};
  if ((volume.spec.storageClassName ?? '') !== (spec.storageClassName ?? '')) return false;
  if ((volume.spec.volumeMode ?? 'Filesystem') !== (spec.volumeMode ?? 'Filesystem')) return false;
  const offered = volume.spec.accessModes ?? [];
  if (!(spec.accessModes ?? []).every((mode) => offered.includes(mode))) return false;
  const requested = spec.resources?.requests?.['storage'];
  return requested === undefined || capacity(volume) >= parseQuantity(String(requested));
}

export function matchingVolume(volumes: readonly PersistentVolume[], claim: PersistentVolumeClaim): PersistentVolume | undefined {
  const reserved = volumes.find((v) => !v.metadata.deletionTimestamp && reservedFor(v, claim));
  if (reserved !== undefined) return reserved;
  return volumes
    .filter((v) => !v.metadata.deletionTimestamp && v.spec.claimRef === undefined && (v.status?.phase ?? 'Available') === 'Available' && fits(v, claim))
    .sort((a, b) => capacity(a) - capacity(b))[0];
}
