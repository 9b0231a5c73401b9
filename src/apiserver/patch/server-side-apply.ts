// Server-side apply and Update bookkeeping over FieldSets, reproducing structured-merge-diff's Updater
// (merge, prune of fields a manager stopped applying, conflicts, force) and the apiserver field manager around it.
import { StatusError, errors } from '../../apimachinery/status-error.ts';
import type { StatusCause } from '../../apimachinery/object.ts';
import { childSchema, isDeclaredField, isJsonObject, itemSchema, jsonEqual, ssaListType } from '../schema/field-schema.ts';
import type { FieldSchema, JsonObject, ObjectFieldSchema } from '../schema/field-schema.ts';
import {
  FieldSet,
  STRIPPED_FIELDS,
  capUpdateManagers,
  decodeManagedFields,
  describeManager,
  encodeManagedFields,
  fieldPE,
  formatTime,
  keyPE,
  managerId,
  pathToString,
  valuePE,
} from './managed-fields.ts';
import type { ManagedSets, ManagerRecord } from './managed-fields.ts';

type Shape = 'map' | 'list' | 'leaf';

/** How SMD walks a value here: atomic maps/lists and scalars are leaves; untyped lists are atomic. */
function shapeOf(schema: FieldSchema | undefined, v: unknown): Shape {
  if (isJsonObject(v)) {
    if (!schema || schema.kind === 'unknown') return 'map';
    return schema.kind === 'object' && schema.mapType !== 'atomic' ? 'map' : 'leaf';
  }
  if (Array.isArray(v)) {
    if (schema?.kind !== 'array') return 'leaf';
    return ssaListType(schema).type === 'atomic' ? 'leaf' : 'list';
  }
  return 'leaf';
}

function typedError(message: string): StatusError {
  return new StatusError(500, 'InternalError', message);
}

/** The path element naming a list item: `k:{...}` for map lists, `v:...` for sets. */
function itemPE(schema: FieldSchema | undefined, item: unknown, where: string): string {
  if (schema?.kind !== 'array') throw typedError(`${where}: list without a schema`);
  const lt = ssaListType(schema);
  if (lt.type === 'set') return valuePE(item);
  if (!isJsonObject(item)) throw typedError(`${where}: associative list with keys may not have non-map elements`);
  const key: Record<string, unknown> = {};
  for (const k of lt.keys) {
    if (Object.hasOwn(item, k)) key[k] = item[k];
    else {
      const ks = schema.items ? childSchema(schema.items, k) : undefined;
      if (ks?.kind === 'scalar' && ks.default !== undefined) key[k] = ks.default;
      else throw typedError(`${where}: associative list with keys has an element that omits key field "${k}" (and doesn't have default value)`);
    }
  }
  return keyPE(key);
}

function indexList(schema: FieldSchema | undefined, list: unknown[], where: string): { pes: string[]; byPE: Map<string, unknown> } {
  const pes: string[] = [];
  const byPE = new Map<string, unknown>();
  for (const item of list) {
    const pe = itemPE(schema, item, where);
    pes.push(pe);
    if (!byPE.has(pe)) byPE.set(pe, item);
  }
  return { pes, byPE };
}

/** The set of fields a value specifies (an apply configuration's ownership). */
export function toFieldSet(value: unknown, schema: FieldSchema | undefined, path: string[] = [], out = new FieldSet()): FieldSet {
  const shape = shapeOf(schema, value);
  if (shape === 'map') {
    for (const [k, v] of Object.entries(value as JsonObject)) {
      const p = [...path, fieldPE(k)];
      toFieldSet(v, childSchema(schema, k), p, out);
      // Map entries (not declared struct fields) and empty/null values are members themselves.
      if (v === null || (isJsonObject(v) && Object.keys(v).length === 0) || !isDeclaredField(schema, k)) out.insert(p);
    }
  } else if (shape === 'list') {
    const items = itemSchema(schema);
    for (const item of value as unknown[]) {
      const p = [...path, itemPE(schema, item, pathToString(path))];
      toFieldSet(item, items, p, out);
      out.insert(p);
    }
  } else if (path.length) {
    out.insert(path);
  }
  return out;
}

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/**
 * Field-level diff of two objects, as SMD's Compare: new/removed containers count as added/removed themselves.
 * `skip`: fields whose subtrees are not compared at all, for callers that take them out of the result anyway
 * (recursiveDifference): a status write's whole spec, a main-resource write's status.
 */
