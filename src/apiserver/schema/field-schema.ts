// The structural description the patch engines walk: enough of OpenAPI (and of the Go struct tags)
// to know how maps and lists merge, and which map keys are declared struct fields.

export type ListType = 'atomic' | 'set' | 'map';
export type ListPatchStrategy = 'merge' | 'replace' | 'retainKeys' | 'merge,retainKeys';

export interface ObjectFieldSchema {
  kind: 'object';
  /** Declared struct fields. SSA treats their presence differently from free-form map keys. */
  properties?: Record<string, FieldSchema>;
  /** Schema of undeclared keys (a map[string]T). */
  additionalProperties?: FieldSchema;
  /** x-kubernetes-map-type / +structType: atomic objects are owned and replaced as a whole. */
  mapType?: 'granular' | 'atomic';
  /** Undeclared keys are kept and typed by deduction (maps granular, lists atomic). */
  preserveUnknown?: boolean;
  /** SMP strategy of this field when it is a struct (e.g. Deployment.spec.strategy is retainKeys). */
  patchStrategy?: 'replace' | 'retainKeys';
  embeddedResource?: boolean;
}

export interface ArrayFieldSchema {
  kind: 'array';
  items?: FieldSchema;
  /** SSA list semantics; when absent, derived from the SMP tags (merge+key → map, merge → set, else atomic). */
  listType?: ListType;
  listMapKeys?: string[];
  /** SMP: `merge` merges by patchMergeKey (maps) or by value (primitives); anything else replaces. */
  patchStrategy?: ListPatchStrategy;
  patchMergeKey?: string;
}

export interface ScalarFieldSchema {
  kind: 'scalar';
  intOrString?: boolean;
  /** Used as a missing list-map key's value, as SMD does with schema defaults. */
  default?: unknown;
}

export interface UnknownFieldSchema {
  kind: 'unknown';
}

export type FieldSchema = ObjectFieldSchema | ArrayFieldSchema | ScalarFieldSchema | UnknownFieldSchema;

export type JsonObject = Record<string, unknown>;

export const SCALAR: ScalarFieldSchema = { kind: 'scalar' };
export const UNKNOWN: UnknownFieldSchema = { kind: 'unknown' };

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** Schema of a map key inside an object schema; `undefined` when the schema says nothing (treated as unknown). */
export function childSchema(schema: FieldSchema | undefined, key: string): FieldSchema | undefined {
  if (!schema || schema.kind !== 'object') return schema?.kind === 'unknown' ? UNKNOWN : undefined;
  return schema.properties?.[key] ?? schema.additionalProperties ?? (schema.preserveUnknown ? UNKNOWN : undefined);
}

export function isDeclaredField(schema: FieldSchema | undefined, key: string): boolean {
  return schema?.kind === 'object' && schema.properties !== undefined && Object.hasOwn(schema.properties, key);
}

export function itemSchema(schema: FieldSchema | undefined): FieldSchema | undefined {
  if (!schema) return undefined;
  if (schema.kind === 'unknown') return UNKNOWN;
  return schema.kind === 'array' ? schema.items : undefined;
}

/** The list semantics SSA uses: explicit listType wins; built-ins without one follow their SMP tags, as schemaconv does. */
export function ssaListType(schema: ArrayFieldSchema): { type: ListType; keys: string[] } {
  if (schema.listType === 'map') return { type: 'map', keys: schema.listMapKeys ?? (schema.patchMergeKey ? [schema.patchMergeKey] : []) };
  if (schema.listType) return { type: schema.listType, keys: [] };
  if (schema.patchStrategy?.split(',').includes('merge')) {
    return schema.patchMergeKey ? { type: 'map', keys: [schema.patchMergeKey] } : { type: 'set', keys: [] };
  }
  return { type: 'atomic', keys: [] };
}

const labelMap: ObjectFieldSchema = { kind: 'object', additionalProperties: SCALAR };

const managedFieldsEntry: ObjectFieldSchema = {
  kind: 'object',
  properties: {
    manager: SCALAR,
    operation: SCALAR,
    apiVersion: SCALAR,
    time: SCALAR,
    fieldsType: SCALAR,
    fieldsV1: { kind: 'object', mapType: 'atomic', preserveUnknown: true },
    subresource: SCALAR,
  },
};

