// RFC 6902 JSON Patch with the behaviour (and error texts) of the library kube-apiserver uses (evanphx/json-patch v4):
// a patch that does not apply is 422 Invalid, a document that is not a patch is 400 BadRequest.
import { StatusError, errors } from '../../apimachinery/status-error.ts';
import { jsonPatchMaxCopyBytes, requestEntityTooLarge } from '../limits/request-limits.ts';
import { isJsonObject, jsonEqual } from '../schema/field-schema.ts';

/** kube-apiserver refuses longer patches (maxJSONPatchOperations). */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

export interface JsonPatchOperation {
  op: string;
  path?: unknown;
  from?: unknown;
  value?: unknown;
}

/** A patch that is well-formed but does not apply: the server answers exactly this 422. */
function notApplicable(detail: string): StatusError {
  return new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {
    causes: [{ reason: 'UnexpectedServerResponse', message: detail }],
  });
}

/** Parses and checks the shape of a json-patch body (already JSON-decoded). */
export function decodeJsonPatch(body: unknown): JsonPatchOperation[] {
  if (!Array.isArray(body)) {
    const what = body === null ? 'null' : isJsonObject(body) ? 'object' : typeof body;
    throw errors.badRequest(`error decoding patch: json: cannot unmarshal ${what} into Go value of type []handlers.jsonPatchOp`);
  }
  const ops: JsonPatchOperation[] = [];
  for (const raw of body) {
    if (!isJsonObject(raw)) {
      throw errors.badRequest(`error decoding patch: json: cannot unmarshal ${Array.isArray(raw) ? 'array' : typeof raw} into Go value of type handlers.jsonPatchOp`);
    }
    const op: JsonPatchOperation = { op: typeof raw['op'] === 'string' ? raw['op'] : '' };
    if (Object.hasOwn(raw, 'path')) op.path = raw['path'];
    if (Object.hasOwn(raw, 'from')) op.from = raw['from'];
    if (Object.hasOwn(raw, 'value')) op.value = raw['value'];
    ops.push(op);
  }
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
  }
  return ops;
}

type Container = { kind: 'object'; node: Record<string, unknown> } | { kind: 'array'; node: unknown[] };