export function compareObjects(lhs: unknown, rhs: unknown, schema: FieldSchema | undefined, skip?: FieldSet): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  compareNode(lhs, rhs, schema, [], c, skip);
  return c;
}

function walkAll(v: unknown, schema: FieldSchema | undefined, path: string[], into: FieldSet): void {
  const shape = shapeOf(schema, v);
  if (shape === 'leaf') {
    if (path.length) into.insert(path);
    return;
  }
  if (shape === 'map') for (const [k, x] of Object.entries(v as JsonObject)) walkAll(x, childSchema(schema, k), [...path, fieldPE(k)], into);
  else for (const item of v as unknown[]) walkAll(item, itemSchema(schema), [...path, itemPE(schema, item, pathToString(path))], into);
  if (path.length) into.insert(path);
}

function compareNode(l: unknown, r: unknown, schema: FieldSchema | undefined, path: string[], c: Comparison, skip?: FieldSet): void {
  if (l === undefined && r === undefined) return;
  if (l === undefined) return walkAll(r, schema, path, c.added);
  if (r === undefined) return walkAll(l, schema, path, c.removed);
  const sl = l === null ? null : shapeOf(schema, l);
  const sr = r === null ? null : shapeOf(schema, r);
  const container = (s: Shape | null): boolean => s === 'map' || s === 'list';
  if ((sl === null || sr === null) && (container(sl) || container(sr))) {
    // null ↔ container: the children appear or disappear, the node itself was present on both sides.
    if (container(sr)) walkChildren(r, schema, path, c.added);
    else walkChildren(l, schema, path, c.removed);
    return;
  }
  if (sl !== sr || sl === 'leaf' || sl === null) {
    if (!jsonEqual(l, r)) c.modified.insert(path);
    return;
  }
  if (sl === 'map') {
    const lo = l as JsonObject;
    const ro = r as JsonObject;
    for (const k of new Set([...Object.keys(lo), ...Object.keys(ro)])) {
      const pe = fieldPE(k);
      if (skip?.members.has(pe)) continue;
      compareNode(lo[k], ro[k], childSchema(schema, k), [...path, pe], c, skip?.children.get(pe));
    }
    return;
  }
  const where = pathToString(path);
  const li = indexList(schema, l as unknown[], where);
  const ri = indexList(schema, r as unknown[], where);
  const items = itemSchema(schema);
  for (const pe of new Set([...li.pes, ...ri.pes])) {
    if (skip?.members.has(pe)) continue;
    compareNode(li.byPE.get(pe), ri.byPE.get(pe), items, [...path, pe], c, skip?.children.get(pe));
  }
}

/** metadata fields never recorded as owned (STRIPPED_FIELDS below f:metadata). */
const strippedMetadata = new Set([...STRIPPED_FIELDS.withPrefix('f:metadata').members].map((pe) => pe.slice(2)));

/**
 * FieldsV1 of a value's fields below it, in one walk: what walkAll, then FieldSet's encoding, give. `replace`
 * may answer for a key: null leaves it out, a FieldsV1 stands in for its fields (left out when empty). Undefined
 * when the value holds a list that is not atomic (its items' keys need the general path).
 */
