// Strategic merge patch for built-in kinds, driven by FieldSchema instead of Go struct tags.
// Follows apimachinery's strategicpatch (StrategicMergeMapPatch: MergeParallelList + IgnoreUnmatchedNulls):
// lists merge by patchMergeKey, `$patch: replace|delete|merge`, `$setElementOrder/<f>`, `$deleteFromPrimitiveList/<f>`, `$retainKeys`.
import { StatusError, errors } from '../../apimachinery/status-error.ts';
import { childSchema, isJsonObject, itemSchema } from '../schema/field-schema.ts';
import type { FieldSchema, JsonObject } from '../schema/field-schema.ts';

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ELEMENT_ORDER = '$setElementOrder';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';

// The mergepatch errors kube-apiserver maps to 400 or 422. The others (an unknown `$patch`, a list without its
// merge key, mixed element types) it passes on as 500s; they are the patch's fault, so they are 400s here, in
// the same words.
const badRequest = (m: string): StatusError => errors.badRequest(m);
const unprocessable = (m: string): StatusError =>
  new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', { causes: [{ reason: 'UnexpectedServerResponse', message: m }] });

const ERR_PRIMITIVE_LIST = 'invalid patch format of primitive list';
const ERR_RETAIN_KEYS = 'invalid patch format of retainKeys';
const ERR_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';
const ERR_LIST_OF_LISTS = 'lists of lists are not supported';

type Kind = 'map' | 'slice' | 'string' | 'number' | 'bool' | 'null';

function kindOf(v: unknown): Kind {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  return 'bool';
}

/** Go's `==` on decoded JSON scalars (maps and slices never compare equal). */
function scalarEq(a: unknown, b: unknown): boolean {
  return a === b && (a === null || typeof a !== 'object');
}

/** What Go's decode into a typed struct would leave of a value taken wholesale from the patch: no nulls, no directives. */
function cleanInserted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(cleanInserted);
  if (isJsonObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) {
      if (x === null || k === DIRECTIVE || k === RETAIN_KEYS || k.startsWith(`${SET_ELEMENT_ORDER}/`) || k.startsWith(`${DELETE_FROM_PRIMITIVE_LIST}/`)) continue;
      out[k] = cleanInserted(x);
    }
    return out;
  }
  return v;
}

interface ListMeta {
  merge: boolean;
  mergeKey: string;
  items: FieldSchema | undefined;
}

function listMeta(schema: FieldSchema | undefined): ListMeta {
  if (schema?.kind !== 'array') return { merge: false, mergeKey: '', items: itemSchema(schema) };
  const merge = schema.patchStrategy?.split(',').includes('merge') ?? false;
  return { merge, mergeKey: schema.patchMergeKey ?? '', items: schema.items };
}

function extractKey(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw badRequest(prefix === DELETE_FROM_PRIMITIVE_LIST ? ERR_PRIMITIVE_LIST : ERR_SET_ELEMENT_ORDER);
  }
  return key.slice(slash + 1);
}

function elementKind(...lists: unknown[][]): Kind | undefined {
  let kind: Kind | undefined;
  for (const l of lists) {
    for (const v of l) {
      const k = kindOf(v);
      if (kind === undefined) {
        if (k === 'slice') throw unprocessable(ERR_LIST_OF_LISTS);
        kind = k;
      } else if (k !== kind) {
        throw badRequest(`list element types are not identical: ${JSON.stringify(lists)}`);
      }
    }
  }
  return kind;
}

function requireMergeKey(item: unknown, mergeKey: string): unknown {
  if (!isJsonObject(item)) throw badRequest(`expected a map in a list merged by ${mergeKey}, got ${JSON.stringify(item)}`);
  if (!Object.hasOwn(item, mergeKey)) throw badRequest(`map: ${JSON.stringify(item)} does not contain declared merge key: ${mergeKey}`);
  return item[mergeKey];
}

function indexIn(list: unknown[], item: unknown, mergeKey: string, isMap: boolean): number {
  const probe = isMap ? (isJsonObject(item) ? item[mergeKey] : undefined) : item;
  return list.findIndex((v) => scalarEq(isMap ? (isJsonObject(v) ? v[mergeKey] : undefined) : v, probe));
}

function partition(merged: unknown[], by: unknown[], mergeKey: string, isMap: boolean): [unknown[], unknown[]] {
  const inPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of merged) {
    if (isMap) {
      const key = requireMergeKey(v, mergeKey);
      const found = by.some((b) => {
        if (!isJsonObject(b)) throw badRequest(`value for key ${mergeKey} is not a map.`);
        return Object.hasOwn(b, mergeKey) && scalarEq(b[mergeKey], key);
      });
      (found ? inPatch : serverOnly).push(v);
    } else {
      (by.some((b) => scalarEq(b, v)) ? inPatch : serverOnly).push(v);
    }
  }
  return [inPatch, serverOnly];
}

