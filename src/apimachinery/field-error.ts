// Field errors in the shape and wording of apimachinery's field.Error and field.ErrorList (`spec.type: Required
// value: …`), because kubectl users and upstream's tests read them that way. In an Invalid answer each becomes one
// metav1 StatusCause.
import type { FieldPath } from './field-path.ts';
import { formatGoNumber } from './jsonpath.ts';
import type { StatusCause } from './object.ts';

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid';

export interface FieldError {
  type: FieldErrorType;
  /** Dotted path with indexes: spec.deployItems[1].dependsOn[0]. */
  field: string;
  /** The offending value (null for Go's nil); undefined when the message leaves it out (Go's omitValue). */
  badValue?: unknown;
  detail: string;
}

/** A bad value Go prints through its String() method or as a struct literal: shown as given. */
export class PrintedValue {
  constructor(readonly text: string) {}
}

const LABELS: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
};

/** A path as a builder or already as text. */
type At = FieldPath | string;

const fieldOf = (at: At): string => (typeof at === 'string' ? at : at.value);

/** Go's %q: a JSON string literal. */
export function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u007f/g, '\\x7f');
}

/** Go's %v/%q/%#v rendering of a JSON value, as field errors print bad values. */
export function formatGoValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof PrintedValue) return value.text;
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return formatGoNumber(value);
  if (typeof value === 'boolean') return String(value);
  return goSharpV(value);
}

function goSharpV(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return formatGoNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSharpV).join(', ')}}`;
  const rec = value as Record<string, unknown>;
  return `map[string]interface {}{${Object.keys(rec)
    .sort()
    .map((k) => `${goQuote(k)}:${goSharpV(rec[k])}`)
    .join(', ')}}`;
}

/** The constructors of field.ErrorList entries (field.Required, field.Invalid, …), with their wording. */
export const fieldError = {
  required: (at: At, detail = ''): FieldError => ({ type: 'FieldValueRequired', field: fieldOf(at), detail }),
  invalid: (at: At, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field: fieldOf(at), badValue: badValue ?? null, detail }),
  /** Invalid with a value Go renders as a struct or a typed slice, e.g. `[]string{"a", "b"}`. */
  invalidPrinted: (at: At, printed: string, detail: string): FieldError => ({ type: 'FieldValueInvalid', field: fieldOf(at), badValue: new PrintedValue(printed), detail }),
  /** Invalid without printing the value (Go's field.OmitValueType). */
  invalidWithoutValue: (at: At, detail: string): FieldError => ({ type: 'FieldValueInvalid', field: fieldOf(at), detail }),
  typeInvalid: (at: At, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field: fieldOf(at), badValue: badValue ?? null, detail }),
  notSupported: (at: At, badValue: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field: fieldOf(at),
    badValue: badValue ?? null,
    detail: supported.length ? `supported values: ${supported.map(goQuote).join(', ')}` : '',
  }),
  forbidden: (at: At, detail: string): FieldError => ({ type: 'FieldValueForbidden', field: fieldOf(at), detail }),
  duplicate: (at: At, badValue: unknown): FieldError => ({ type: 'FieldValueDuplicate', field: fieldOf(at), badValue: badValue ?? null, detail: '' }),
  notFound: (at: At, badValue: unknown, detail = ''): FieldError => ({ type: 'FieldValueNotFound', field: fieldOf(at), badValue: badValue ?? null, detail }),
  tooLong: (at: At, max: number): FieldError => ({ type: 'FieldValueTooLong', field: fieldOf(at), detail: `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` }),
  tooMany: (at: At, actual: number, max: number): FieldError => ({ type: 'FieldValueTooMany', field: fieldOf(at), badValue: actual, detail: `must have at most ${max} items` }),
};

/** "Required value: type must not be empty" (field.Error.ErrorBody()): Required, Forbidden and TooLong never show the value. */
export function fieldErrorBody(e: FieldError): string {
  const shown = e.badValue !== undefined && e.type !== 'FieldValueRequired' && e.type !== 'FieldValueForbidden' && e.type !== 'FieldValueTooLong';
  const body = shown ? `${LABELS[e.type]}: ${formatGoValue(e.badValue)}` : LABELS[e.type];
  return e.detail ? `${body}: ${e.detail}` : body;
}

/** "spec.type: Required value: type must not be empty" (field.Error.Error()). */
export function formatFieldError(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

/** One error as itself, several as "[a, b]" (utilerrors.Aggregate). */
export function formatFieldErrors(errors: readonly FieldError[]): string {
  const parts = errors.map(formatFieldError);
  return parts.length === 1 ? (parts[0] ?? '') : `[${parts.join(', ')}]`;
}

/** The causes of an Invalid Status (apierrors.NewInvalid): reason, message, field, in metav1.StatusCause's order. */
export function toStatusCauses(errors: readonly FieldError[]): StatusCause[] {
  return errors.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field }));
}
