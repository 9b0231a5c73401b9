// Field errors in the shape and wording of apimachinery's field.ErrorList (`spec.type: Required value: …`),
// because kubectl users and upstream's tests read them that way. Each error is also a metav1 StatusCause.
import type { StatusCause } from '../../apimachinery/object.ts';

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueDuplicate'
  | 'FieldValueNotFound'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong';

export interface FieldError {
  type: FieldErrorType;
  /** Dotted path with indexes: spec.deployItems[1].dependsOn[0]. */
  field: string;
  /** The offending value; omitted for Required and Forbidden, and when it says nothing (a whole struct). */
  badValue?: unknown;
  detail: string;
}

const LABELS: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueNotFound: 'Not found',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
};

/** A field path under construction: path('spec').child('deployItems').index(1).child('name'). */
export interface FieldPath {
  readonly value: string;
  child(name: string): FieldPath;
  index(i: number): FieldPath;
}

export function path(root: string): FieldPath {
  return {
    value: root,
    child: (name) => path(root === '' ? name : `${root}.${name}`),
    index: (i) => path(`${root}[${i}]`),
  };
}

export const fieldError = {
  required: (at: FieldPath, detail = ''): FieldError => ({ type: 'FieldValueRequired', field: at.value, detail }),
  invalid: (at: FieldPath, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field: at.value, badValue, detail }),
  /** Invalid without printing the value (Go's field.OmitValueType). */
  invalidWithoutValue: (at: FieldPath, detail: string): FieldError => ({ type: 'FieldValueInvalid', field: at.value, detail }),
  duplicate: (at: FieldPath, badValue: unknown): FieldError => ({ type: 'FieldValueDuplicate', field: at.value, badValue, detail: '' }),
  notFound: (at: FieldPath, badValue: unknown, detail = ''): FieldError => ({ type: 'FieldValueNotFound', field: at.value, badValue, detail }),
  forbidden: (at: FieldPath, detail: string): FieldError => ({ type: 'FieldValueForbidden', field: at.value, detail }),
  tooLong: (at: FieldPath, badValue: unknown, max: number): FieldError => ({ type: 'FieldValueTooLong', field: at.value, badValue, detail: `must have at most ${max} characters` }),
};

function formatValue(value: unknown): string {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value) ?? 'null';
}

/** "spec.type: Required value: type must not be empty" (field.Error.Error()). */
export function formatFieldError(e: FieldError): string {
  const shown = e.badValue !== undefined && e.type !== 'FieldValueRequired' && e.type !== 'FieldValueForbidden' && e.type !== 'FieldValueTooLong';
  const body = shown ? `${LABELS[e.type]}: ${formatValue(e.badValue)}` : LABELS[e.type];
  return `${e.field}: ${body}${e.detail ? `: ${e.detail}` : ''}`;
}

/** One error as itself, several as "[a, b]" (utilerrors.Aggregate). */
export function formatFieldErrors(errors: readonly FieldError[]): string {
  const parts = errors.map(formatFieldError);
  return parts.length === 1 ? (parts[0] ?? '') : `[${parts.join(', ')}]`;
}

export function toStatusCauses(errors: readonly FieldError[]): StatusCause[] {
  return errors.map((e) => ({ reason: e.type, field: e.field, message: formatFieldError(e).slice(e.field.length + 2) }));
}
