// Serialises stored objects as the requested version sees them, without re-encoding when nothing changes.
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import type { StoredObject } from '../storage/sqlite-store.ts';

export function renderJson(type: ResourceType, stored: StoredObject): string {
  const apiVersion = apiVersionOf(type);
  if (stored.object.apiVersion === apiVersion && !type.present) return stored.json;
  return JSON.stringify(renderObject(type, stored));
}

export function renderObject(type: ResourceType, stored: StoredObject): KubeObject {
  const object = { ...stored.object, apiVersion: apiVersionOf(type) };
  return type.present ? type.present(object) : object;
}
