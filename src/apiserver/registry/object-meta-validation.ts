// The generic metadata checks every write passes (apimachinery's ValidateObjectMeta, in the part that matters).
import type { KubeObject, StatusCause } from '../../apimachinery/object.ts';
import type { NameRule } from './resource-type.ts';

const subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const qualifiedName = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const dns1035Label = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const subdomainMessage =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMessage =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const dns1035Message =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

export function invalidValue(field: string, value: unknown, detail: string): StatusCause {
  return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(value)}: ${detail}` };
}

export function validateName(name: string, rule: NameRule, field = 'metadata.name'): StatusCause[] {
  switch (rule) {
    case 'dns1123-subdomain':
      if (name.length > 253) return [invalidValue(field, name, 'must be no more than 253 characters')];
      return subdomain.test(name) ? [] : [invalidValue(field, name, subdomainMessage)];
    case 'dns1123-label':
      if (name.length > 63) return [invalidValue(field, name, 'must be no more than 63 characters')];
      return label.test(name) ? [] : [invalidValue(field, name, labelMessage)];
    case 'dns1035-label':
      if (name.length > 63) return [invalidValue(field, name, 'must be no more than 63 characters')];
      return dns1035Label.test(name) ? [] : [invalidValue(field, name, dns1035Message)];
    case 'path-segment':
      if (name === '.' || name === '..') return [invalidValue(field, name, `may not be '${name}'`)];
      return /[/%]/.test(name) ? [invalidValue(field, name, `may not contain '/' or '%'`)] : [];
  }
}

function validateQualifiedKey(key: string, field: string): StatusCause[] {
  const slash = key.indexOf('/');
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  const name = slash < 0 ? key : key.slice(slash + 1);
  if (prefix !== undefined && (prefix.length > 253 || !subdomain.test(prefix))) {
    return [invalidValue(field, key, `prefix part ${subdomainMessage}`)];
  }
  if (name.length === 0 || name.length > 63 || !qualifiedName.test(name)) {
    return [
      invalidValue(
        field,
        key,
        "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') and be no more than 63 characters",
      ),
    ];
  }
  return [];
}

/** ValidateLabels: keys are qualified names, values label values; errors point at `field` (a Service's spec.selector too). */
export function validateLabels(labels: Record<string, unknown>, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const [key, value] of Object.entries(labels)) {
    causes.push(...validateQualifiedKey(key, field));
    if (typeof value !== 'string' || value.length > 63 || !labelValue.test(value)) {
      causes.push(
        invalidValue(
          field,
          value,
          "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        ),
      );
    }
  }
  return causes;
}

export function validateObjectMeta(object: KubeObject): StatusCause[] {
  const meta = object.metadata;
  const causes = validateLabels(meta.labels ?? {}, 'metadata.labels');
  let annotationBytes = 0;
  for (const [key, value] of Object.entries(meta.annotations ?? {})) {
    causes.push(...validateQualifiedKey(key.toLowerCase(), 'metadata.annotations'));
    if (typeof value !== 'string') causes.push(invalidValue('metadata.annotations', value, 'must be a string'));
    else annotationBytes += key.length + value.length;
  }
  if (annotationBytes > 256 * 1024) {
    causes.push({ reason: 'FieldValueTooLong', field: 'metadata.annotations', message: 'Too long: must have at most 262144 bytes' });
  }
  for (const [i, ref] of (meta.ownerReferences ?? []).entries()) {
    for (const required of ['apiVersion', 'kind', 'name', 'uid'] as const) {
      if (!ref[required]) causes.push({ reason: 'FieldValueRequired', field: `metadata.ownerReferences[${i}].${required}`, message: 'Required value' });
    }
  }
  if (meta.ownerReferences && meta.ownerReferences.filter((r) => r.controller).length > 1) {
    causes.push(invalidValue('metadata.ownerReferences', meta.ownerReferences, 'Only one reference can have Controller set to true'));
  }
  for (const f of meta.finalizers ?? []) {
    if (!f.includes('/') && !['kubernetes', 'orphan', 'foregroundDeletion'].includes(f)) {
      causes.push(...validateQualifiedKey(f, 'metadata.finalizers'));
    }
  }
  return causes;
}