/** metav1.ObjectMeta, whatever the enclosing schema declares (CRD schemas may not describe metadata at all). */
export const OBJECT_META_SCHEMA: ObjectFieldSchema = {
  kind: 'object',
  properties: {
    name: SCALAR,
    generateName: SCALAR,
    namespace: SCALAR,
    selfLink: SCALAR,
    uid: SCALAR,
    resourceVersion: SCALAR,
    generation: SCALAR,
    creationTimestamp: SCALAR,
    deletionTimestamp: SCALAR,
    deletionGracePeriodSeconds: SCALAR,
    labels: labelMap,
    annotations: labelMap,
    ownerReferences: {
      kind: 'array',
      listType: 'map',
      listMapKeys: ['uid'],
      patchStrategy: 'merge',
      patchMergeKey: 'uid',
      items: {
        kind: 'object',
        properties: { apiVersion: SCALAR, kind: SCALAR, name: SCALAR, uid: SCALAR, controller: SCALAR, blockOwnerDeletion: SCALAR },
      },
    },
    finalizers: { kind: 'array', items: SCALAR, listType: 'set', patchStrategy: 'merge' },
    managedFields: { kind: 'array', items: managedFieldsEntry, listType: 'atomic' },
  },
};

/** A top-level resource schema: apiVersion/kind scalars and the built-in ObjectMeta. */
export function withObjectMeta(schema: ObjectFieldSchema): ObjectFieldSchema {
  return {
    ...schema,
    properties: { ...schema.properties, apiVersion: SCALAR, kind: SCALAR, metadata: OBJECT_META_SCHEMA },
  };
}

/** Converts a CRD version's openAPIV3Schema (a structural schema) into a FieldSchema for the whole object. */
export function fromOpenAPIV3Schema(schema: unknown): ObjectFieldSchema {
  const converted = convert(schema);
  const root: ObjectFieldSchema = converted.kind === 'object' ? converted : { kind: 'object', preserveUnknown: true };
  return withObjectMeta(root);
}

function convert(raw: unknown): FieldSchema {
  if (!isJsonObject(raw)) return UNKNOWN;
  if (raw['x-kubernetes-int-or-string'] === true) return { kind: 'scalar', intOrString: true };
  const preserve = raw['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = raw['x-kubernetes-embedded-resource'] === true;
  const type = typeof raw['type'] === 'string' ? raw['type'] : undefined;
  const props = isJsonObject(raw['properties']) ? raw['properties'] : undefined;
  const addl = raw['additionalProperties'];

  if (type === 'array') {
    const out: ArrayFieldSchema = { kind: 'array', items: convert(raw['items']) };
    const lt = raw['x-kubernetes-list-type'];
    // Structural CRD lists default to atomic.
    out.listType = lt === 'set' || lt === 'map' ? lt : 'atomic';
    const keys = raw['x-kubernetes-list-map-keys'];
    if (out.listType === 'map' && Array.isArray(keys)) out.listMapKeys = keys.filter((k): k is string => typeof k === 'string');
    return out;
  }
  if (type === 'object' || props || addl !== undefined || embedded) {
    const out: ObjectFieldSchema = { kind: 'object' };
    if (props) {
      out.properties = {};
      for (const [k, v] of Object.entries(props)) out.properties[k] = convert(v);
    }
    if (isJsonObject(addl)) out.additionalProperties = convert(addl);
    else if (addl === true) out.additionalProperties = UNKNOWN;
    if (raw['x-kubernetes-map-type'] === 'atomic') out.mapType = 'atomic';
    if (preserve) out.preserveUnknown = true;
    if (embedded) {
      out.embeddedResource = true;
      out.properties = { ...out.properties, apiVersion: SCALAR, kind: SCALAR, metadata: OBJECT_META_SCHEMA };
    }
    // An object with neither properties nor additionalProperties carries no structure of its own.
    if (!props && addl === undefined && !embedded && !preserve) out.preserveUnknown = true;
    return out;
  }
  if (preserve) return UNKNOWN;
  if (type === undefined) return UNKNOWN;
  return raw['default'] !== undefined ? { kind: 'scalar', default: raw['default'] } : SCALAR;
}