function fieldsBelow(value: JsonObject, schema: FieldSchema | undefined, replace?: (key: string, v: unknown) => JsonObject | null | undefined): JsonObject | undefined {
  const out: JsonObject = {};
  // Field path elements in FieldSet order: by name, as strings compare.
  for (const key of Object.keys(value).sort()) {
    const v = value[key];
    const replaced = replace?.(key, v);
    if (replaced === null) continue;
    if (replaced !== undefined) {
      if (Object.keys(replaced).length > 0) out[fieldPE(key)] = replaced;
      continue;
    }
    const child = childSchema(schema, key);
    const shape = shapeOf(child, v);
    if (shape === 'list') return undefined;
    if (shape === 'leaf' || Object.keys(v as JsonObject).length === 0) {
      out[fieldPE(key)] = {};
      continue;
    }
    const below = fieldsBelow(v as JsonObject, child);
    if (!below) return undefined;
    out[fieldPE(key)] = { '.': {}, ...below };
  }
  return out;
}

/**
 * recordUpdate of a create with no managers yet (the common create): its one entry owns every field the object
 * sets, less the stripped and the ignored ones, built without field sets. Undefined where the general path is
 * needed: lists that are not atomic, ignored fields below the top level, a stripped metadata field with fields
 * of its own.
 */
function recordCreate(newObj: JsonObject, manager: string, apiVersion: string, time: Date | string, schema: ObjectFieldSchema, ignoredFields: readonly (readonly string[])[]): JsonObject | undefined {
  if (ignoredFields.some((path) => path.length !== 1)) return undefined;
  const ignored = new Set(ignoredFields.map((path) => path[0]!));
  const next = shallowWithoutManagedFields(newObj);
  const meta = next['metadata'];
  const metaSchema = childSchema(schema, 'metadata');
  if (!isJsonObject(meta) || shapeOf(metaSchema, meta) !== 'map') return undefined;
  // A stripped field with fields below it keeps those in the general path.
  for (const v of [next['apiVersion'], next['kind'], ...[...strippedMetadata].map((key) => meta[key])]) {
    if (isJsonObject(v) ? Object.keys(v).length > 0 : Array.isArray(v) && v.length > 0) return undefined;
  }
  const metaFields = fieldsBelow(meta, metaSchema, (key) => (strippedMetadata.has(key) ? null : undefined));
  if (!metaFields) return undefined;
  // At the top, as compareObjects from an empty object: unset fields are no fields.
  const fields = fieldsBelow(next, schema, (key, v) => {
    if (key === 'metadata') return metaFields;
    return v === undefined || key === 'apiVersion' || key === 'kind' || ignored.has(fieldPE(key)) ? null : undefined;
  });
  if (!fields) return undefined;
  if (Object.keys(fields).length === 0) return next;
  // Key order follows metav1.ManagedFieldsEntry's JSON, as encodeManagedFields writes it.
  const entry: JsonObject = { manager, operation: 'Update' };
  if (apiVersion) entry['apiVersion'] = apiVersion;
  entry['time'] = formatTime(time);
  entry['fieldsType'] = 'FieldsV1';
  entry['fieldsV1'] = fields;
  meta['managedFields'] = [entry];
  return next;
}

function walkChildren(v: unknown, schema: FieldSchema | undefined, path: string[], into: FieldSet): void {
  const tmp = new FieldSet();
  walkAll(v, schema, path, tmp);
  const own = path.length ? tmp.recursiveDifference(new FieldSet()) : tmp;
  // walkAll marks the container itself; drop that single member.
  if (path.length) {
    const self = FieldSet.fromPaths([path]);
    for (const p of own.difference(self).paths()) into.insert(p);
  } else for (const p of own.paths()) into.insert(p);
}

/** Merges an apply configuration into the live object (SMD merge: maps by key, associative lists by item, the rest replaced). */
export function mergeObjects(live: unknown, config: unknown, schema: FieldSchema | undefined, path: string[] = []): unknown {
  if (config === undefined) return live;
  if (live === undefined || live === null) return structuredClone(config);
  const sl = shapeOf(schema, live);
  const sr = shapeOf(schema, config);
  if (sl === 'map' && sr === 'map') {
    const lo = live as JsonObject;
    const ro = config as JsonObject;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(lo)) out[k] = Object.hasOwn(ro, k) ? mergeObjects(v, ro[k], childSchema(schema, k), [...path, fieldPE(k)]) : v;
    for (const [k, v] of Object.entries(ro)) if (!Object.hasOwn(lo, k)) out[k] = structuredClone(v);
    // An applied null owns the field but leaves it unset.
    for (const [k, v] of Object.entries(ro)) if (v === null) delete out[k];
    return out;
  }
  if (sl === 'list' && sr === 'list') return mergeLists(live as unknown[], config as unknown[], schema, path);
  return structuredClone(config);
}

