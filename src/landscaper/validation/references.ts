// References to other objects (upstream's ValidateObjectReference and the local Secret/ConfigMap refs).
import { fieldError, type FieldError } from '../../apimachinery/field-error.ts';
import type { FieldPath } from '../../apimachinery/field-path.ts';

/** name and namespace are both required (deploy item targets). */
export function validateObjectReference(ref: { name?: string; namespace?: string }, at: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (!ref.name) errors.push(fieldError.required(at.child('name'), 'name must not be empty'));
  if (!ref.namespace) errors.push(fieldError.required(at.child('namespace'), 'namespace must not be empty'));
  return errors;
}

/** A reference into the object's own namespace: only the name is required. */
export function validateLocalReference(ref: { name?: string }, at: FieldPath): FieldError[] {
  return ref.name ? [] : [fieldError.required(at.child('name'), 'name must not be empty')];
}
