// Field checks Services, Endpoints, EndpointSlices and Ingresses share, in apimachinery's wording (IsValidPortNum,
// IsValidPortName, ValidateDNS1123Label, IsValidIP), and how their errors become the causes of an Invalid Status.
import { fieldError, goQuote, PrintedValue, toStatusCauses, type FieldError } from '../../apimachinery/field-error.ts';
import type { FieldPath } from '../../apimachinery/field-path.ts';
import type { StatusCause } from '../../apimachinery/object.ts';
import { validateName } from '../registry/object-meta-validation.ts';

export const VALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** How Go prints a []string bad value. */
export function goStrings(values: unknown[]): PrintedValue {
  return new PrintedValue(`[]string{${values.map((v) => goQuote(String(v))).join(', ')}}`);
}

/** A field error, or a cause from the shared metadata checks (names, labels) that speak StatusCause already. */
export type Problem = FieldError | StatusCause;

/** IsValidPortNum. */
export function portNumberErrors(at: FieldPath, value: unknown, min = 1): Problem[] {
  const n = value as number;
  return Number.isInteger(n) && n >= min && n <= 65535 ? [] : [fieldError.invalid(at, value, `must be between ${min} and 65535, inclusive`)];
}

/** IsValidPortName: an IANA_SVC_NAME. */
export function portNameErrors(at: FieldPath, name: string): Problem[] {
  const out: string[] = [];
  if (name.length > 15) out.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) out.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  else if (!/[a-z]/.test(name)) out.push('must contain at least one letter (a-z)');
  if (name.includes('--')) out.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) out.push('must not begin or end with a hyphen');
  return out.map((detail) => fieldError.invalid(at, name, detail));
}

export function dns1123Label(at: FieldPath, value: string): Problem[] {
  return validateName(value, 'dns1123-label', at.value);
}

export function toCauses(problems: readonly Problem[]): StatusCause[] {
  return problems.map((p) => ('type' in p ? (toStatusCauses([p])[0] as StatusCause) : p));
}
