// Connects the object lifecycle to the patch engines: which FieldSchema a type has (built-in tables or the
// CRD's openAPIV3Schema), which paths an endpoint resets, and how non-apply writes keep managedFields current.
import type { KubeObject } from '../../apimachinery/object.ts';
import { recordUpdate } from '../patch/server-side-apply.ts';
import { builtinSchema } from '../schema/builtin-schemas.ts';
import { fromOpenAPIV3Schema, withObjectMeta, type ObjectFieldSchema } from '../schema/field-schema.ts';
import type { ManagedFieldsRecorder } from './write-types.ts';
import type { ResourceRegistry } from './registry.ts';
import type { ResourceType } from './resource-type.ts';

const schemas = new WeakMap<ResourceType, ObjectFieldSchema>();

export function fieldSchemaOf(type: ResourceType): ObjectFieldSchema {
  let schema = schemas.get(type);
  if (!schema) {
    schema = type.custom
      ? fromOpenAPIV3Schema(type.openApiSchema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true })
      : (builtinSchema(type.group, type.version, type.kind) ?? withObjectMeta({ kind: 'object', preserveUnknown: true }));
    schemas.set(type, schema);
  }
  return schema;
}

/** Paths an endpoint resets and therefore never assigns to a manager. */
export function ignoredFieldsOf(type: ResourceType, subresource: string | undefined): string[][] {
  if (subresource === 'status') return [['f:spec']];
  return type.statusSubresource ? [['f:status']] : [];
}

export function managedFieldsRecorder(registry: ResourceRegistry): ManagedFieldsRecorder {
  return {
    recordUpdate(old, updated, manager, apiVersion, subresource, time) {
      const type = registry.byKind(apiVersion, updated.kind ?? '');
      if (!type) return;
      const result = recordUpdate(old, updated, manager, apiVersion, subresource, time, fieldSchemaOf(type), {
        ignoredFields: ignoredFieldsOf(type, subresource),
      }) as KubeObject;
      if (result.metadata.managedFields === undefined) delete updated.metadata.managedFields;
      else updated.metadata.managedFields = result.metadata.managedFields;
    },
  };
}
