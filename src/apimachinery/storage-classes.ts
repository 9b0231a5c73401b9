// The names storage shares across the API server, the volume binder and the node's provisioner: the default
// StorageClass k3s ships (rancher local-path-provisioner's `local-path`) and the annotations that carry a claim
// from admission to a bound volume.
import type { StorageClass } from './api/index.ts';

export const LOCAL_PATH_PROVISIONER = 'rancher.io/local-path';
/** The class a claim without storageClassName gets (the DefaultStorageClass admission plugin). */
export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
/** Set on a WaitForFirstConsumer claim once a pod using it has a node: where to provision. */
export const SELECTED_NODE_ANNOTATION = 'volume.kubernetes.io/selected-node';
/** Set on a claim a provisioner is asked to provision. */
export const STORAGE_PROVISIONER_ANNOTATION = 'volume.kubernetes.io/storage-provisioner';
/** Set on a PersistentVolume its provisioner made. */
export const PROVISIONED_BY_ANNOTATION = 'pv.kubernetes.io/provisioned-by';

export const localPathStorageClass: StorageClass = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'local-path', annotations: { [DEFAULT_CLASS_ANNOTATION]: 'true' } },
  provisioner: LOCAL_PATH_PROVISIONER,
  reclaimPolicy: 'Delete',
  volumeBindingMode: 'WaitForFirstConsumer',
};

export function isDefaultClass(storageClass: StorageClass): boolean {
  return storageClass.metadata.annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true';
}
