// A CRD version's openAPIV3Schema compiled for the write path: structural defaulting, pruning and validation,
// worded the way apiextensions-apiserver (kube-openapi + apimachinery field errors) words them.
import { isDeepStrictEqual } from 'node:util';
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import { fieldError, formatFieldError, goQuote, toStatusCauses, type FieldError } from '../../apimachinery/field-error.ts';
import { formatGoNumber } from '../../apimachinery/jsonpath.ts';
import type { StatusCause } from '../../apimachinery/object.ts';

// ajv is CommonJS; under nodenext its default export is the module object.
const Ajv = AjvModule.default;

/** apiextensions.k8s.io/v1 JSONSchemaProps, loosely typed: it arrives as user JSON. */
export interface JSONSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  nullable?: boolean;
  default?: unknown;
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: boolean;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  maxProperties?: number;
  minProperties?: number;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: unknown[];
  [key: string]: unknown;
}

export interface CustomResourceSchema {
  /** Structural defaulting, in place: drops non-nullable nulls without defaults, then fills defaults. */
  applyDefaults(obj: unknown): void;
  /** Removes fields the schema does not know, in place; returns their paths (`spec.foo`, `spec.items[0].bar`), sorted. */
  prune(obj: unknown): string[];
  /** The paths prune would remove, without touching obj (for fieldValidation=Strict|Warn). */
  unknownFields(obj: unknown): string[];
  /**
   * OpenAPI validation plus, when a CEL engine was given, x-kubernetes-validations. `old` is the stored object on
   * an update: transition rules (oldSelf) run only where an old value correlates, and a rule that fails on a
   * value equal to its old one does not count (ratcheting). Causes carry the apiserver's reason, message and
   * field path.
   */
  validate(obj: unknown, old?: unknown): StatusCause[];
  /** The same as a field.ErrorList, for callers that re-root the paths (a default checked against its schema). */
  fieldErrors(obj: unknown, old?: unknown): FieldError[];
}

/**
 * A CEL implementation, injected so this module needs no CEL dependency. compile() throws on a syntax error and
 * returns a program evaluated with `{ self, oldSelf? }`. Integer fields reach it as BigInt (CEL int), numbers as
 * double. optional() makes the CEL optional that `optionalOldSelf: true` rules get as oldSelf (none for undefined).
 */
export interface CelEngine {
  compile(expression: string): (activation: Record<string, unknown>) => unknown;
  optional(value: unknown): unknown;
}

export interface CompileOptions {
  /** Enables x-kubernetes-validations; without it those rules are ignored. */
  cel?: CelEngine;
}

