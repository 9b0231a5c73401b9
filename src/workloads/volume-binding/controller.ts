// Registers the PersistentVolume controller's claim and volume loops: a claim syncs when it, a volume or a
// class changes; a volume when it or the claim its claimRef names changes.
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../apimachinery/api/index.ts';
import { persistentVolumeClaimsResource, persistentVolumesResource, storageClassesResource } from '../../apimachinery/builtin-resources.ts';
import { objectKey } from '../../apimachinery/object.ts';
import type { Manager } from '../../runtime/index.ts';
import { statusWriter } from '../../runtime/index.ts';
import { claimKeysOf, syncClaim, syncVolume, type VolumeBindingData } from './sync.ts';

export interface VolumeBindingOptions {
  concurrency?: number;
}

export function registerVolumeBinding(mgr: Manager, options: VolumeBindingOptions = {}): void {
  const claims = mgr.informer<PersistentVolumeClaim>(persistentVolumeClaimsResource);
  const volumes = mgr.informer<PersistentVolume>(persistentVolumesResource);
  const classes = mgr.informer<StorageClass>(storageClassesResource);
  const data: VolumeBindingData = {
    client: mgr.client,
    recorder: mgr.recorder('persistentvolume-controller'),
    claims,
    volumes,
    classes,
    claimStatus: statusWriter<PersistentVolumeClaim>(mgr.client, persistentVolumeClaimsResource),
    volumeStatus: statusWriter<PersistentVolume>(mgr.client, persistentVolumesResource),
  };
  const concurrency = options.concurrency ?? 5;
  mgr
    .controller<PersistentVolumeClaim, VolumeBindingData>({ name: 'persistentvolumeclaim-binder', for: persistentVolumeClaimsResource, data, concurrency, reconcile: syncClaim })
    .watches(volumes, (volume) => claimKeysOf(volume, claims))
    .watches(classes, (storageClass) =>
      claims
        .list()
        .filter((c) => c.spec?.storageClassName === storageClass.metadata.name && (c.spec?.volumeName ?? '') === '')
        .map((c) => objectKey(c.metadata.namespace, c.metadata.name ?? '')),
    );
  mgr
    .controller<PersistentVolume, VolumeBindingData>({ name: 'persistentvolume-binder', for: persistentVolumesResource, data, concurrency, reconcile: syncVolume })
    .watches(claims, (claim) =>
      volumes
        .list()
        .filter((v) => v.spec.claimRef?.namespace === claim.metadata.namespace && v.spec.claimRef?.name === claim.metadata.name)
        .map((v) => v.metadata.name ?? ''),
    );
}
