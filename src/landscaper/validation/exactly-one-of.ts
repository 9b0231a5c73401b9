// "Exactly one of these fields" (upstream's ValidateExactlyOneOf): a field counts as set when it is present
// and not null, and a string also when it is not empty. An empty list or map counts as set, as a non-nil
// Go slice or map does (`targets: []` is a choice).
import { fieldError, type FieldError } from '../../apimachinery/field-error.ts';
import type { FieldPath } from '../../apimachinery/field-path.ts';

function isSet(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  return typeof value !== 'string' || value !== '';
}

export function validateExactlyOneOf(obj: Record<string, unknown> | undefined, fields: readonly string[], at: FieldPath): FieldError[] {
  const set = fields.filter((f) => isSet(obj?.[f]));
  if (set.length === 1) return [];
  const list = `[${fields.join(', ')}]`;
  if (set.length === 0) return [fieldError.required(at, `exactly one of ${list} must be set (currently set: none)`)];
  return [fieldError.invalidWithoutValue(at, `exactly one of ${list} must be set (currently set: [${set.join(', ')}])`)];
}
