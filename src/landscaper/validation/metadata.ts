// Names and labels: DNS-1123 labels and Kubernetes label syntax (apimachinery's IsDNS1123Label,
// ValidateLabels), worded as apimachinery words them.
import { fieldError, type FieldError } from '../../apimachinery/field-error.ts';
import type { FieldPath } from '../../apimachinery/field-path.ts';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Empty when `name` is a DNS-1123 label, else the reason. */
export function dns1123LabelProblem(name: string): string | undefined {
  if (name.length > 63) return 'must be no more than 63 characters';
  if (!DNS1123_LABEL.test(name)) {
    return "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
  }
  return undefined;
}

function labelKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix === '' || prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))) return 'prefix part must be a lowercase RFC 1123 subdomain';
  if (name === '' || name.length > 63 || !LABEL_NAME.test(name)) {
    return "name part must consist of alphanumeric characters, '-', '_' or '.', must start and end with an alphanumeric character, and be at most 63 characters";
  }
  return undefined;
}

export function validateLabels(labels: Record<string, unknown> | undefined, at: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    const keyProblem = labelKeyProblem(key);
    if (keyProblem) errors.push(fieldError.invalid(at, key, keyProblem));
    if (typeof value !== 'string' || value.length > 63 || !LABEL_VALUE.test(value)) {
      errors.push(fieldError.invalid(at.child(key), value, "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', must start and end with an alphanumeric character, and be at most 63 characters"));
    }
  }
  return errors;
}

/**
 * A name that must be a DNS-1123 label of at most `max` characters (installation names). A prefix
 * (generateName) may end in "-", as apimachinery's prefix validation allows.
 */
export function validateLabelName(name: string | undefined, max: number, at: FieldPath, options: { prefix?: boolean } = {}): FieldError[] {
  if (!name) return [];
  if (name.length > max) return [fieldError.invalid(at, name, `must be no more than ${max} characters`)];
  const problem = dns1123LabelProblem(options.prefix ? name.replace(/-$/, '') : name);
  return problem ? [fieldError.invalid(at, name, problem)] : [];
}
