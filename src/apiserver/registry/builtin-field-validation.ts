// Unknown fields in built-in kinds, as kube-apiserver's typed decoding treats them: refused under
// fieldValidation=Strict (`strict decoding error: unknown field "x"`), otherwise dropped, with a warning under
// Warn. The served OpenAPI definitions say which fields exist; kinds upstream does not define (Bosun's own) use
// their transcribed schema.
import type { KubeObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { isJsonObject, type FieldSchema } from '../schema/field-schema.ts';
import { checkBuiltinFieldTypes } from './builtin-field-types.ts';
import { unknownBuiltinFields } from './builtin-unknown-fields.ts';
import { fieldSchemaOf } from './field-manager.ts';
import type { FieldValidation } from './write-types.ts';
import type { ResourceType } from './resource-type.ts';

/** Removes the fields `schema` does not declare and returns their paths (`spec.foo`, `spec.items[0].bar`). */
function dropUnknown(schema: FieldSchema | undefined, value: unknown, path: string, out: string[]): void {
  if (!schema) return;
  if (schema.kind === 'array') {
    if (Array.isArray(value)) value.forEach((item, i) => dropUnknown(schema.items, item, `${path}[${i}]`, out));
    return;
  }
  if (schema.kind !== 'object' || !isJsonObject(value)) return;
  for (const key of Object.keys(value)) {
    const child = schema.properties?.[key] ?? schema.additionalProperties;
    const at = path === '' ? key : `${path}.${key}`;
    if (child) dropUnknown(child, value[key], at, out);
    else if (!schema.preserveUnknown) {
      out.push(at);
      delete value[key];
    }
  }
}

export function admitBuiltinFields(type: ResourceType, object: KubeObject, validation: FieldValidation, warnings: string[]): void {
  if (type.custom) return;
  checkBuiltinFieldTypes(type, object);
  let unknown = unknownBuiltinFields(type.group, type.version, type.kind, object);
  if (!unknown) dropUnknown(fieldSchemaOf(type), object, '', (unknown = []));
  if (unknown.length === 0) return;
  if (validation === 'Strict') throw errors.badRequest(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  if (validation === 'Warn') for (const field of unknown) warnings.push(`unknown field "${field}"`);
}
