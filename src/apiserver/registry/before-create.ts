// What a create does short of storing it, as kube-apiserver's rest.BeforeCreate: the body read against the URL
// (before decoding), then on the decoded object a generated name, server-owned fields, the strategy's
// preparation and the checks of who writes, validation, generation 1 and managedFields.
import { randomUUID } from 'node:crypto';
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import type { UserInfo } from '../auth/user-info.ts';
import { nowTime } from '../../apimachinery/time.ts';
import { generatedName } from './generated-name.ts';
import type { ObjectService } from './object-service.ts';
import { checkTypeMeta } from './object-decoding.ts';
import { serverOwnedMeta } from './object-shape.ts';
import { schemaCauses, validateObject } from './object-validation.ts';
import type { PreparedCreate } from './prepared-write.ts';
import { groupResource, type ResourceType } from './resource-type.ts';
import type { CreateOptions } from './write-types.ts';

/**
 * A create body as the server reads it: an object, type meta checked and set, the namespace from the URL.
 * Works on `body` in place: the caller passes a body it owns (a request's, freshly decoded, or a copy).
 */
export function normalizeCreate(type: ResourceType, namespace: string, body: unknown): KubeObject {
  if (!isPlainObject(body)) throw errors.badRequest('the body of the request must be a JSON object');
  const object = body as KubeObject;
  if (!isPlainObject(object.metadata)) object.metadata = {};
  checkTypeMeta(type, object);
  const meta = object.metadata;
  if (type.namespaced) {
    if (meta.namespace && meta.namespace !== namespace) {
      throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    meta.namespace = namespace;
  } else delete meta.namespace;
  object.apiVersion = apiVersionOf(type);
  object.kind = type.kind;
  return object;
}

/**
 * Everything a create does short of storing, on a decoded object: name generation, server-owned fields, validation.
 * Works on `object` in place: the caller passes a copy it owns.
 */
export function prepareCreate(objects: ObjectService, user: UserInfo, type: ResourceType, namespace: string, object: KubeObject, options: CreateOptions, userAgent: string | undefined): PreparedCreate {
  object.apiVersion = apiVersionOf(type);
  object.kind = type.kind;
  const meta = object.metadata;
  if (!meta.name) {
    if (!meta.generateName) throw errors.invalid(type.kind, type.group, '', [{ reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' }]);
    meta.name = generatedName(meta.generateName, (name) => objects.find(type, namespace, name) !== undefined);
  }
  if (type.namespaced) meta.namespace = namespace;
  else delete meta.namespace;
  objects.checkNamespace(type, namespace, meta.name);
  for (const key of serverOwnedMeta) delete meta[key];
  delete meta.resourceVersion;
  if (!options.keepManagedFields) delete meta.managedFields;
  if (type.statusSubresource) delete object['status'];
  // As kube-apiserver's BeforeCreate: the system fields first, so that defaulting can use the uid (a Job's selector).
  meta.uid = randomUUID();
  meta.creationTimestamp = nowTime();
  type.prepareForCreate?.(object);
  type.guardWrite?.(object, user);
  validateObject(type, object, undefined, schemaCauses(type, object, undefined, undefined));
  if (objects.find(type, namespace, meta.name)) throw errors.alreadyExists(groupResource(type), meta.name);
  if (type.tracksGeneration || type.custom) meta.generation = 1;
  if (!options.keepManagedFields) objects.recordManagedFields(type, undefined, object, options, userAgent, undefined);
  return { kind: 'create', type, object, dryRun: options.dryRun === true };
}
