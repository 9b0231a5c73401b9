// apiextensions.k8s.io/v1 CustomResourceDefinition defaulting and validation, after apiextensions-apiserver's
// SetDefaults_* and ValidateCustomResourceDefinition(Update), with its field paths and wording.
import { fieldError, formatFieldError, toStatusCauses, type FieldError } from '../../apimachinery/field-error.ts';
import type { KubeObject, StatusCause } from '../../apimachinery/object.ts';
import { compileCustomResourceSchema, goRegExp, type CelEngine, type JSONSchemaProps } from './custom-resource-schema.ts';

type Json = Record<string, unknown>;

function rec(v: unknown): Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
}
function isRec(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? (v as unknown[]) : [];
}
function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The storage version's name, if exactly one version is marked storage. */
export function storageVersionOf(crd: KubeObject): string | undefined {
  const storage = arr(rec(crd['spec']).versions)
    .map(rec)
    .filter((v) => v.storage === true);
  return storage.length === 1 ? str(storage[0]?.name) : undefined;
}

/**
 * SetDefaults_CustomResourceDefinition: singular and listKind from kind, conversion strategy None, webhook service
 * port 443, storedVersions from the storage version. Mutates and returns crd.
 */
export function defaultCrd<T extends KubeObject>(crd: T): T {
  const spec = rec(crd['spec']);
  if (!isRec(crd['spec'])) (crd as Json)['spec'] = spec;
  const names = rec(spec.names);
  if (!isRec(spec.names)) spec.names = names;
  const kind = str(names.kind);
  if (!str(names.singular)) names.singular = kind.toLowerCase();
  if (!str(names.listKind) && kind) names.listKind = `${kind}List`;
  if (!isRec(spec.conversion)) spec.conversion = { strategy: 'None' };
  const conversion = rec(spec.conversion);
  if (!str(conversion.strategy)) conversion.strategy = 'None';
  const service = rec(rec(rec(conversion.webhook).clientConfig).service);
  if (isRec(rec(rec(conversion.webhook).clientConfig).service) && service.port === undefined) service.port = 443;
  const status = rec(crd['status']);
  if (arr(status.storedVersions).length === 0) {
    const storage = arr(spec.versions)
      .map(rec)
      .find((v) => v.storage === true);
    if (storage) {
      status.storedVersions = [str(storage.name)];
      (crd as Json)['status'] = status;
    }
  }
  return crd;
}

/**
 * The create strategy's PrepareForCreate: status is server-owned, so it is reset and storedVersions lists every
 * version marked storage (validation then reports a count other than one). Call after defaultCrd, before validateCrd.
 */
export function prepareCrdForCreate<T extends KubeObject>(crd: T): T {
  const storage = arr(rec(crd['spec']).versions)
    .map(rec)
    .filter((v) => v.storage === true)
    .map((v) => str(v.name));
  (crd as Json)['status'] = { storedVersions: [...new Set(storage)] };
  return crd;
}

// ---------------------------------------------------------------------------------------------------------------
// apimachinery/pkg/util/validation name checks.

interface NameRule {
  max: number;
  pattern: RegExp;
  message: string;
}

const DNS1123_SUBDOMAIN: NameRule = {
  max: 253,
  pattern: /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/,
  message:
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
};

const DNS1035_LABEL: NameRule = {
  max: 63,
  pattern: /^[a-z]([-a-z0-9]*[a-z0-9])?$/,
  message:
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
};

function nameErrors(v: string, rule: NameRule): string[] {
  const errs: string[] = [];
  if (v.length > rule.max) errs.push(`must be no more than ${rule.max} characters`);
  if (!rule.pattern.test(v)) errs.push(rule.message);
  return errs;
}

function isDns1123Subdomain(v: string): string[] {
  return nameErrors(v, DNS1123_SUBDOMAIN);
}

function isDns1035Label(v: string): string[] {
  return nameErrors(v, DNS1035_LABEL);
}

// Go prints the offending []CustomResourceDefinitionVersion with %#v; this keeps the identifying fields.
function renderVersions(versions: unknown[]): string {
  const items = versions.map(rec).map((v) => `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(str(v.name))}, Served:${v.served === true}, Storage:${v.storage === true}, ...}`);
  return `[]apiextensions.CustomResourceDefinitionVersion{${items.join(', ')}}`;
}