/** One x-kubernetes-validations entry. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export class SchemaCompileError extends Error {
  override readonly name = 'SchemaCompileError' as const;
}

// ---------------------------------------------------------------------------------------------------------------
// Formats: the ones kube-openapi's strfmt registry validates for CRDs. Others (int32, int64, float, double,
// quantity, anything unknown) are accepted without checks, as on a real server.

const DNS_LABEL = '[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?';
const IPV4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function isIPv6(s: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(s) || !s.includes(':')) return false;
  let head = s;
  const groupsAvailable = 8;
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!IPV4.test(tail)) return false;
    head = s.slice(0, lastColon + 1) + '0:0';
  }
  const parts = head.split('::');
  if (parts.length > 2) return false;
  const groups = (p: string): string[] | undefined => {
    if (p === '') return [];
    const g = p.split(':');
    return g.every((x) => /^[0-9a-fA-F]{1,4}$/.test(x)) ? g : undefined;
  };
  const left = groups(parts[0] ?? '');
  const right = parts.length === 2 ? groups(parts[1] ?? '') : [];
  if (!left || !right) return false;
  const n = left.length + right.length;
  return parts.length === 2 ? n < groupsAvailable : n === groupsAvailable;
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

const FORMATS: Record<string, (s: string) => boolean> = {
  'date-time': (s) => /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/.test(s) && !Number.isNaN(Date.parse(s.replace(' ', 'T'))),
  datetime: (s) => FORMATS['date-time']?.(s) ?? false,
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)),
  duration: (s) => /^(\s*[-+]?\d+(\.\d+)?\s*(ns|us|µs|ms|s|m|h|d|w|nanoseconds?|microseconds?|milliseconds?|seconds?|minutes?|hours?|days?|weeks?|sec|min|hr)\s*)+$/.test(s),
  byte: (s) => s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s),
  uri: (s) => /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/.test(s) || /^\/[^\s]*$/.test(s),
  email: (s) => /^[^\s@<>]+@[^\s@<>]+$/.test(s),
  hostname: (s) => s.length <= 255 && new RegExp(`^${DNS_LABEL}(\\.${DNS_LABEL})*\\.?$`).test(s),
  ipv4: (s) => IPV4.test(s),
  ipv6: isIPv6,
  cidr: (s) => {
    const [ip = '', bits, extra] = s.split('/');
    if (bits === undefined || extra !== undefined || !/^\d{1,3}$/.test(bits)) return false;
    return IPV4.test(ip) ? Number(bits) <= 32 : isIPv6(ip) && Number(bits) <= 128;
  },
  mac: (s) => /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/.test(s) || /^([0-9a-fA-F]{4}\.){2}[0-9a-fA-F]{4}$/.test(s),
  uuid: (s) => UUID.test(s),
  uuid3: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  uuid4: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(s),
  uuid5: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(s),
  hexcolor: (s) => /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: (s) => /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/.test(s),
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  password: () => true,
  isbn: () => true,
  isbn10: () => true,
  isbn13: () => true,
  creditcard: () => true,
  ssn: (s) => /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s),
};

/** Go RE2 accepts leading inline flags like `(?i)`; JavaScript wants them as RegExp flags. */
export function goRegExp(pattern: string, flags = ''): RegExp {
  let p = pattern;
  let f = flags.replace('u', '');
  const m = /^\(\?([imsU]+)\)/.exec(p);
  if (m) {
    p = p.slice(m[0].length);
    for (const c of m[1] ?? '') if (c !== 'U' && !f.includes(c)) f += c;
  }
  return new RegExp(p, f);
}

const regExpEngine = Object.assign((pattern: string, flags: string) => goRegExp(pattern, flags), { code: 'goRegExp' });

function newAjv(): InstanceType<typeof Ajv> {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    verbose: true,
    validateFormats: true,
    unicodeRegExp: false,
    addUsedSchema: false,
    code: { regExp: regExpEngine },
  });
  for (const [name, check] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate: check });
  return ajv;
}

let sharedAjv: InstanceType<typeof Ajv> | undefined;

// ---------------------------------------------------------------------------------------------------------------
// Translation of Kubernetes' OpenAPI v3 dialect to JSON Schema draft-07 for ajv.

const K8S_TYPE = 'x-bosun-k8s-type';
const K8S_NULLABLE = 'x-bosun-nullable';

function isSchema(v: unknown): v is JSONSchemaProps {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function translate(s: JSONSchemaProps): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const types: string[] = intOrString ? ['integer', 'string'] : s.type ? [s.type] : [];
  if (types.length > 0) {
    out['type'] = s.nullable ? [...types, 'null'] : types.length === 1 ? types[0] : types;
    out[K8S_TYPE] = types.join(',');
  }
  if (s.nullable) out[K8S_NULLABLE] = true;
  if (s.format && FORMATS[s.format]) out['format'] = s.format;
  if (Array.isArray(s.enum)) out['enum'] = s.enum;
  if (Array.isArray(s.required) && s.required.length > 0) out['required'] = s.required;
  for (const k of ['maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties', 'minProperties', 'multipleOf'] as const) {
    if (typeof s[k] === 'number') out[k] = s[k];
  }
  if (typeof s.pattern === 'string') out['pattern'] = s.pattern;
  if (s.uniqueItems === true) out['uniqueItems'] = true;
  if (typeof s.maximum === 'number') out[s.exclusiveMaximum ? 'exclusiveMaximum' : 'maximum'] = s.maximum;
  if (typeof s.minimum === 'number') out[s.exclusiveMinimum ? 'exclusiveMinimum' : 'minimum'] = s.minimum;
  if (isSchema(s.properties)) {
    const props: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s.properties)) if (isSchema(v)) props[k] = translate(v);
    out['properties'] = props;
  }
  if (typeof s.additionalProperties === 'boolean') out['additionalProperties'] = s.additionalProperties;
  else if (isSchema(s.additionalProperties)) out['additionalProperties'] = translate(s.additionalProperties);
  if (isSchema(s.items)) out['items'] = translate(s.items);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[k];
    if (Array.isArray(list) && list.length > 0) out[k] = list.filter(isSchema).map(translate);
  }
  if (isSchema(s.not)) out['not'] = translate(s.not);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Error mapping (kube-openapi messages, apiextensions' kubeOpenAPIResultToFieldErrors).

function jsonTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v; // string, boolean
}

