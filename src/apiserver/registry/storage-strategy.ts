// StorageClasses, PersistentVolumes and PersistentVolumeClaims as kube-apiserver defaults and admits them:
// a class defaults to reclaimPolicy Delete and volumeBindingMode Immediate and may not change its provisioner,
// parameters, reclaim policy or binding mode; a volume defaults to Retain; a claim starts Pending, and one
// created without storageClassName gets the default class (the DefaultStorageClass admission plugin: the newest
// class annotated storageclass.kubernetes.io/is-default-class).
import { isDeepStrictEqual } from 'node:util';
import type { StorageClass } from '../../apimachinery/api/index.ts';
import type { KubeObject, StatusCause } from '../../apimachinery/object.ts';
import { isDefaultClass } from '../../apimachinery/storage-classes.ts';
import { newestDefault } from './newest-default.ts';
import type { ResourceType } from './resource-type.ts';
import { child } from './workload-strategies.ts';

type Strategy = Pick<ResourceType, 'prepareForCreate' | 'prepareForUpdate' | 'validate'>;

const IMMUTABLE_CLASS_FIELDS = ['provisioner', 'parameters', 'reclaimPolicy', 'volumeBindingMode'];

function defaultClass(object: KubeObject): void {
  object['reclaimPolicy'] ??= 'Delete';
  object['volumeBindingMode'] ??= 'Immediate';
}

export const storageClassStrategy: Strategy = {
  prepareForCreate: defaultClass,
  prepareForUpdate: defaultClass,
  validate(object, old) {
    const causes: StatusCause[] = [];
    if (typeof object['provisioner'] !== 'string' || object['provisioner'] === '') causes.push({ reason: 'FieldValueRequired', field: 'provisioner', message: 'Required value' });
    if (!['Delete', 'Retain'].includes(String(object['reclaimPolicy']))) {
      causes.push({ reason: 'FieldValueNotSupported', field: 'reclaimPolicy', message: `Unsupported value: ${JSON.stringify(object['reclaimPolicy'])}: supported values: "Delete", "Retain"` });
    }
    if (!['Immediate', 'WaitForFirstConsumer'].includes(String(object['volumeBindingMode']))) {
      causes.push({ reason: 'FieldValueNotSupported', field: 'volumeBindingMode', message: `Unsupported value: ${JSON.stringify(object['volumeBindingMode'])}: supported values: "Immediate", "WaitForFirstConsumer"` });
    }
    for (const field of old ? IMMUTABLE_CLASS_FIELDS : []) {
      if (!isDeepStrictEqual(object[field], old?.[field])) causes.push({ reason: 'FieldValueForbidden', field, message: 'Forbidden: updates to ' + field + ' are forbidden.' });
    }
    return causes;
  },
};

export const persistentVolumeStrategy: Strategy = {
  prepareForCreate(volume) {
    child(volume, 'spec')['persistentVolumeReclaimPolicy'] ??= 'Retain';
    child(volume, 'spec')['volumeMode'] ??= 'Filesystem';
    volume['status'] = { phase: 'Pending' };
  },
};

/** The claims' strategy with the DefaultStorageClass admission over the classes `classes()` lists. */
export function persistentVolumeClaimStrategy(classes: () => StorageClass[]): Strategy {
  return {
    prepareForCreate(claim) {
      const spec = child(claim, 'spec');
      spec['volumeMode'] ??= 'Filesystem';
      claim['status'] = { phase: 'Pending' };
      if (spec['storageClassName'] !== undefined) return;
      const chosen = newestDefault(classes(), isDefaultClass);
      if (chosen) spec['storageClassName'] = chosen.metadata.name;
    },
  };
}