// ---------------------------------------------------------------------------------------------------------------

function validateNames(names: Json, path: string, out: FieldError[]): void {
  const plural = str(names.plural);
  const singular = str(names.singular);
  const kind = str(names.kind);
  const listKind = str(names.listKind);
  if (plural) {
    const errs = isDns1035Label(plural);
    if (errs.length) out.push(fieldError.invalid(`${path}.plural`, plural, errs.join(',')));
  }
  if (singular) {
    const errs = isDns1035Label(singular);
    if (errs.length) out.push(fieldError.invalid(`${path}.singular`, singular, errs.join(',')));
  }
  if (kind) {
    const errs = isDns1035Label(kind.toLowerCase());
    if (errs.length) out.push(fieldError.invalid(`${path}.kind`, kind, `may have mixed case, but should otherwise match: ${errs.join(',')}`));
  }
  if (listKind) {
    const errs = isDns1035Label(listKind.toLowerCase());
    if (errs.length) out.push(fieldError.invalid(`${path}.listKind`, listKind, `may have mixed case, but should otherwise match: ${errs.join(',')}`));
  }
  arr(names.shortNames).forEach((s, i) => {
    const errs = isDns1035Label(str(s));
    if (errs.length) out.push(fieldError.invalid(`${path}.shortNames[${i}]`, s, errs.join(',')));
  });
  if (kind && kind === listKind) out.push(fieldError.invalid(`${path}.listKind`, listKind, 'kind and listKind may not be the same'));
  arr(names.categories).forEach((c, i) => {
    const errs = isDns1035Label(str(c));
    if (errs.length) out.push(fieldError.invalid(`${path}.categories[${i}]`, c, errs.join(',')));
  });
}

const PRINTER_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

function validateSimpleJsonPath(s: string, path: string, out: FieldError[]): boolean {
  if (s.length === 0) out.push(fieldError.invalid(path, s, 'must not be empty'));
  else if (s[0] !== '.') out.push(fieldError.invalid(path, s, 'must be a simple json path starting with .'));
  else return true;
  return false;
}

function validatePrinterColumn(col: Json, path: string, out: FieldError[]): void {
  if (!str(col.name)) out.push(fieldError.required(`${path}.name`));
  const type = str(col.type);
  if (!type) out.push(fieldError.required(`${path}.type`));
  else if (!PRINTER_TYPES.includes(type)) out.push(fieldError.notSupported(`${path}.type`, type, PRINTER_TYPES));
  const format = str(col.format);
  if (format && !PRINTER_FORMATS.includes(format)) out.push(fieldError.notSupported(`${path}.format`, format, PRINTER_FORMATS));
  const jsonPath = str(col.jsonPath);
  if (!jsonPath) out.push(fieldError.required(`${path}.jsonPath`));
  else validateSimpleJsonPath(jsonPath, `${path}.jsonPath`, out);
}

function validateSubresources(sub: Json, path: string, out: FieldError[]): void {
  if (!isRec(sub.scale)) return;
  const scale = sub.scale;
  const check = (key: string, prefixes: string[], msg: string, required: boolean): void => {
    const v = str(scale[key]);
    const p = `${path}.scale.${key}`;
    if (!v) {
      if (required) out.push(fieldError.required(p));
      return;
    }
    if (validateSimpleJsonPath(v, p, out) && !prefixes.some((pre) => v.startsWith(pre))) out.push(fieldError.invalid(p, v, msg));
  };
  check('specReplicasPath', ['.spec.'], 'should be a json path under .spec', true);
  check('statusReplicasPath', ['.status.'], 'should be a json path under .status', true);
  check('labelSelectorPath', ['.spec.', '.status.'], 'should be a json path under either .spec or .status', false);
}

// ---------------------------------------------------------------------------------------------------------------
// Schema rules: ValidateCustomResourceDefinitionOpenAPISchema plus structural-schema invariants.

type Level = 'root' | 'field' | 'item';