function sortByOrder(toSort: unknown[], order: unknown[], mergeKey: string, isMap: boolean): unknown[] {
  let items = toSort;
  let deletes: unknown[] = [];
  if (isMap) {
    for (const v of [...toSort, ...order]) requireMergeKey(v, mergeKey);
    deletes = toSort.filter((v) => isJsonObject(v) && v[DIRECTIVE] === 'delete');
    items = toSort.filter((v) => !(isJsonObject(v) && v[DIRECTIVE] === 'delete'));
  }
  const ranked = items.map((v, i) => ({ v, i, r: indexIn(order, v, mergeKey, isMap) }));
  ranked.sort((a, b) => (a.r >= 0 && b.r >= 0 ? a.r - b.r : 0) || a.i - b.i);
  return [...ranked.map((x) => x.v), ...deletes];
}

/** Interleaves server-only items into the patch-ordered items, using the live order where both are known. */
function mergeSorted(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, isMap: boolean): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, isMap);
      const ri = indexIn(serverOrder, right[j], mergeKey, isMap);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function normalizeOrder(inPatch: unknown[], serverOnly: unknown[], patchOrder: unknown[], serverOrder: unknown[], mergeKey: string, isMap: boolean): unknown[] {
  const p = sortByOrder(inPatch, patchOrder, mergeKey, isMap);
  const s = sortByOrder(serverOnly, serverOrder, mergeKey, isMap);
  return mergeSorted(s, p, serverOrder, mergeKey, isMap);
}

function dedupe(list: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of list) if (!out.some((o) => scalarEq(o, v))) out.push(v);
  return out;
}

function mergeSlice(original: unknown[], patch: unknown[], meta: ListMeta, isDeleteList: boolean): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = elementKind(original, patch);
  const isMap = kind === 'map';
  let merged: unknown[];
  let orig = original;
  let pat = patch;
  if (!isMap) {
    if (isDeleteList) return orig.filter((v) => !pat.some((d) => scalarEq(d, v)));
    merged = dedupe([...orig, ...pat]);
  } else {
    if (!meta.mergeKey) throw badRequest('cannot merge lists without merge key for type map');
    // Special elements first: `$patch: delete` removes by key, `$patch: replace` makes the patch the whole list.
    const plain: unknown[] = [];
    let replace = false;
    for (const v of pat) {
      const item = v as JsonObject;
      if (!Object.hasOwn(item, DIRECTIVE)) {
        plain.push(v);
        continue;
      }
      const d = item[DIRECTIVE];
      if (d === 'delete') {
        if (!Object.hasOwn(item, meta.mergeKey)) throw badRequest(`map: ${JSON.stringify(item)} does not contain declared merge key: ${meta.mergeKey}`);
        orig = orig.filter((o) => !(isJsonObject(o) && Object.hasOwn(o, meta.mergeKey) && scalarEq(o[meta.mergeKey], item[meta.mergeKey])));
      } else if (d === 'replace') {
        replace = true;
      } else if (d === 'merge') {
        throw badRequest('merging lists cannot yet be specified in the patch');
      } else {
        throw badRequest(`unknown patch type: ${typeof d === 'string' ? d : JSON.stringify(d)} in map: ${JSON.stringify(item)}`);
      }
    }
    if (replace) {
      orig = plain.map(cleanInserted);
      pat = [];
    } else {
      pat = plain;
    }
    merged = [...orig];
    for (const v of pat) {
      const key = requireMergeKey(v, meta.mergeKey);
      const idx = merged.findIndex((o) => isJsonObject(o) && Object.hasOwn(o, meta.mergeKey) && scalarEq(o[meta.mergeKey], key));
      if (idx >= 0) merged[idx] = mergeMap(merged[idx] as JsonObject, v as JsonObject, meta.items);
      else merged.push(cleanInserted(v));
    }
  }
  const [inPatch, serverOnly] = partition(merged, pat, meta.mergeKey, isMap);
  return normalizeOrder(inPatch, serverOnly, pat, orig, meta.mergeKey, isMap);
}

function mergeSliceHandler(original: unknown, patch: unknown, schema: FieldSchema | undefined, isDeleteList: boolean): unknown[] {
  const meta = listMeta(schema);
  if (!Array.isArray(original) || !Array.isArray(patch)) throw badRequest('expected lists to merge');
  if (meta.merge) return mergeSlice(original, patch, meta, isDeleteList);
  return patch;
}

function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw badRequest(ERR_RETAIN_KEYS);
  const keep = new Set(list.map((v) => String(v)));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(`${DELETE_FROM_PRIMITIVE_LIST}/`) || k.startsWith(`${SET_ELEMENT_ORDER}/`)) continue;
    if (!keep.has(k)) throw badRequest(ERR_RETAIN_KEYS);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

