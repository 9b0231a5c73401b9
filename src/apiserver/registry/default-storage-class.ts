// The default StorageClass k3s ships, made at start when missing (k3s applies its manifest at every start too),
// and the classes the DefaultStorageClass admission reads from the store.
import type { StorageClass } from '../../apimachinery/api/index.ts';
import { localPathStorageClass } from '../../apimachinery/storage-classes.ts';
import type { SqliteStore } from '../storage/sqlite-store.ts';
import type { ObjectService } from './object-service.ts';
import { storageKey, type ResourceType } from './resource-type.ts';

export function storedClasses(store: SqliteStore): () => StorageClass[] {
  const key = storageKey({ group: 'storage.k8s.io', plural: 'storageclasses' });
  return () => store.list(key).map((s) => s.object as StorageClass);
}

export function seedDefaultStorageClass(objects: ObjectService, type: ResourceType): void {
  if (!objects.find(type, '', localPathStorageClass.metadata.name ?? '')) objects.create(type, '', localPathStorageClass, { fieldManager: 'bosun' });
}
