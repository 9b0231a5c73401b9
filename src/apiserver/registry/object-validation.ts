// The validation every write ends with: name and object meta, the kind's own rules, and custom resources' CRD
// schema (with the stored object for transition rules and ratcheting).
import type { KubeObject, StatusCause } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { validateName, validateObjectMeta } from './object-meta-validation.ts';
import type { ResourceType } from './resource-type.ts';

/** Custom resources: the object against the CRD schema; `old` is the stored object on an update. */
export function schemaCauses(type: ResourceType, object: KubeObject, old: KubeObject | undefined, subresource: string | undefined): StatusCause[] {
  const causes = type.customSchema?.validate(object, old) ?? [];
  // Status writes validate the whole object but only report what the status stanza got wrong.
  return subresource === 'status' ? causes.filter((c) => !c.field || c.field.startsWith('status')) : causes;
}

/** Throws Invalid with every cause found: name, object meta, `extra` (the schema's), then the kind's rules. */
export function validateObject(type: ResourceType, object: KubeObject, old: KubeObject | undefined, extra: StatusCause[]): void {
  const name = object.metadata.name ?? '';
  const causes = [...validateName(name, type.nameRule), ...validateObjectMeta(object), ...extra, ...(type.validate?.(object, old) ?? [])];
  if (object.metadata.namespace && type.namespaced) causes.push(...validateName(object.metadata.namespace, 'dns1123-label', 'metadata.namespace'));
  if (causes.length > 0) throw errors.invalid(type.kind, type.group, name, causes);
}
