// Defaulting and validation of v1 LimitRanges, after kube-apiserver's SetDefaults_LimitRangeItem and
// ValidateLimitRange: a Container item's default limit falls back to its max, its default request to the default
// limit and then to its min; every quantity is valid and min ≤ default request ≤ default ≤ max.
import type { StatusCause } from '../../apimachinery/object.ts';
import { QuantityError, parseQuantity } from '../../apimachinery/quantity.ts';
import type { ResourceType } from './resource-type.ts';
import { record } from './workload-strategies.ts';

type Json = Record<string, unknown>;
const SUPPORTED_TYPES = ['Pod', 'Container', 'PersistentVolumeClaim'];
const QUANTITY_FIELDS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;

function limitItems(range: Json): Json[] {
  const limits = record(range['spec'])['limits'];
  return Array.isArray(limits) ? (limits as unknown[]).map(record) : [];
}

function defaultItem(item: Json): void {
  if (item['type'] !== 'Container') return;
  const fill = (to: 'default' | 'defaultRequest', from: Json) => {
    const target = record(item[to]);
    for (const [resource, value] of Object.entries(from)) if (!(resource in target)) target[resource] = value;
    if (Object.keys(target).length > 0) item[to] = target;
  };
  fill('default', record(item['max']));
  fill('defaultRequest', record(item['default']));
  fill('defaultRequest', record(item['min']));
}

function quantityOf(value: unknown): number | undefined {
  try {
    return parseQuantity(String(value));
  } catch (err) {
    if (err instanceof QuantityError) return undefined;
    throw err;
  }
}

function validateItem(item: Json, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const type = item['type'];
  if (typeof type !== 'string' || type === '') causes.push({ reason: 'FieldValueRequired', field: `${path}.type`, message: 'Required value' });
  else if (!SUPPORTED_TYPES.includes(type)) causes.push({ reason: 'FieldValueNotSupported', field: `${path}.type`, message: `Unsupported value: ${JSON.stringify(type)}: supported values: ${SUPPORTED_TYPES.map((t) => JSON.stringify(t)).join(', ')}` });
  for (const field of QUANTITY_FIELDS) {
    for (const [resource, value] of Object.entries(record(item[field]))) {
      const q = quantityOf(value);
      if (q === undefined) causes.push({ reason: 'FieldValueInvalid', field: `${path}.${field}[${resource}]`, message: `Invalid value: ${JSON.stringify(String(value))}: must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'` });
      else if (q < 0) causes.push({ reason: 'FieldValueInvalid', field: `${path}.${field}[${resource}]`, message: `Invalid value: ${JSON.stringify(String(value))}: must be greater than or equal to 0` });
    }
  }
  if (type === 'Pod' && (item['default'] !== undefined || item['defaultRequest'] !== undefined)) {
    const field = item['default'] !== undefined ? 'default' : 'defaultRequest';
    causes.push({ reason: 'FieldValueForbidden', field: `${path}.${field}`, message: `Forbidden: may not be specified when \`type\` is 'Pod'` });
  }
  // kube-apiserver's order checks: min ≤ default request ≤ default limit ≤ max, per resource.
  const min = record(item['min']);
  const max = record(item['max']);
  const def = record(item['default']);
  const defReq = record(item['defaultRequest']);
  const resources = new Set([...Object.keys(min), ...Object.keys(max), ...Object.keys(def), ...Object.keys(defReq)]);
  for (const resource of resources) {
    const [lo, hi, d, dr] = [min[resource], max[resource], def[resource], defReq[resource]].map((v) => (v === undefined ? undefined : quantityOf(v)));
    const text = (v: unknown) => JSON.stringify(String(v));
    if (lo !== undefined && hi !== undefined && lo > hi) causes.push({ reason: 'FieldValueInvalid', field: `${path}.min[${resource}]`, message: `Invalid value: ${text(min[resource])}: min value ${String(min[resource])} is greater than max value ${String(max[resource])}` });
    if (dr !== undefined && lo !== undefined && lo > dr) causes.push({ reason: 'FieldValueInvalid', field: `${path}.defaultRequest[${resource}]`, message: `Invalid value: ${text(defReq[resource])}: min value ${String(min[resource])} is greater than default request value ${String(defReq[resource])}` });
    if (dr !== undefined && hi !== undefined && dr > hi) causes.push({ reason: 'FieldValueInvalid', field: `${path}.defaultRequest[${resource}]`, message: `Invalid value: ${text(defReq[resource])}: default request value ${String(defReq[resource])} is greater than max value ${String(max[resource])}` });
    if (dr !== undefined && d !== undefined && dr > d) causes.push({ reason: 'FieldValueInvalid', field: `${path}.defaultRequest[${resource}]`, message: `Invalid value: ${text(defReq[resource])}: default request value ${String(defReq[resource])} is greater than default limit value ${String(def[resource])}` });
    if (d !== undefined && lo !== undefined && lo > d) causes.push({ reason: 'FieldValueInvalid', field: `${path}.default[${resource}]`, message: `Invalid value: ${text(def[resource])}: min value ${String(min[resource])} is greater than default value ${String(def[resource])}` });
    if (d !== undefined && hi !== undefined && d > hi) causes.push({ reason: 'FieldValueInvalid', field: `${path}.default[${resource}]`, message: `Invalid value: ${text(def[resource])}: default value ${String(def[resource])} is greater than max value ${String(max[resource])}` });
  }
  return causes;
}

export const limitRangeStrategy: Pick<ResourceType, 'prepareForCreate' | 'prepareForUpdate' | 'validate'> = {
  prepareForCreate(range) {
    for (const item of limitItems(range)) defaultItem(item);
  },
  prepareForUpdate(range) {
    for (const item of limitItems(range)) defaultItem(item);
  },
  validate(range) {
    return limitItems(range).flatMap((item, i) => validateItem(item, `spec.limits[${i}]`));
  },
};