const OPENAPI_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const UNSUPPORTED_KEYWORDS: [string, string][] = [
  ['id', 'id is not supported'],
  ['additionalItems', 'additionalItems is not supported'],
  ['patternProperties', 'patternProperties is not supported'],
  ['definitions', 'definitions is not supported'],
  ['dependencies', 'dependencies is not supported'],
  ['$ref', '$ref is not supported'],
];
const META_FIELDS = new Set(['metadata', 'apiVersion', 'kind']);

interface SchemaWalk {
  cel: CelEngine | undefined;
  /** ValidateCustomResourceDefinitionOpenAPISchema's errors. */
  general: FieldError[];
  /** ValidateStructural's errors (reported sorted, before the others). */
  structural: FieldError[];
  defaults: { path: string; schema: JSONSchemaProps }[];
}

function renderStrings(values: unknown[]): string {
  return `[]string{${values.map((k) => JSON.stringify(str(k))).join(', ')}}`;
}

/** The OpenAPI rules every schema node obeys (specStandardValidatorV3 and friends). */
function openApiRules(s: JSONSchemaProps, path: string, forbidDefaults: string | undefined, insideMeta: boolean, w: SchemaWalk): void {
  const type = typeof s.type === 'string' ? s.type : '';
  if (type && !OPENAPI_TYPES.includes(type)) w.general.push(fieldError.notSupported(`${path}.type`, type, OPENAPI_TYPES));
  if (s.default !== undefined && forbidDefaults !== undefined) w.general.push(fieldError.forbidden(`${path}.default`, forbidDefaults ? `must not be set ${forbidDefaults}` : 'must not be set'));
  for (const [key, msg] of UNSUPPORTED_KEYWORDS) if (s[key] !== undefined) w.general.push(fieldError.forbidden(`${path}.${key}`, msg));
  if (type === 'null') w.general.push(fieldError.forbidden(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items)) w.general.push(fieldError.forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  if (insideMeta && s['x-kubernetes-embedded-resource'] === true) w.general.push(fieldError.forbidden(`${path}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'));
  if (s.uniqueItems === true) w.general.push(fieldError.forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (s.additionalProperties !== undefined && isRec(s.properties) && Object.keys(s.properties).length > 0 && s.additionalProperties !== true) {
    w.general.push(fieldError.forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  }
}

/** Walks the schema the way ValidateCustomResourceDefinitionOpenAPISchema and ValidateStructural do together. */
function walkSchema(s: JSONSchemaProps, path: string, level: Level, forbidDefaults: string | undefined, insideMeta: boolean, w: SchemaWalk): void {
  const type = typeof s.type === 'string' ? s.type : '';
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'];
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const isRoot = level === 'root';

  openApiRules(s, path, forbidDefaults, insideMeta, w);
  if (typeof s.pattern === 'string') {
    try {
      goRegExp(s.pattern);
    } catch (err) {
      w.structural.push(fieldError.invalid(`${path}.pattern`, s.pattern, `must be a valid regular expression, but isn't: ${(err as Error).message}`));
    }
  }
  if (preserve === false) w.general.push(fieldError.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  validateListAndMapTypes(s, path, type, w.general);
  validateRules(s, path, w);

  // Structural invariants.
  if (type === 'array' && !isRec(s.items)) w.structural.push(fieldError.required(`${path}.items`, 'must be specified'));
  if (s.additionalProperties !== undefined && isRoot) w.structural.push(fieldError.forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
  if (intOrString && preserve === true) w.structural.push(fieldError.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) w.structural.push(fieldError.invalid(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (embedded && type !== 'object') {
    if (!type) w.structural.push(fieldError.required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
    else w.structural.push(fieldError.invalid(`${path}.type`, type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!type && !intOrString && preserve !== true) {
    const detail = isRoot ? 'must not be empty at the root' : level === 'item' ? 'must not be empty for specified array items' : 'must not be empty for specified object fields';
    w.structural.push(fieldError.required(`${path}.type`, detail));
  }
  if (embedded && s.additionalProperties !== undefined) w.structural.push(fieldError.forbidden(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  if (isRoot && type && type !== 'object') w.structural.push(fieldError.invalid(`${path}.type`, type, 'must be object at the root'));
  const props = isRec(s.properties) ? s.properties : {};
  const checkMeta = isRoot || embedded;
  if (checkMeta) {
    for (const key of ['kind', 'apiVersion']) {
      const p = props[key];
      if (isRec(p) && p['type'] !== 'string') w.structural.push(fieldError.invalid(`${path}.properties[${key}].type`, str(p['type']), 'must be string'));
    }
  }
  const metadata = props['metadata'];
  if (isRec(metadata)) validateMetadataSchema(metadata, checkMeta, isRoot, `${path}.properties[metadata]`, w.structural);
  if (embedded && preserve !== true && Object.keys(props).length === 0) {
    w.structural.push(fieldError.required(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  if (s.default !== undefined && forbidDefaults === undefined && !isRoot) w.defaults.push({ path: `${path}.default`, schema: s });

  for (const [k, v] of Object.entries(props)) {
    if (!isRec(v)) continue;
    let childForbid = forbidDefaults;
    let childMeta = insideMeta;
    if ((isRoot || embedded) && META_FIELDS.has(k)) {
      childMeta = true;
      if (isRoot) childForbid = `in top-level ${k}`;
    }
    walkSchema(v, `${path}.properties[${k}]`, 'field', childForbid, childMeta, w);
  }
  if (isRec(s.additionalProperties)) {
    const childForbid = insideMeta ? 'inside additionalProperties applying to object metadata' : forbidDefaults;
    walkSchema(s.additionalProperties, `${path}.additionalProperties`, 'field', childForbid, insideMeta, w);
  }
  if (isRec(s.items)) walkSchema(s.items, `${path}.items`, 'item', forbidDefaults, insideMeta, w);
  const anyOfIsIntOrString = isIntOrStringAnyOf(s.anyOf);
  const allOfHeadIsIntOrString = isRec(arr(s.allOf)[0]) && isIntOrStringAnyOf(rec(arr(s.allOf)[0]).anyOf);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    arr(s[k]).forEach((sub, i) => {
      if (!isRec(sub)) return;
      const skipAnyOf = (k === 'allOf' && i === 0 && allOfHeadIsIntOrString) || (k === 'anyOf' && anyOfIsIntOrString);
      walkNested(sub, `${path}.${k}[${i}]`, k === 'anyOf' && anyOfIsIntOrString, skipAnyOf && k === 'allOf', forbidDefaults, insideMeta, w);
    });
  }
  if (isRec(s.not)) walkNested(s.not, `${path}.not`, false, false, forbidDefaults, insideMeta, w);
}

function isIntOrStringAnyOf(anyOf: unknown): boolean {
  const a = arr(anyOf);
  if (a.length !== 2) return false;
  const only = (v: unknown, t: string): boolean => isRec(v) && Object.keys(v).length === 1 && v['type'] === t;
  return only(a[0], 'integer') && only(a[1], 'string');
}

// Value validations under allOf/anyOf/oneOf/not must not change the structure (validateNestedValueValidation).
function walkNested(
  s: JSONSchemaProps,
  path: string,
  isIntOrStringBranch: boolean,
  skipFirstAnyOf: boolean,
  forbidDefaults: string | undefined,
  insideMeta: boolean,
  w: SchemaWalk,
): void {
  openApiRules(s, path, forbidDefaults, insideMeta, w);
  const out = w.structural;
  if (typeof s.type === 'string' && s.type && !isIntOrStringBranch) out.push(fieldError.forbidden(`${path}.type`, 'must be empty to be structural'));
  if (s.additionalProperties !== undefined) out.push(fieldError.forbidden(`${path}.additionalProperties`, 'must be undefined to be structural'));
  if (s.default !== undefined) out.push(fieldError.forbidden(`${path}.default`, 'must be undefined to be structural'));
  if (s['title'] !== undefined) out.push(fieldError.forbidden(`${path}.title`, 'must be empty to be structural'));
  if (s.description !== undefined) out.push(fieldError.forbidden(`${path}.description`, 'must be empty to be structural'));
  if (s.nullable === true) out.push(fieldError.forbidden(`${path}.nullable`, 'must be false to be structural'));
  if (s['externalDocs'] !== undefined) out.push(fieldError.forbidden(`${path}.externalDocs`, 'must be undefined to be structural'));
  for (const k of ['x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string'] as const) {
    if (s[k] === true) out.push(fieldError.forbidden(`${path}.${k}`, 'must be false to be structural'));
  }
  if (arr(s['x-kubernetes-list-map-keys']).length > 0) out.push(fieldError.forbidden(`${path}.x-kubernetes-list-map-keys`, 'must be empty to be structural'));
  if (s['x-kubernetes-list-type'] !== undefined) out.push(fieldError.forbidden(`${path}.x-kubernetes-list-type`, 'must be undefined to be structural'));
  if (s['x-kubernetes-map-type'] !== undefined) out.push(fieldError.forbidden(`${path}.x-kubernetes-map-type`, 'must be undefined to be structural'));
  if (arr(s['x-kubernetes-validations']).length > 0) out.push(fieldError.forbidden(`${path}.x-kubernetes-validations`, 'must be empty to be structural'));
  const props = isRec(s.properties) ? s.properties : {};
  if (props['metadata'] !== undefined) out.push(fieldError.forbidden(`${path}.properties[metadata]`, 'must not be specified in a nested context'));
  for (const [k, v] of Object.entries(props)) if (isRec(v)) walkNested(v, `${path}.properties[${k}]`, false, false, forbidDefaults, insideMeta, w);
  if (isRec(s.items)) walkNested(s.items, `${path}.items`, false, false, forbidDefaults, insideMeta, w);
  const skipAnyOf = skipFirstAnyOf && isIntOrStringAnyOf(s.anyOf);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    arr(s[k]).forEach((sub, i) => {
      if (isRec(sub)) walkNested(sub, `${path}.${k}[${i}]`, k === 'anyOf' && skipAnyOf, false, forbidDefaults, insideMeta, w);
    });
  }
  if (isRec(s.not)) walkNested(s.not, `${path}.not`, false, false, forbidDefaults, insideMeta, w);
}

/** x-kubernetes-validations: rules must be present and, when a CEL engine is configured, compile. */
function validateRules(s: JSONSchemaProps, path: string, w: SchemaWalk): void {
  arr(s['x-kubernetes-validations']).forEach((raw, i) => {
    const r = rec(raw);
    const rPath = `${path}.x-kubernetes-validations[${i}]`;
    const rule = str(r.rule).trim();
    const message = str(r.message);
    if (!rule) {
      w.general.push(fieldError.required(`${rPath}.rule`, 'rule is not specified'));
      return;
    }
    if (message && !message.trim()) w.general.push(fieldError.invalid(`${rPath}.message`, message, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test(message.trim())) w.general.push(fieldError.invalid(`${rPath}.message`, message, 'message must not contain line breaks'));
    else if (/[\n\r]/.test(rule) && !message.trim()) w.general.push(fieldError.required(`${rPath}.message`, 'message must be specified if rule contains line breaks'));
    if (!w.cel) return;
    for (const key of ['rule', 'messageExpression'] as const) {
      const expr = str(r[key]);
      if (!expr) continue;
      try {
        w.cel.compile(expr);
      } catch (err) {
        const rendered = `apiextensions.ValidationRule{Rule:${JSON.stringify(str(r.rule))}, Message:${JSON.stringify(message)}, ...}`;
        w.general.push(fieldError.invalidPrinted(`${rPath}.${key}`, rendered, `compilation failed: ${(err as Error).message}`));
      }
    }
  });
}

/** metadata at the root may only constrain name and generateName; anywhere it must be an object (where checked). */
function validateMetadataSchema(metadata: Json, checkMeta: boolean, isRoot: boolean, path: string, out: FieldError[]): void {
  if (checkMeta && metadata['type'] !== 'object') out.push(fieldError.invalid(`${path}.type`, str(metadata['type']), 'must be object'));
  if (!isRoot) return;
  const propKeys = isRec(metadata['properties']) ? Object.keys(metadata['properties']) : [];
  const onlyNames = propKeys.every((k) => k === 'name' || k === 'generateName');
  const otherKeywords = Object.keys(metadata).filter((k) => k !== 'type' && k !== 'default' && k !== 'properties');
  if (!onlyNames || otherKeywords.length > 0) {
    out.push(fieldError.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
}

function validateListAndMapTypes(s: JSONSchemaProps, path: string, type: string, out: FieldError[]): void {
  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined && type !== 'object') {
    if (!type) out.push(fieldError.required(`${path}.type`, 'must be object if x-kubernetes-map-type is specified'));
    else out.push(fieldError.invalid(`${path}.type`, type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') out.push(fieldError.notSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  const listType = s['x-kubernetes-list-type'];
  if (listType !== undefined && type !== 'array') {
    if (!type) out.push(fieldError.required(`${path}.type`, 'must be array if x-kubernetes-list-type is specified'));
    else out.push(fieldError.invalid(`${path}.type`, type, 'must be array if x-kubernetes-list-type is specified'));
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    out.push(fieldError.notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  }
  const mapKeys = arr(s['x-kubernetes-list-map-keys']);
  if (mapKeys.length > 0) {
    if (listType === undefined) out.push(fieldError.required(`${path}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') out.push(fieldError.invalid(`${path}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType !== 'map') return;
  if (mapKeys.length === 0) out.push(fieldError.required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
  const items = s.items;
  if (items === undefined) {
    out.push(fieldError.required(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
    return;
  }
  if (!isRec(items)) return;
  if (items['type'] !== 'object') {
    out.push(fieldError.invalid(`${path}.items.type`, str(items['type']), "must be object if parent array's x-kubernetes-list-type is map"));
    return;
  }
  const props = rec(items['properties']);
  const seen = new Set<string>();
  for (const k of mapKeys.map(str)) {
    const prop = props[k];
    if (isRec(prop)) {
      if (prop['type'] === 'array' || prop['type'] === 'object') out.push(fieldError.invalid(`${path}.items.properties[${k}].type`, 'object', "must be a scalar type if parent array's x-kubernetes-list-type is map"));
    } else {
      out.push(fieldError.invalidPrinted(`${path}.x-kubernetes-list-map-keys`, renderStrings(mapKeys), 'entries must all be names of item properties'));
    }
    if (seen.has(k)) out.push(fieldError.invalidPrinted(`${path}.x-kubernetes-list-map-keys`, renderStrings(mapKeys), 'must not contain duplicate entries'));
    seen.add(k);
  }
  if (items['nullable'] === true) out.push(fieldError.forbidden(`${path}.items.nullable`, 'cannot be nullable when x-kubernetes-list-type is map'));
  const required = arr(items['required']).map(str);
  for (const k of mapKeys.map(str)) {
    const prop = props[k];
    if (!isRec(prop)) continue;
    if (!required.includes(k) && prop['default'] === undefined) {
      out.push(fieldError.required(`${path}.items.properties[${k}].default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    }
    if (prop['nullable'] === true) out.push(fieldError.forbidden(`${path}.items.properties[${k}].nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
}

/** Defaults must validate against their own schema and must not carry fields pruning would drop. */
function validateDefaults(defaults: SchemaWalk['defaults'], cel: CelEngine | undefined, out: FieldError[]): void {
  for (const { path, schema } of defaults) {
    let compiled;
    try {
      compiled = compileCustomResourceSchema(schema, { cel });
    } catch {
      continue; // the pattern or schema error is reported by the general rules
    }
    const value = structuredClone(schema.default);
    for (const e of compiled.fieldErrors(value)) {
      const rel = e.field;
      out.push({ ...e, field: rel ? (rel.startsWith('[') ? `${path}${rel}` : `${path}.${rel}`) : path });
    }
    // unknownFields treats its argument as a resource root (keeps apiVersion/kind/metadata): close enough for defaults.
    if (isRec(value) && compiled.unknownFields(value).length > 0) {
      out.push(fieldError.invalid(path, schema.default, 'must not have unknown fields'));
    }
  }
}

const ROOT_FIELDS_WITH_STATUS = [
  ['description', 'Description'],
  ['type', 'Type'],
  ['format', 'Format'],
  ['title', 'Title'],
  ['maximum', 'Maximum'],
  ['exclusiveMaximum', 'ExclusiveMaximum'],
  ['minimum', 'Minimum'],
  ['exclusiveMinimum', 'ExclusiveMinimum'],
  ['maxLength', 'MaxLength'],
  ['minLength', 'MinLength'],
  ['pattern', 'Pattern'],
  ['maxItems', 'MaxItems'],
  ['minItems', 'MinItems'],
  ['uniqueItems', 'UniqueItems'],
  ['multipleOf', 'MultipleOf'],
  ['required', 'Required'],
  ['items', 'Items'],
  ['properties', 'Properties'],
  ['externalDocs', 'ExternalDocs'],
  ['example', 'Example'],
  ['x-kubernetes-preserve-unknown-fields', 'XPreserveUnknownFields'],
  ['x-kubernetes-validations', 'XValidations'],
] as const;

function isZero(v: unknown): boolean {
  return v === undefined || v === null || v === false || v === '' || v === 0 || (Array.isArray(v) && v.length === 0) || (isRec(v) && Object.keys(v).length === 0);
}

/** With the status subresource, status validation is cut out of properties[status]: the root may hold little else. */
function validateRootWithStatus(schema: Json, sPath: string, out: FieldError[]): void {
  if (!isZero(schema['type']) && schema['type'] !== 'object') {
    out.push(fieldError.invalid(`${sPath}.type`, schema['type'], 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
    return;
  }
  const allowed = new Set<string>(ROOT_FIELDS_WITH_STATUS.map(([json]) => json));
  if (Object.entries(schema).some(([k, v]) => !allowed.has(k) && !isZero(v))) {
    const names = ROOT_FIELDS_WITH_STATUS.map(([, goName]) => goName).join(' ');
    out.push(fieldError.invalidPrinted(sPath, 'apiextensions.JSONSchemaProps{...}', `only [${names}] fields are allowed at the root of the schema if the status subresource is enabled`));
  }
}

function validateVersionSchema(schemaHolder: unknown, path: string, statusEnabled: boolean, cel: CelEngine | undefined, out: FieldError[]): void {
  const schema = rec(schemaHolder)['openAPIV3Schema'];
  const sPath = `${path}.openAPIV3Schema`;
  if (!isRec(schema)) {
    out.push(fieldError.required(sPath, 'schemas are required'));
    return;
  }
  if (statusEnabled) validateRootWithStatus(schema, sPath, out);
  if (schema['nullable'] === true) out.push(fieldError.forbidden(`${sPath}.nullable`, 'nullable cannot be true at the root'));
  const w: SchemaWalk = { cel, general: [], structural: [], defaults: [] };
  walkSchema(schema, sPath, 'root', undefined, false, w);
  // Upstream order: structural errors (sorted by text), else default checks; then the OpenAPI rules.
  const key = formatFieldError;
  out.push(...w.structural.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)));
  if (w.structural.length === 0) validateDefaults(w.defaults, cel, out);
  out.push(...w.general);
}

// ---------------------------------------------------------------------------------------------------------------

export interface CrdValidationOptions {
  /** When given, x-kubernetes-validations rules must compile. */
  cel?: CelEngine;
}

/**
 * ValidateCustomResourceDefinition (create) or, with `old`, ValidateCustomResourceDefinitionUpdate.
 * Expects a defaulted object (see defaultCrd, and prepareCrdForCreate on create). Returns [] when valid.
 */
export function validateCrd(crd: KubeObject, old?: KubeObject, options: CrdValidationOptions = {}): StatusCause[] {
  const out: FieldError[] = [];
  const spec = rec(crd['spec']);
  const names = rec(spec.names);
  const group = str(spec.group);
  const plural = str(names.plural);

  const name = crd.metadata?.name ?? '';
  if (name) {
    for (const e of isDns1123Subdomain(name)) out.push(fieldError.invalid('metadata.name', name, e));
    if (name !== `${plural}.${group}`) out.push(fieldError.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  }

  if (!group) out.push(fieldError.required('spec.group'));
  else {
    const errs = isDns1123Subdomain(group);
    if (errs.length) out.push(fieldError.invalid('spec.group', group, errs.join(',')));
    else if (group.split('.').length < 2) out.push(fieldError.invalid('spec.group', group, 'should be a domain with at least one dot'));
  }

  const scope = str(spec.scope);
  if (!scope) out.push(fieldError.required('spec.scope'));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') out.push(fieldError.notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));

  const versions = arr(spec.versions);
  if (versions.length === 0) {
    out.push(fieldError.required('spec.versions', 'must have exactly one version marked as storage version'));
  } else {
    let storageCount = 0;
    const seen = new Set<string>();
    let unique = true;
    versions.forEach((raw, i) => {
      const v = rec(raw);
      const vPath = `spec.versions[${i}]`;
      if (v.storage === true) storageCount++;
      const vName = str(v.name);
      if (seen.has(vName)) unique = false;
      seen.add(vName);
      if (!vName) out.push(fieldError.required(`${vPath}.name`));
      else {
        const errs = isDns1035Label(vName);
        if (errs.length) out.push(fieldError.invalid(`${vPath}.name`, vName, errs.join(',')));
      }
      validateVersionSchema(v.schema, `${vPath}.schema`, isRec(rec(v.subresources).status), options.cel, out);
      if (isRec(v.subresources)) validateSubresources(v.subresources, `${vPath}.subresources`, out);
      arr(v.additionalPrinterColumns).forEach((c, j) => validatePrinterColumn(rec(c), `${vPath}.additionalPrinterColumns[${j}]`, out));
    });
    if (!unique) out.push(fieldError.invalidPrinted('spec.versions', renderVersions(versions), 'must contain unique version names'));
    if (storageCount !== 1) out.push(fieldError.invalidPrinted('spec.versions', renderVersions(versions), 'must have exactly one version marked as storage version'));
  }

  if (!plural) out.push(fieldError.required('spec.names.plural'));
  if (!str(names.singular)) out.push(fieldError.required('spec.names.singular'));
  if (!str(names.kind)) out.push(fieldError.required('spec.names.kind'));
  if (!str(names.listKind)) out.push(fieldError.required('spec.names.listKind'));
  validateNames(names, 'spec.names', out);

  if (spec.preserveUnknownFields === true) {
    out.push(fieldError.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  }

  const conversion = rec(spec.conversion);
  const strategy = str(conversion.strategy);
  if (isRec(spec.conversion)) {
    if (!strategy) out.push(fieldError.required('spec.conversion.strategy'));
    else if (strategy !== 'None' && strategy !== 'Webhook') out.push(fieldError.notSupported('spec.conversion.strategy', strategy, ['None', 'Webhook']));
    if (strategy === 'None' && conversion.webhook !== undefined) out.push(fieldError.forbidden('spec.conversion.webhook', 'should not be set when strategy is not set to Webhook'));
    if (strategy === 'Webhook') {
      const webhook = rec(conversion.webhook);
      if (!isRec(webhook.clientConfig)) out.push(fieldError.required('spec.conversion.webhook', 'required when strategy is set to Webhook'));
      if (arr(webhook.conversionReviewVersions).length === 0) out.push(fieldError.required('spec.conversion.webhook.conversionReviewVersions', ''));
    }
  }

  const stored = rec(crd['status']).storedVersions;
  if (stored !== undefined) validateStoredVersions(arr(stored).map(str), versions.map(rec), out);

  if (old) validateUpdate(crd, old, out);
  return toStatusCauses(out);
}

function validateStoredVersions(stored: string[], versions: Json[], out: FieldError[]): void {
  if (stored.length === 0) {
    out.push(fieldError.invalidPrinted('status.storedVersions', '[]string{}', 'must have at least one stored version'));
    return;
  }
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of versions) {
    const n = str(v.name);
    if (v.storage === true && !remaining.has(n)) {
      out.push(fieldError.invalidPrinted('status.storedVersions', `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(n)}, ...}`, `must have the storage version ${n}`));
    }
    remaining.delete(n);
  }
  for (const [v, i] of remaining) out.push(fieldError.invalid(`status.storedVersions[${i}]`, v, 'must appear in spec.versions'));
}

function isEstablished(crd: KubeObject): boolean {
  return arr(rec(crd['status']).conditions).some((c) => rec(c).type === 'Established' && rec(c).status === 'True');
}

function validateUpdate(crd: KubeObject, old: KubeObject, out: FieldError[]): void {
  const spec = rec(crd['spec']);
  const oldSpec = rec(old['spec']);
  const immutable = (path: string, now: unknown, before: unknown): void => {
    if (now !== before) out.push(fieldError.invalid(path, now, 'field is immutable'));
  };
  immutable('spec.group', str(spec.group), str(oldSpec.group));
  immutable('spec.names.plural', str(rec(spec.names).plural), str(rec(oldSpec.names).plural));
  if (isEstablished(old)) immutable('spec.scope', str(spec.scope), str(oldSpec.scope));
}
