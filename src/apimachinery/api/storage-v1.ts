// storage.k8s.io/v1 StorageClass and core/v1 PersistentVolume: the classes claims name, and the volumes a
// binder matches them with (a provisioner makes one per claim).
import type { KubeObject } from '../object.ts';
import type { ObjectReference, ResourceList } from './core-v1.ts';

export interface StorageClass extends KubeObject {
  provisioner: string;
  parameters?: Record<string, string>;
  reclaimPolicy?: 'Delete' | 'Retain';
  volumeBindingMode?: 'Immediate' | 'WaitForFirstConsumer';
  allowVolumeExpansion?: boolean;
}

export interface PersistentVolumeSpec {
  capacity?: ResourceList;
  accessModes?: string[];
  claimRef?: ObjectReference;
  persistentVolumeReclaimPolicy?: 'Retain' | 'Delete' | 'Recycle';
  storageClassName?: string;
  volumeMode?: string;
  hostPath?: { path: string; type?: string };
  local?: { path: string };
  nodeAffinity?: { required?: { nodeSelectorTerms: { matchExpressions?: { key: string; operator: string; values?: string[] }[] }[] } };
}

export interface PersistentVolume extends KubeObject {
  spec: PersistentVolumeSpec;
  status?: { phase?: 'Pending' | 'Available' | 'Bound' | 'Released' | 'Failed'; message?: string; reason?: string };
}