function unescape(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The container holding the pointer's last token, like evanphx's findObject (undefined when a parent is missing). */
function findContainer(doc: unknown, path: string): { con: Container; key: string } | undefined {
  const parts = path.split('/');
  if (parts.length < 2) return undefined;
  let cur: unknown = doc;
  for (const raw of parts.slice(1, -1)) {
    const part = unescape(raw);
    let next: unknown;
    if (Array.isArray(cur)) {
      const idx = parseIndex(part);
      if (idx === undefined) return undefined;
      const i = idx < 0 ? idx + cur.length : idx;
      if (i < 0 || i >= cur.length) return undefined;
      next = cur[i];
    } else if (isJsonObject(cur)) {
      next = cur[part];
    } else {
      return undefined;
    }
    if (next === undefined || next === null || typeof next !== 'object') return undefined;
    cur = next;
  }
  const key = unescape(parts[parts.length - 1] ?? '');
  if (Array.isArray(cur)) return { con: { kind: 'array', node: cur }, key };
  if (isJsonObject(cur)) return { con: { kind: 'object', node: cur }, key };
  return undefined;
}

function parseIndex(s: string): number | undefined {
  return /^-?\d+$/.test(s) ? Number(s) : undefined;
}

class OpError extends Error {
  override readonly name = 'OpError' as const;
}

function invalidIndex(idx: number): OpError {
  return new OpError(`Unable to access invalid index: ${idx}: invalid index referenced`);
}

function arrayIndex(arr: unknown[], key: string, forAdd: boolean): number {
  const idx = parseIndex(key);
  if (idx === undefined) throw new OpError(forAdd ? `value was not a proper array index: '${key}': strconv.Atoi: parsing "${key}": invalid syntax` : `strconv.Atoi: parsing "${key}": invalid syntax`);
  const size = forAdd ? arr.length + 1 : arr.length;
  if (idx >= size) throw invalidIndex(idx);
  if (idx < 0) {
    if (idx < -size) throw invalidIndex(idx);
    return idx + size;
  }
  return idx;
}

function get(con: Container, key: string): unknown {
  if (con.kind === 'object') return con.node[key];
  return con.node[arrayIndex(con.node, key, false)];
}

function add(con: Container, key: string, value: unknown): void {
  if (con.kind === 'object') {
    con.node[key] = value;
    return;
  }
  if (key === '-') {
    con.node.push(value);
    return;
  }
  con.node.splice(arrayIndex(con.node, key, true), 0, value);
}

function remove(con: Container, key: string): void {
  if (con.kind === 'object') {
    if (!Object.hasOwn(con.node, key)) throw new OpError(`Unable to remove nonexistent key: ${key}: missing value`);
    delete con.node[key];
    return;
  }
  con.node.splice(arrayIndex(con.node, key, false), 1);
}

function pathOf(op: JsonPatchOperation, field: 'path' | 'from'): string {
  const p = op[field];
  if (typeof p !== 'string') throw new OpError(`${op.op} operation failed to decode ${field}: missing value`);
  return p;
}

/** What the patch's `copy` operations have added so far: each copy doubles at most, so 30 of them could make gigabytes. */
interface CopyBudget {
  copied: number;
}

function applyOne(doc: unknown, op: JsonPatchOperation, budget: CopyBudget): unknown {
  switch (op.op) {
    case 'add': {
      const path = pathOf(op, 'path');
      if (path === '') return structuredClone(op.value);
      const found = findContainer(doc, path);
      if (!found) throw new OpError(`add operation does not apply: doc is missing path: "${path}": missing value`);
      try {
        add(found.con, found.key, structuredClone(op.value));
      } catch (e) {
        throw new OpError(`error in add for path: '${path}': ${(e as Error).message}`);
      }
      return doc;
    }
    case 'remove': {
      const path = pathOf(op, 'path');
      const found = findContainer(doc, path);
      if (!found) throw new OpError(`remove operation does not apply: doc is missing path: "${path}": missing value`);
      try {
        remove(found.con, found.key);
      } catch (e) {
        throw new OpError(`error in remove for path: '${path}': ${(e as Error).message}`);
      }
      return doc;
    }
    case 'replace': {
      const path = pathOf(op, 'path');
      if (path === '') return structuredClone(op.value);
      const found = findContainer(doc, path);
      if (!found) throw new OpError(`replace operation does not apply: doc is missing path: ${path}: missing value`);
      // evanphx v4 replaces a missing object key as if it were an add; only array indexes are checked.
      if (found.con.kind === 'array') {
        try {
          const i = arrayIndex(found.con.node, found.key, false);
          found.con.node[i] = structuredClone(op.value);
        } catch {
          throw new OpError(`replace operation does not apply: doc is missing key: ${path}: missing value`);
        }
      } else {
        found.con.node[found.key] = structuredClone(op.value);
      }
      return doc;
    }
    case 'move': {
      const from = pathOf(op, 'from');
      const src = findContainer(doc, from);
      if (!src) throw new OpError(`move operation does not apply: doc is missing from path: ${from}: missing value`);
      let value: unknown;
      try {
        value = get(src.con, src.key);
        remove(src.con, src.key);
      } catch (e) {
        throw new OpError(`error in move for path: '${src.key}': ${(e as Error).message}`);
      }
      const path = pathOf(op, 'path');
      const dst = findContainer(doc, path);
      if (!dst) throw new OpError(`move operation does not apply: doc is missing destination path: ${path}: missing value`);
      try {
        add(dst.con, dst.key, value);
      } catch (e) {
        throw new OpError(`error in move for path: '${path}': ${(e as Error).message}`);
      }
      return doc;
    }
    case 'copy': {
      const from = pathOf(op, 'from');
      const src = findContainer(doc, from);
      let value: unknown;
      try {
        value = src ? get(src.con, src.key) : undefined;
      } catch (e) {
        throw new OpError(`error in copy for from: '${from}': ${(e as Error).message}`);
      }
      if (!src || value === undefined) throw new OpError(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
      const path = pathOf(op, 'path');
      const dst = findContainer(doc, path);
      if (!dst) throw new OpError(`copy operation does not apply: doc is missing destination path: ${path}: missing value`);
      // Counted before the copy is made, in the JSON bytes evanphx/json-patch counts.
      budget.copied += Buffer.byteLength(JSON.stringify(value), 'utf8');
      if (budget.copied > jsonPatchMaxCopyBytes) {
        throw new OpError(`Unable to complete the copy, the accumulated size increase of copy is ${budget.copied}, exceeding the limit ${jsonPatchMaxCopyBytes}`);
      }
      try {
        add(dst.con, dst.key, structuredClone(value));
      } catch (e) {
        throw new OpError(`error while adding value during copy: ${(e as Error).message}`);
      }
      return doc;
    }
    case 'test': {
      const path = pathOf(op, 'path');
      if (path === '') {
        if (jsonEqual(doc, op.value)) return doc;
        throw new OpError(`testing value ${path} failed: test failed`);
      }
      const found = findContainer(doc, path);
      if (!found) throw new OpError(`test operation does not apply: is missing path: ${path}: missing value`);
      let actual: unknown;
      try {
        actual = get(found.con, found.key);
      } catch (e) {
        throw new OpError(`error in test for path: '${path}': ${(e as Error).message}`);
      }
      if (actual === undefined) {
        // An absent value only matches a test without a value.
        if (!Object.hasOwn(op, 'value')) return doc;
        throw new OpError(`testing value ${path} failed: test failed`);
      }
      if (!Object.hasOwn(op, 'value') || !jsonEqual(actual, op.value)) throw new OpError(`testing value ${path} failed: test failed`);
      return doc;
    }
    default:
      throw new OpError(`Unexpected kind: ${op.op}`);
  }
}

/**
 * Applies an RFC 6902 patch to a copy of `doc` and returns the result.
 * Throws StatusError 400 for a body that is not a patch document, 422 when an operation does not apply (incl. a failed `test`).
 */
export function applyJsonPatch(doc: unknown, patch: unknown): unknown {
  const ops = decodeJsonPatch(patch);
  let out: unknown = structuredClone(doc);
  const budget: CopyBudget = { copied: 0 };
  for (const op of ops) {
    try {
      out = applyOne(out, op, budget);
    } catch (e) {
      if (e instanceof OpError) throw notApplicable(e.message);
      throw e;
    }
  }
  return out;
}