function validateSetOrder(patchList: unknown[] | undefined, order: unknown[], mergeKey: string): void {
  if (!patchList || order.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey ? patchList.filter((v) => !(isJsonObject(v) && v[DIRECTIVE] === 'delete')) : patchList;
  let p = 0;
  let s = 0;
  while (p < nonDelete.length && s < order.length) {
    const item = nonDelete[p];
    if (isJsonObject(item) && Object.hasOwn(item, DIRECTIVE)) {
      p++;
      continue;
    }
    const eq = mergeKey ? scalarEq(requireMergeKey(item, mergeKey), requireMergeKey(order[s], mergeKey)) : scalarEq(item, order[s]);
    if (eq) p++;
    s++;
  }
  if (p < nonDelete.length && s >= order.length) {
    throw badRequest(`The order in patch list:\n${JSON.stringify(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${JSON.stringify(order)}\n`);
  }
}

/** Processes every `$setElementOrder/<field>` together with its list, then removes both from the patch. */
function applySetElementOrder(original: JsonObject, patch: JsonObject, schema: FieldSchema | undefined): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(`${SET_ELEMENT_ORDER}/`)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw badRequest(ERR_SET_ELEMENT_ORDER);
    const field = extractKey(key, SET_ELEMENT_ORDER);
    const foundOriginal = Object.hasOwn(original, field);
    const foundPatch = Object.hasOwn(patch, field);
    const originalList = original[field];
    const patchList = patch[field];
    if (foundOriginal && !Array.isArray(originalList)) throw badRequest(`expected a list at ${field}`);
    if (foundPatch && !Array.isArray(patchList)) throw badRequest(`expected a list at ${field}`);
    const fieldSchema = childSchema(schema, field);
    const meta = listMeta(fieldSchema);
    validateSetOrder(patchList as unknown[] | undefined, order, meta.mergeKey);
    let merged: unknown[];
    if (foundOriginal && !foundPatch) merged = originalList as unknown[];
    else if (!foundOriginal && foundPatch) merged = (patchList as unknown[]).map(cleanInserted);
    else if (foundOriginal && foundPatch) merged = mergeSliceHandler(originalList, patchList, fieldSchema, false);
    else continue;
    const origList = (foundOriginal ? originalList : []) as unknown[];
    const kind = elementKind(origList, (foundPatch ? patchList : []) as unknown[]);
    const isMap = meta.mergeKey !== '' && kind === 'map';
    const [inPatch, serverOnly] = partition(merged, order, isMap ? meta.mergeKey : '', isMap);
    original[field] = normalizeOrder(inPatch, serverOnly, order, origList, isMap ? meta.mergeKey : '', isMap);
    delete patch[field];
  }
}

function mergeMap(original: JsonObject | null, patch: JsonObject, schema: FieldSchema | undefined): JsonObject {
  if (Object.hasOwn(patch, DIRECTIVE)) {
    const d = patch[DIRECTIVE];
    if (d === 'replace') {
      const { [DIRECTIVE]: _drop, ...rest } = patch;
      return cleanInserted(rest) as JsonObject;
    }
    if (d === 'delete') return {};
    throw badRequest(`unknown patch type: ${typeof d === 'string' ? d : JSON.stringify(d)} in map: ${JSON.stringify(patch)}`);
  }
  const out: JsonObject = original ?? {};
  applyRetainKeys(out, patch);
  applySetElementOrder(out, patch, schema);

  for (const [rawKey, patchV] of Object.entries(patch)) {
    let k = rawKey;
    let isDeleteList = false;
    if (rawKey.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      k = extractKey(rawKey, DELETE_FROM_PRIMITIVE_LIST);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete out[k];
      continue;
    }
    if (!Object.hasOwn(out, k) || kindOf(out[k]) !== kindOf(patchV)) {
      // Not in the original (or of another type): take the patch value; a deletion list for a missing list is a no-op.
      if (!isDeleteList) out[k] = cleanInserted(patchV);
      continue;
    }
    const fieldSchema = childSchema(schema, k);
    const cur = out[k];
    if (isJsonObject(cur) && isJsonObject(patchV)) {
      const replace = fieldSchema?.kind === 'object' && fieldSchema.patchStrategy === 'replace';
      out[k] = replace ? cleanInserted(patchV) : mergeMap(cur, patchV, fieldSchema);
    } else if (Array.isArray(cur)) {
      out[k] = mergeSliceHandler(cur, patchV, fieldSchema, isDeleteList);
    } else {
      out[k] = patchV;
    }
  }
  return out;
}

/**
 * Applies a strategic merge patch to a copy of `original` using `schema` for merge keys and strategies.
 * Throws StatusError: 400 for malformed directives and patches, 422 for unsupported shapes (lists of lists).
 */
export function applyStrategicMergePatch(original: JsonObject, patch: unknown, schema: FieldSchema | undefined): JsonObject {
  if (!isJsonObject(patch)) {
    const what = Array.isArray(patch) ? 'array' : patch === null ? 'null' : typeof patch;
    throw errors.badRequest(`json: cannot unmarshal ${what} into Go value of type map[string]interface {}`);
  }
  return mergeMap(structuredClone(original), structuredClone(patch), schema);
}