/** SMD's list merge order: config order wins for shared items, live-only items keep their place between them. */
function mergeLists(lhs: unknown[], rhs: unknown[], schema: FieldSchema | undefined, path: string[]): unknown[] {
  const where = pathToString(path);
  const L = indexList(schema, lhs, where);
  const R = indexList(schema, rhs, where);
  const items = itemSchema(schema);
  const shared = R.pes.filter((pe) => L.byPE.has(pe));
  let next = 0;
  const nextShared = (): string | undefined => shared[next];
  const advanceIf = (pe: string): void => {
    if (nextShared() === pe) next++;
  };
  const out: unknown[] = [];
  const merged = new Set<string>();
  let li = 0;
  let ri = 0;
  const mergeItem = (pe: string): void => {
    merged.add(pe);
    out.push(mergeObjects(L.byPE.get(pe), R.byPE.get(pe), items, [...path, pe]));
  };
  while (li < L.pes.length || ri < R.pes.length) {
    const lpe = L.pes[li];
    const rpe = R.pes[ri];
    if (lpe !== undefined && rpe !== undefined) {
      if (lpe === rpe) {
        mergeItem(lpe);
        li++;
        ri++;
        advanceIf(lpe);
        continue;
      }
      const ns = nextShared();
      if (R.byPE.has(lpe) && ns !== undefined && ns !== lpe) {
        li++;
        continue;
      }
    }
    if (lpe !== undefined) {
      if (!R.byPE.has(lpe)) {
        out.push(lhs[li]);
        li++;
        continue;
      }
      if (merged.has(lpe)) {
        li++;
        continue;
      }
    }
    if (rpe !== undefined) {
      mergeItem(rpe);
      ri++;
      advanceIf(rpe);
    } else {
      li++;
    }
  }
  return out;
}

/** Removes the fields and items of `set` from a value; like SMD, a container left empty keeps its original content. */
export function removeFields(value: unknown, set: FieldSet, schema: FieldSchema | undefined, path: string[] = []): unknown {
  const shape = shapeOf(schema, value);
  if (shape === 'map') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value as JsonObject)) {
      const pe = fieldPE(k);
      if (set.members.has(pe)) continue;
      const sub = set.children.get(pe);
      out[k] = sub && !sub.isEmpty() ? removeFields(v, sub, childSchema(schema, k), [...path, pe]) : v;
    }
    return Object.keys(out).length ? out : value;
  }
  if (shape === 'list') {
    const out: unknown[] = [];
    const items = itemSchema(schema);
    for (const item of value as unknown[]) {
      const pe = itemPE(schema, item, pathToString(path));
      if (set.members.has(pe)) continue;
      const sub = set.children.get(pe);
      out.push(sub && !sub.isEmpty() ? removeFields(item, sub, items, [...path, pe]) : item);
    }
    return out.length ? out : value;
  }
  return value;
}

/** Adds declared struct fields that have owned children as members themselves (SMD EnsureNamedFieldsAreMembers). */
function ensureNamedFieldsAreMembers(set: FieldSet, schema: FieldSchema | undefined): FieldSet {
  const out = new FieldSet();
  for (const m of set.members) out.members.add(m);
  for (const [pe, c] of set.children) {
    let cs: FieldSchema | undefined;
    if (pe.startsWith('f:')) {
      const name = pe.slice(2);
      if (isDeclaredField(schema, name)) out.members.add(pe);
      cs = childSchema(schema, name);
    } else {
      cs = itemSchema(schema);
    }
    out.children.set(pe, ensureNamedFieldsAreMembers(c, cs));
  }
  return out;
}

