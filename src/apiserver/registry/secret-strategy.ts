// The core/v1 Secret as kube-apiserver reads and checks it: `stringData` is a write-only convenience that the
// conversion to the internal version merges into `data` (base64), so it is never stored or answered; keys must
// be config keys and the decoded values together at most 1 MiB (ValidateSecret).
import { isPlainObject, type KubeObject, type StatusCause } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { invalidValue } from './object-meta-validation.ts';
import type { ResourceType } from './resource-type.ts';

const maxSecretBytes = 1024 * 1024;
const configKey = /^[-._a-zA-Z0-9]+$/;
const base64 = /^[A-Za-z0-9+/]*={0,2}$/;
const configKeyMessage =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/** apimachinery's IsConfigMapKey: the keys of Secret and ConfigMap data. */
export function configKeyErrors(key: string): string[] {
  const out: string[] = [];
  if (key.length > 253) out.push('must be no more than 253 characters');
  if (!configKey.test(key)) out.push(configKeyMessage);
  if (key === '.') out.push("must not be '.'");
  else if (key === '..') out.push("must not be '..'");
  else if (key.startsWith('..')) out.push("must not start with '..'");
  return out;
}

/** What Go's JSON decoder says when a field has the wrong type, in kube-apiserver's decode-error wording. */
function undecodable(what: string, field: string, goType: string): never {
  throw errors.badRequest(`Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal ${what} into Go struct field Secret.${field} of type ${goType}`);
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** Merges `stringData` into `data` (a stringData key wins over the same data key) and drops it. */
function mergeStringData(object: KubeObject): void {
  const stringData = object['stringData'];
  delete object['stringData'];
  if (stringData === undefined || stringData === null) return;
  if (!isPlainObject(stringData)) undecodable(jsonKind(stringData), 'stringData', 'map[string]string');
  const data = isPlainObject(object['data']) ? object['data'] : {};
  for (const [key, value] of Object.entries(stringData)) {
    if (typeof value !== 'string') undecodable(jsonKind(value), `stringData`, 'string');
    data[key] = Buffer.from(value, 'utf8').toString('base64');
  }
  object['data'] = data;
}

/** ValidateSecret's rule for the type the tokens controller fills: it must name its ServiceAccount. */
function validateServiceAccountToken(object: KubeObject): StatusCause[] {
  if (object['type'] !== 'kubernetes.io/service-account-token' || object.metadata.annotations?.['kubernetes.io/service-account.name']) return [];
  return [{ reason: 'FieldValueRequired', field: 'metadata.annotations[kubernetes.io/service-account.name]', message: 'Required value' }];
}

function validateData(object: KubeObject): StatusCause[] {
  const data = object['data'];
  if (!isPlainObject(data)) return validateServiceAccountToken(object);
  const causes: StatusCause[] = validateServiceAccountToken(object);
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const message of configKeyErrors(key)) causes.push(invalidValue(`data[${key}]`, key, message));
    if (typeof value !== 'string' || !base64.test(value) || value.length % 4 !== 0) {
      causes.push({ reason: 'FieldValueInvalid', field: `data[${key}]`, message: `Invalid value: illegal base64 data` });
    } else size += Buffer.byteLength(value, 'base64');
  }
  if (size > maxSecretBytes) causes.push({ reason: 'FieldValueTooLong', field: 'data', message: `Too long: may not be more than ${maxSecretBytes} bytes` });
  return causes;
}

export const secretStrategy: Pick<ResourceType, 'decode' | 'prepareForCreate' | 'validate'> = {
  decode: mergeStringData,
  prepareForCreate(object) {
    object['type'] ??= 'Opaque';
  },
  validate: validateData,
};