function unescapePointer(s: string): string {
  return s.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** "/spec/items/0/name" → "spec.items[0].name", using the data to tell indices from keys. */
function pointerToField(root: unknown, pointer: string): string {
  if (!pointer) return '';
  let cur: unknown = root;
  let out = '';
  for (const raw of pointer.slice(1).split('/')) {
    const key = unescapePointer(raw);
    if (Array.isArray(cur)) {
      out += `[${key}]`;
      cur = (cur as unknown[])[Number(key)];
    } else {
      out += out ? `.${key}` : key;
      cur = isSchema(cur) ? cur[key] : undefined;
    }
  }
  return out;
}

function join(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

// kube-openapi names the root "", which gives its messages a leading space (" in body must be ...").
function inBody(field: string): string {
  return `${field} in body`;
}

function mapError(e: ErrorObject, field: string): FieldError | undefined {
  const data = e.data;
  const p = e.params as Record<string, unknown>;
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  switch (e.keyword) {
    case 'type': {
      const expected = typeof parent[K8S_TYPE] === 'string' ? (parent[K8S_TYPE] as string) : String(p['type']);
      const actual = jsonTypeName(data);
      return fieldError.typeInvalid(field, actual, `${inBody(field)} must be of type ${expected}: "${actual}"`);
    }
    case 'required':
      return fieldError.required(join(field, String(p['missingProperty'])));
    case 'enum': {
      const allowed = (Array.isArray(p['allowedValues']) ? (p['allowedValues'] as unknown[]) : []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
      return fieldError.notSupported(field, data, allowed);
    }
    case 'format':
      return fieldError.typeInvalid(field, data, `${inBody(field)} must be of type ${String(p['format'])}: ${goQuote(String(data))}`);
    case 'maxLength':
      return fieldError.tooLong(field, Number(p['limit']));
    case 'minLength':
      return fieldError.invalid(field, data, `${inBody(field)} should be at least ${String(p['limit'])} chars long`);
    case 'maxItems':
      return fieldError.tooMany(field, Array.isArray(data) ? data.length : -1, Number(p['limit']));
    case 'minItems':
      return fieldError.invalid(field, data, `${inBody(field)} should have at least ${String(p['limit'])} items`);
    case 'maxProperties':
      return fieldError.tooMany(field, isSchema(data) ? Object.keys(data).length : -1, Number(p['limit']));
    case 'minProperties':
      return fieldError.invalid(field, data, `${inBody(field)} should have at least ${String(p['limit'])} properties`);
    case 'pattern':
      return fieldError.invalid(field, data, `${inBody(field)} should match '${String(p['pattern'])}'`);
    case 'maximum':
      return fieldError.invalid(field, data, `${inBody(field)} should be less than or equal to ${formatGoNumber(Number(p['limit']))}`);
    case 'exclusiveMaximum':
      return fieldError.invalid(field, data, `${inBody(field)} should be less than ${formatGoNumber(Number(p['limit']))}`);
    case 'minimum':
      return fieldError.invalid(field, data, `${inBody(field)} should be greater than or equal to ${formatGoNumber(Number(p['limit']))}`);
    case 'exclusiveMinimum':
      return fieldError.invalid(field, data, `${inBody(field)} should be greater than ${formatGoNumber(Number(p['limit']))}`);
    case 'multipleOf':
      return fieldError.invalid(field, data, `${inBody(field)} should be a multiple of ${formatGoNumber(Number(p['multipleOf']))}`);
    case 'uniqueItems':
      return fieldError.invalid(field, data, `${inBody(field)} shouldn't contain duplicates`);
    case 'anyOf':
      return fieldError.invalid(field, data, `${inBody(field)} must validate at least one schema (anyOf)`);
    case 'oneOf':
      return fieldError.invalid(field, data, `${inBody(field)} must validate one and only one schema (oneOf)`);
    case 'not':
      return fieldError.invalid(field, data, `${inBody(field)} must not validate the schema (not)`);
    case 'additionalProperties':
      return fieldError.forbidden(join(field, String(p['additionalProperty'])), `${inBody(join(field, String(p['additionalProperty'])))} is a forbidden property`);
    case 'false schema':
      return undefined;
    default:
      return fieldError.invalid(field, data, `${inBody(field)} ${e.message ?? 'is invalid'}`);
  }
}

const STRING_CHECKS = ['maxLength', 'minLength', 'pattern'];

/** Errors from inside anyOf/oneOf/not branches are summarised by the branch keyword itself. */
function insideBranch(schemaPath: string): boolean {
  return /\/(anyOf|oneOf)\/\d+\//.test(schemaPath) || /\/not\//.test(schemaPath);
}

// ---------------------------------------------------------------------------------------------------------------
// The structural walk used by defaulting, pruning and embedded-resource checks.

interface CompiledRule {
  rule: ValidationRule;
  program: (activation: Record<string, unknown>) => unknown;
  messageProgram: ((activation: Record<string, unknown>) => unknown) | undefined;
  transition: boolean;
  /** oldSelf for this rule: the old value, or with optionalOldSelf a CEL optional of it. */
  oldSelf: (old: unknown) => unknown;
}

interface StructuralNode {
  type: string;
  rules: CompiledRule[];
  properties: Map<string, StructuralNode> | undefined;
  additional: StructuralNode | true | undefined;
  items: StructuralNode | undefined;
  /** x-kubernetes-list-map-keys of a list-type=map array: how old and new entries correlate. */
  listMapKeys: string[] | undefined;
  preserveUnknown: boolean;
  embedded: boolean;
  nullable: boolean;
  hasDefault: boolean;
  default: unknown;
}

function compileRules(s: JSONSchemaProps, cel: CelEngine | undefined): CompiledRule[] {
  const raw = s['x-kubernetes-validations'];
  if (!cel || !Array.isArray(raw)) return [];
  const out: CompiledRule[] = [];
  for (const r of raw) {
    if (!isSchema(r) || typeof r['rule'] !== 'string') continue;
    const rule = r as unknown as ValidationRule;
    try {
      out.push({
        rule,
        program: cel.compile(rule.rule),
        messageProgram: typeof rule.messageExpression === 'string' ? cel.compile(rule.messageExpression) : undefined,
        transition: /\boldSelf\b/.test(rule.rule),
        oldSelf: rule.optionalOldSelf === true ? (old) => cel.optional(old) : (old) => old,
      });
    } catch (err) {
      throw new SchemaCompileError(`x-kubernetes-validations rule ${JSON.stringify(rule.rule)}: ${(err as Error).message}`);
    }
  }
  return out;
}

function structural(s: JSONSchemaProps, cel?: CelEngine): StructuralNode {
  let properties: Map<string, StructuralNode> | undefined;
  if (isSchema(s.properties)) {
    properties = new Map();
    for (const [k, v] of Object.entries(s.properties)) if (isSchema(v)) properties.set(k, structural(v, cel));
  }
  let additional: StructuralNode | true | undefined;
  if (s.additionalProperties === true) additional = true;
  else if (isSchema(s.additionalProperties)) additional = structural(s.additionalProperties, cel);
  return {
    type: s['x-kubernetes-int-or-string'] === true ? 'int-or-string' : typeof s.type === 'string' ? s.type : '',
    rules: compileRules(s, cel),
    properties,
    additional,
    items: isSchema(s.items) ? structural(s.items, cel) : undefined,
    listMapKeys: s['x-kubernetes-list-type'] === 'map' && Array.isArray(s['x-kubernetes-list-map-keys']) ? s['x-kubernetes-list-map-keys'] : undefined,
    preserveUnknown: s['x-kubernetes-preserve-unknown-fields'] === true,
    embedded: s['x-kubernetes-embedded-resource'] === true,
    nullable: s.nullable === true,
    hasDefault: s.default !== undefined,
    default: s.default,
  };
}

const OBJECT_META_FIELDS = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function clone<T>(v: T): T {
  return v === undefined ? v : (structuredClone(v) as T);
}

function isNonNullableNull(v: unknown, s: StructuralNode | undefined): boolean {
  return v === null && s !== undefined && !s.nullable && s.hasDefault;
}

function pruneNullsWithoutDefaults(x: unknown, s: StructuralNode | undefined): void {
  if (!s) return;
  if (isObj(x)) {
    for (const [k, v] of Object.entries(x)) {
      const prop = s.properties?.get(k) ?? (s.additional !== true ? s.additional : undefined);
      if (!prop) continue;
      if (v === null && !prop.hasDefault && !prop.nullable) {
        delete x[k];
        continue;
      }
      pruneNullsWithoutDefaults(v, prop);
    }
  } else if (Array.isArray(x)) {
    for (const v of x as unknown[]) pruneNullsWithoutDefaults(v, s.items);
  }
}

function applyDefaultsTo(x: unknown, s: StructuralNode | undefined): void {
  if (!s) return;
  if (isObj(x)) {
    if (s.properties) {
      for (const [k, prop] of s.properties) {
        if (!prop.hasDefault) continue;
        if (!(k in x) || isNonNullableNull(x[k], prop)) x[k] = clone(prop.default);
      }
    }
    for (const [k, v] of Object.entries(x)) {
      const prop = s.properties?.get(k);
      if (prop) applyDefaultsTo(v, prop);
      else if (s.additional && s.additional !== true) {
        if (isNonNullableNull(v, s.additional)) x[k] = clone(s.additional.default);
        applyDefaultsTo(x[k], s.additional);
      }
    }
  } else if (Array.isArray(x)) {
    const arr = x as unknown[];
    for (let i = 0; i < arr.length; i++) {
      if (isNonNullableNull(arr[i], s.items)) arr[i] = clone(s.items?.default);
      applyDefaultsTo(arr[i], s.items);
    }
  }
}

function pruneMetadata(meta: unknown, path: string, mutate: boolean, out: string[]): void {
  if (!isObj(meta)) return;
  for (const k of Object.keys(meta)) {
    if (OBJECT_META_FIELDS.has(k)) continue;
    out.push(join(path, k));
    if (mutate) delete meta[k];
  }
}

function pruneTo(x: unknown, s: StructuralNode | undefined, path: string, mutate: boolean, out: string[], resourceRoot: boolean): void {
  const embedded = resourceRoot || (s?.embedded ?? false);
  if (s?.preserveUnknown) {
    skipPrune(x, s, path, mutate, out, embedded);
    return;
  }
  if (isObj(x)) {
    for (const k of Object.keys(x)) {
      const v = x[k];
      const childPath = join(path, k);
      if (embedded && (k === 'apiVersion' || k === 'kind') && typeof v === 'string') continue;
      if (embedded && k === 'metadata' && isObj(v)) {
        pruneMetadata(v, childPath, mutate, out);
        continue;
      }
      const prop = s?.properties?.get(k);
      // `additionalProperties: true` has no structural schema: upstream prunes its values with a nil schema,
      // which keeps scalars and empties nested objects.
      if (prop) pruneTo(v, prop, childPath, mutate, out, false);
      else if (s?.additional) pruneTo(v, s.additional === true ? undefined : s.additional, childPath, mutate, out, false);
      else {
        out.push(childPath);
        if (mutate) delete x[k];
      }
    }
  } else if (Array.isArray(x)) {
    (x as unknown[]).forEach((v, i) => pruneTo(v, s?.items, `${path}[${i}]`, mutate, out, false));
  }
}

function skipPrune(x: unknown, s: StructuralNode, path: string, mutate: boolean, out: string[], embedded: boolean): void {
  if (isObj(x)) {
    for (const k of Object.keys(x)) {
      const childPath = join(path, k);
      if (embedded && (k === 'apiVersion' || k === 'kind')) continue;
      if (embedded && k === 'metadata') {
        pruneMetadata(x[k], childPath, mutate, out);
        continue;
      }
      const prop = s.properties?.get(k);
      if (prop) pruneTo(x[k], prop, childPath, mutate, out, false);
      else if (s.additional) pruneTo(x[k], s.additional === true ? undefined : s.additional, childPath, mutate, out, false);
    }
  } else if (Array.isArray(x) && s.items) {
    const items = s.items;
    (x as unknown[]).forEach((v, i) => {
      if (items.preserveUnknown) skipPrune(v, items, `${path}[${i}]`, mutate, out, items.embedded);
      else pruneTo(v, items, `${path}[${i}]`, mutate, out, false);
    });
  }
}

const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/** apiextensions' validateEmbeddedResource: apiVersion and kind are required on embedded objects. */
function validateEmbedded(x: unknown, s: StructuralNode | undefined, path: string, out: FieldError[]): void {
  if (!s) return;
  if (isObj(x)) {
    if (s.embedded) {
      if (!('apiVersion' in x)) out.push(fieldError.required(join(path, 'apiVersion'), 'must not be empty'));
      if (!('kind' in x)) out.push(fieldError.required(join(path, 'kind'), 'must not be empty'));
      const apiVersion = x['apiVersion'];
      if ('apiVersion' in x) {
        if (typeof apiVersion !== 'string') out.push(fieldError.invalid(join(path, 'apiVersion'), apiVersion, 'must be a string'));
        else if (apiVersion === '') out.push(fieldError.invalid(join(path, 'apiVersion'), apiVersion, 'must not be empty'));
        else if (apiVersion.split('/').length > 2) out.push(fieldError.invalid(join(path, 'apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
      }
      const kind = x['kind'];
      if ('kind' in x) {
        if (typeof kind !== 'string') out.push(fieldError.invalid(join(path, 'kind'), kind, 'must be a string'));
        else if (kind === '') out.push(fieldError.invalid(join(path, 'kind'), kind, 'must not be empty'));
        else if (kind.length > 63 || !DNS1035.test(kind.toLowerCase())) {
          const msg = kind.length > 63 ? 'must be no more than 63 characters' : DNS1035_MSG;
          out.push(fieldError.invalid(join(path, 'kind'), kind, `may have mixed case, but should otherwise match: ${msg}`));
        }
      }
    }
    for (const [k, v] of Object.entries(x)) {
      const prop = s.properties?.get(k) ?? (s.additional !== true ? s.additional : undefined);
      validateEmbedded(v, prop, join(path, k), out);
    }
  } else if (Array.isArray(x)) {
    (x as unknown[]).forEach((v, i) => validateEmbedded(v, s.items, `${path}[${i}]`, out));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// x-kubernetes-validations (apiextensions' cel validator, minus cost limits and the Kubernetes CEL libraries).

function hasRules(s: StructuralNode | undefined): boolean {
  if (!s) return false;
  if (s.rules.length > 0) return true;
  if (s.properties) for (const p of s.properties.values()) if (hasRules(p)) return true;
  return (s.additional !== true && hasRules(s.additional)) || hasRules(s.items);
}

function matchesType(v: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isObj(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'int-or-string':
      return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
    default:
      return v !== null && v !== undefined;
  }
}

/** CEL sees integer fields as int (BigInt here) and number fields as double. */
function toCel(v: unknown, s: StructuralNode | undefined): unknown {
  if (typeof v === 'number') return s && (s.type === 'integer' || s.type === 'int-or-string') && Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return (v as unknown[]).map((x) => toCel(x, s?.items));
  if (isObj(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = toCel(x, s?.properties?.get(k) ?? (s?.additional !== true ? s?.additional : undefined));
    return out;
  }
  return v;
}

function ruleError(path: string, s: StructuralNode, r: CompiledRule, activation: Record<string, unknown>): FieldError {
  const fieldPath = r.rule.fieldPath ? join(path, r.rule.fieldPath.replace(/^\./, '')) : path;
  let detail = r.rule.message || `failed rule: ${r.rule.rule.trim()}`;
  if (r.messageProgram) {
    try {
      const m = r.messageProgram(activation);
      if (typeof m === 'string' && m.trim() !== '') detail = m;
    } catch {
      // the static message (or default) stands when messageExpression fails, as upstream does
    }
  }
  switch (r.rule.reason) {
    case 'FieldValueForbidden':
      return fieldError.forbidden(fieldPath, detail);
    case 'FieldValueRequired':
      return fieldError.required(fieldPath, detail);
    case 'FieldValueDuplicate':
      return fieldError.duplicate(fieldPath, s.type);
    default:
      return fieldError.invalid(fieldPath, s.type, detail);
  }
}

/** The old entry of a list-type=map list with the same key values as `item`, if any. */
function correlatedEntry(item: unknown, oldList: unknown, keys: string[]): unknown {
  if (!isObj(item) || !Array.isArray(oldList)) return undefined;
  return (oldList as unknown[]).find((o) => isObj(o) && keys.every((k) => isDeepStrictEqual(o[k], item[k])));
}

/**
 * apiextensions' CEL validator: `old` is the value correlated with `x` in the stored object (same property, map
 * key or list-map keys), undefined on create or where nothing correlates. Transition rules are skipped without
 * an old value unless optionalOldSelf; a non-transition rule's failure on an unchanged value is ratcheted away.
 */
function validateCel(x: unknown, old: unknown, s: StructuralNode | undefined, path: string, out: FieldError[]): void {
  if (!s || x === null || x === undefined || !matchesType(x, s.type)) return;
  if (s.rules.length > 0) {
    const self = toCel(x, s);
    const hasOld = old !== undefined && old !== null;
    const unchanged = hasOld && isDeepStrictEqual(x, old);
    for (const r of s.rules) {
      if (r.transition && !hasOld && !r.rule.optionalOldSelf) continue;
      const activation: Record<string, unknown> = { self };
      if (r.transition) activation['oldSelf'] = r.oldSelf(hasOld ? toCel(old, s) : undefined);
      try {
        if (r.program(activation) !== true && !(unchanged && !r.transition)) out.push(ruleError(path, s, r, activation));
      } catch (err) {
        out.push(fieldError.invalid(path, s.type, `${r.rule.rule.trim()}: ${(err as Error).message}`));
      }
    }
  }
  if (isObj(x)) {
    const o = isObj(old) ? old : undefined;
    for (const [k, v] of Object.entries(x)) {
      const prop = s.properties?.get(k) ?? (s.additional !== true ? s.additional : undefined);
      validateCel(v, o?.[k], prop, join(path, k), out);
    }
  } else if (Array.isArray(x)) {
    // Only list-type=map entries correlate (by their keys); atomic lists and sets have no old entries.
    const keys = s.listMapKeys;
    (x as unknown[]).forEach((v, i) => validateCel(v, keys ? correlatedEntry(v, old, keys) : undefined, s.items, `${path}[${i}]`, out));
  }
}

// ---------------------------------------------------------------------------------------------------------------

function compile(schema: JSONSchemaProps | undefined, cel: CelEngine | undefined): CustomResourceSchema {
  const root = isSchema(schema) ? schema : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const node = structural(root, cel);
  const celActive = hasRules(node);
  // The root's metadata is ObjectMeta: the server validates it, the schema only constrains name/generateName.
  const translated = translate(root);
  let validateFn: ValidateFunction;
  try {
    sharedAjv ??= newAjv();
    validateFn = sharedAjv.compile(translated);
  } catch (err) {
    throw new SchemaCompileError(`cannot compile schema: ${(err as Error).message}`);
  }
  const fieldErrors = (obj: unknown, old?: unknown): FieldError[] => {
    const errors: FieldError[] = [];
    if (!validateFn(obj)) {
      const errs = validateFn.errors ?? [];
      const typeFailed = new Set(errs.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
      // kube-openapi's string validator stops at its first failure: maxLength, then minLength, then pattern.
      const firstStringError = new Map<string, string>();
      for (const k of STRING_CHECKS) {
        for (const e of errs) if (e.keyword === k && !firstStringError.has(e.instancePath)) firstStringError.set(e.instancePath, k);
      }
      for (const e of errs) {
        if (insideBranch(e.schemaPath)) continue;
        if (e.keyword !== 'type' && typeFailed.has(e.instancePath)) continue;
        if (STRING_CHECKS.includes(e.keyword) && firstStringError.get(e.instancePath) !== e.keyword) continue;
        if (e.data === null && (e.parentSchema as Record<string, unknown> | undefined)?.[K8S_NULLABLE] === true) continue;
        const error = mapError(e, pointerToField(obj, e.instancePath));
        if (error) errors.push(error);
      }
    }
    validateEmbedded(obj, node, '', errors);
    if (celActive) validateCel(obj, old, node, '', errors);
    const seen = new Set<string>();
    return errors.filter((e) => {
      const key = formatFieldError(e);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };
  return {
    applyDefaults(obj) {
      pruneNullsWithoutDefaults(obj, node);
      applyDefaultsTo(obj, node);
    },
    prune(obj) {
      const out: string[] = [];
      pruneTo(obj, node, '', true, out, true);
      return out.sort();
    },
    unknownFields(obj) {
      const out: string[] = [];
      pruneTo(obj, node, '', false, out, true);
      return out.sort();
    },
    fieldErrors,
    validate: (obj, old) => toStatusCauses(fieldErrors(obj, old)),
  };
}

const MAX_CACHED = 512;
interface Cache {
  byIdentity: WeakMap<object, CustomResourceSchema>;
  byContent: Map<string, CustomResourceSchema>;
}
const NO_CEL = {};
const caches = new WeakMap<object, Cache>();

/**
 * Compiles a CRD version's openAPIV3Schema once; later calls with the same object or the same content (and the same
 * CEL engine) hit a cache, since this runs on every write. An undefined schema preserves everything and validates
 * nothing. Throws SchemaCompileError for a schema ajv or the CEL engine rejects.
 */
export function compileCustomResourceSchema(schema: JSONSchemaProps | undefined, options: CompileOptions = {}): CustomResourceSchema {
  const engineKey: object = options.cel ?? NO_CEL;
  let cache = caches.get(engineKey);
  if (!cache) {
    cache = { byIdentity: new WeakMap(), byContent: new Map() };
    caches.set(engineKey, cache);
  }
  const { byIdentity, byContent } = cache;
  if (schema && byIdentity.has(schema)) return byIdentity.get(schema) as CustomResourceSchema;
  const key = JSON.stringify(schema ?? null);
  let compiled = byContent.get(key);
  if (compiled) {
    byContent.delete(key); // refresh LRU position
  } else {
    compiled = compile(schema, options.cel);
    if (byContent.size >= MAX_CACHED) {
      const oldest = byContent.keys().next().value;
      if (oldest !== undefined) byContent.delete(oldest);
    }
  }
  byContent.set(key, compiled);
  if (schema) byIdentity.set(schema, compiled);
  return compiled;
}