function unionAll(sets: ManagedSets): FieldSet {
  let u = new FieldSet();
  for (const r of sets.values()) u = u.union(r.set);
  return u;
}

/** Drops what the applier owned before and no longer applies, unless another manager (or the new config) owns it. */
function prune(merged: unknown, managers: ManagedSets, lastSet: FieldSet | undefined, schema: FieldSchema): unknown {
  if (!lastSet || lastSet.isEmpty()) return merged;
  const ens = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(s, schema);
  const pruned1 = removeFields(merged, ens(lastSet), schema);
  const mergedSet = ens(toFieldSet(merged, schema));
  const managed = ens(unionAll(managers));
  const pruned2 = removeFields(merged, mergedSet.difference(ens(toFieldSet(pruned1, schema)).union(managed)), schema);
  return removeFields(merged, mergedSet.difference(ens(toFieldSet(pruned2, schema))).intersection(ens(lastSet)), schema);
}

interface Conflict {
  manager: ManagerRecord;
  path: string[];
}

/** Moves ownership of what changed between live and next away from other managers; reports conflicts unless forced. */
function transfer(live: unknown, next: unknown, managers: ManagedSets, selfId: string, schema: FieldSchema, ignored: FieldSet, force: boolean): Comparison {
  // What is ignored is taken out of every use of the comparison below, and out of the caller's.
  const cmp = compareObjects(live, next, schema, ignored);
  const changed = cmp.modified.union(cmp.added).recursiveDifference(ignored);
  const removed = cmp.removed.recursiveDifference(ignored);
  const conflicts: Conflict[] = [];
  for (const [id, rec] of managers) {
    if (id === selfId) continue;
    const clash = rec.set.intersection(changed);
    for (const p of clash.paths()) conflicts.push({ manager: rec, path: p });
  }
  if (!force && conflicts.length) throw conflictError(conflicts);
  for (const [id, rec] of managers) {
    if (id === selfId) continue;
    rec.set = rec.set.difference(changed).difference(removed);
    if (rec.set.isEmpty()) managers.delete(id);
  }
  return cmp;
}

