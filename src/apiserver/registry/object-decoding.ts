// What decoding a request does before admission sees it: type meta checked, the kind's own decoding (a Secret's
// stringData), and unknown fields refused (Strict), reported (Warn) or dropped, then custom resources defaulted.
// Validation against the kind's rules and the CRD schema comes later, in the registry's prepare steps.
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { admitBuiltinFields } from './builtin-field-validation.ts';
import type { ResourceType } from './resource-type.ts';
import type { FieldValidation } from './write-types.ts';

export function checkTypeMeta(type: ResourceType, object: KubeObject): void {
  const expected = apiVersionOf(type);
  if (object.apiVersion !== undefined && object.apiVersion !== expected) {
    throw errors.badRequest(`the API version in the data (${object.apiVersion}) does not match the expected API version (${expected})`);
  }
  if (object.kind !== undefined && object.kind !== type.kind) {
    throw errors.badRequest(`the kind in the data (${object.kind}) does not match the expected kind (${type.kind})`);
  }
}

/** Unknown fields dropped (refused under Strict, reported under Warn); custom resources then defaulted. */
function pruneAndDefault(type: ResourceType, object: KubeObject, validation: FieldValidation, warnings: string[]): void {
  const schema = type.customSchema;
  if (!schema) return admitBuiltinFields(type, object, validation, warnings);
  if (validation === 'Strict') {
    const unknown = schema.unknownFields(object);
    if (unknown.length > 0) throw errors.badRequest(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  }
  const pruned = schema.prune(object);
  if (validation === 'Warn') for (const field of pruned) warnings.push(`unknown field "${field}"`);
  schema.applyDefaults(object);
}

/** The decoding step of every write: of the request's object, and (with Ignore) of what a mutating webhook changed. */
export function decodeObject(type: ResourceType, object: KubeObject, validation: FieldValidation | undefined, warnings: string[]): void {
  type.decode?.(object);
  pruneAndDefault(type, object, validation ?? 'Warn', warnings);
}