function conflictError(conflicts: Conflict[]): StatusError {
  conflicts.sort((a, b) => (a.manager.manager < b.manager.manager ? -1 : a.manager.manager > b.manager.manager ? 1 : 0));
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${describeManager(c.manager)}`,
    field: pathToString(c.path),
  }));
  let message: string;
  const first = conflicts[0];
  if (conflicts.length === 1 && first) {
    message = `Apply failed with 1 conflict: conflict with ${describeManager(first.manager)}: ${pathToString(first.path)}`;
  } else {
    const byManager = new Map<string, { rec: ManagerRecord; paths: string[] }>();
    for (const c of conflicts) {
      const id = managerId(c.manager);
      const entry = byManager.get(id) ?? { rec: c.manager, paths: [] };
      entry.paths.push(pathToString(c.path));
      byManager.set(id, entry);
    }
    const lines: string[] = [];
    for (const id of [...byManager.keys()].sort()) {
      const e = byManager.get(id) as { rec: ManagerRecord; paths: string[] };
      lines.push(`conflicts with ${describeManager(e.rec)}:`, ...e.paths.map((p) => `- ${p}`));
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, { causes });
}

function withoutManagedFields(obj: JsonObject): JsonObject {
  const copy = structuredClone(obj);
  const meta = copy['metadata'];
  if (isJsonObject(meta)) delete meta['managedFields'];
  return copy;
}

/** The object with its own top level and metadata (without managedFields); everything below is shared. */
function shallowWithoutManagedFields(obj: JsonObject): JsonObject {
  const meta = obj['metadata'];
  if (!isJsonObject(meta)) return { ...obj };
  const { managedFields: _managedFields, ...rest } = meta;
  return { ...obj, metadata: rest };
}

function setManagedFields(obj: JsonObject, sets: ManagedSets): JsonObject {
  const meta = isJsonObject(obj['metadata']) ? obj['metadata'] : (obj['metadata'] = {});
  const encoded = encodeManagedFields(sets);
  if (encoded) meta['managedFields'] = encoded;
  else delete meta['managedFields'];
  return obj;
}

function stripSelf(sets: ManagedSets, id: string): void {
  const rec = sets.get(id);
  if (!rec) return;
  rec.set = rec.set.difference(STRIPPED_FIELDS);
  if (rec.set.isEmpty()) sets.delete(id);
}

function cloneSets(sets: ManagedSets): ManagedSets {
  const out: ManagedSets = new Map();
  for (const [id, r] of sets) out.set(id, { ...r });
  return out;
}

export interface ApplyOptions {
  /** The stored object, or undefined when the apply creates it. */
  live: JsonObject | undefined;
  /** The decoded apply-patch body. */
  config: JsonObject;
  /** `fieldManager` query parameter (required by the handler). */
  manager: string;
  force: boolean;
  schema: ObjectFieldSchema;
  /** The request's group/version, e.g. "v1" or "example.com/v1". */
  apiVersion: string;
  /** "status" for /status applies. */
  subresource?: string;
  now: Date | string;
  /** Paths this endpoint resets (e.g. `[['f:status']]` on the main resource, `[['f:spec']]` on /status): never owned. */
  ignoredFields?: readonly (readonly string[])[];
}

export interface ApplyResult {
  object: JsonObject;
  /** False when neither the object nor its managedFields changed (the handler must not write). */
  changed: boolean;
}

/**
 * Server-side apply. Returns the new object with its managedFields.
 * Throws StatusError 409 Conflict (causes FieldManagerConflict) on conflicts when not forced, 400 for a bad configuration.
 */
export function applyServerSide(opts: ApplyOptions): ApplyResult {
  const { config, schema, manager } = opts;
  const cfgMeta = config['metadata'];
  if (isJsonObject(cfgMeta) && cfgMeta['managedFields'] !== undefined && cfgMeta['managedFields'] !== null) {
    throw errors.badRequest('metadata.managedFields must be nil');
  }
  if (typeof config['apiVersion'] === 'string' && config['apiVersion'] !== opts.apiVersion) {
    throw errors.badRequest(`Incorrect version specified in apply patch. Specified patch version: ${config['apiVersion']}, expected: ${opts.apiVersion}`);
  }
  const liveMeta = opts.live?.['metadata'];
  const managers = cloneSets(decodeManagedFields(isJsonObject(liveMeta) ? liveMeta['managedFields'] : undefined));
  const live = opts.live ? withoutManagedFields(opts.live) : {};
  const ignored = FieldSet.fromPaths(opts.ignoredFields ?? []);

  const self: ManagerRecord = { manager, operation: 'Apply', apiVersion: opts.apiVersion, subresource: opts.subresource ?? '', time: undefined, set: new FieldSet() };
  const selfId = managerId(self);
  const previous = managers.get(selfId);
  const lastSet = previous?.set;
  self.set = toFieldSet(config, schema).recursiveDifference(ignored);
  self.time = previous?.time;
  managers.set(selfId, self);

  const merged = mergeObjects(live, config, schema) as JsonObject;
  const next = prune(merged, managers, lastSet, schema) as JsonObject;
  transfer(live, next, managers, selfId, schema, ignored, opts.force);
  stripSelf(managers, selfId);

  const objectChanged = !jsonEqual(live, next);
  const kept = managers.get(selfId);
  // Time moves only when the object changed, or when this manager appears for the first time.
  if (kept && (objectChanged || !previous || !kept.time)) kept.time = formatTime(opts.now);
  const before = decodeManagedFields(isJsonObject(liveMeta) ? liveMeta['managedFields'] : undefined);
  const result = setManagedFields(next, managers);
  const managedChanged = !sameManaged(before, managers);
  return { object: result, changed: objectChanged || managedChanged || !opts.live };
}

function sameManaged(a: ManagedSets, b: ManagedSets): boolean {
  if (a.size !== b.size) return false;
  for (const [id, r] of a) {
    const o = b.get(id);
    if (!o || o.time !== r.time || o.apiVersion !== r.apiVersion || !o.set.equals(r.set)) return false;
  }
  return true;
}

function isResetManagedFields(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  return v.length === 0 || (v.length === 1 && isJsonObject(v[0]) && Object.keys(v[0]).length === 0);
}

export interface UpdateOptions {
  /** Paths this endpoint resets (e.g. `[['f:status']]` on the main resource): never owned. */
  ignoredFields?: readonly (readonly string[])[];
}

/**
 * Records a non-apply write (create, update, any patch) in managedFields: fields that changed move to
 * `manager` (operation Update, keyed by apiVersion and subresource), managers left owning nothing are dropped.
 * `oldObj` is undefined on create. Returns `newObj` with managedFields set.
 */
export function recordUpdate(
  oldObj: JsonObject | undefined,
  newObj: JsonObject,
  manager: string,
  apiVersion: string,
  subresource: string | undefined,
  time: Date | string,
  schema: ObjectFieldSchema,
  options: UpdateOptions = {},
): JsonObject {
  const oldMeta = oldObj?.['metadata'];
  const newMeta = newObj['metadata'];
  const requested = isJsonObject(newMeta) ? newMeta['managedFields'] : undefined;
  let managers: ManagedSets;
  if (subresource) {
    // A subresource write cannot set managedFields.
    managers = decodeManagedFields(isJsonObject(oldMeta) ? oldMeta['managedFields'] : undefined);
  } else if (isResetManagedFields(requested)) {
    managers = new Map();
  } else {
    let fromRequest: ManagedSets | undefined;
    try {
      fromRequest = decodeManagedFields(requested);
    } catch {
      fromRequest = undefined;
    }
    // Clients that drop managedFields (or send garbage) keep the stored ones.
    managers = fromRequest && fromRequest.size ? fromRequest : decodeManagedFields(isJsonObject(oldMeta) ? oldMeta['managedFields'] : undefined);
  }
  if (!oldObj && !subresource && managers.size === 0) {
    const created = recordCreate(newObj, manager || 'unknown', apiVersion, time, schema, options.ignoredFields ?? []);
    if (created) return created;
  }
  managers = cloneSets(managers);
  // Only read, and only the copy's metadata is written below: copies of the top level and metadata do, where
  // deep clones of both objects cost a create about a tenth of its CPU.
  const live = oldObj ? shallowWithoutManagedFields(oldObj) : {};
  const next = shallowWithoutManagedFields(newObj);
  const ignored = FieldSet.fromPaths(options.ignoredFields ?? []);
  const name = manager || 'unknown';
  const self: ManagerRecord = { manager: name, operation: 'Update', apiVersion, subresource: subresource ?? '', time: undefined, set: new FieldSet() };
  const selfId = managerId(self);

  // Ownership moves to a temporary "current operation" first, so the manager's own old fields are treated like anyone's.
  const tmpId = '\u0000current-operation';
  // With no managers yet (a create) there is nothing to take from anyone: the comparison alone says what is gained.
  const cmp = managers.size === 0 ? compareObjects(live, next, schema, ignored) : transfer(live, next, managers, tmpId, schema, ignored, true);
  let gained = cmp.added;
  if (!cmp.modified.isEmpty()) gained = gained.union(cmp.modified);
  if (!cmp.removed.isEmpty()) gained = gained.difference(cmp.removed);
  gained = gained.recursiveDifference(ignored);
  if (!gained.isEmpty()) {
    const prev = managers.get(selfId);
    self.set = prev ? gained.union(prev.set) : gained;
    self.time = formatTime(time);
    managers.set(selfId, self);
    stripSelf(managers, selfId);
  }
  capUpdateManagers(managers, apiVersion);
  return setManagedFields(next, managers);
}
