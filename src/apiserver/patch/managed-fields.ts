// Field sets and metadata.managedFields, encoded exactly like structured-merge-diff's FieldsV1:
// `f:<field>`, `k:<sorted key fields as JSON>`, `v:<value as JSON>`, `i:<index>`, and `.` for an item that also has children.
import { errors } from '../../apimachinery/status-error.ts';
import type { ManagedFieldsEntry } from '../../apimachinery/object.ts';
import { isJsonObject } from '../schema/field-schema.ts';
import type { JsonObject } from '../schema/field-schema.ts';

/** Go's encoding/json escapes these; the serialized path elements must match byte for byte. */
export function goJSON(v: unknown): string {
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function fieldPE(name: string): string {
  return `f:${name}`;
}
export function valuePE(value: unknown): string {
  return `v:${goJSON(value)}`;
}
/** Key fields are sorted by name, as SMD sorts a FieldList. */
export function keyPE(fields: Record<string, unknown>): string {
  const sorted = Object.keys(fields).sort(cmpStr);
  return `k:{${sorted.map((k) => `${goJSON(k)}:${goJSON(fields[k])}`).join(',')}}`;
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function typeRank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isJsonObject(v)) return 4;
  return 5;
}

/** SMD's total order on values: numbers < strings < bools < lists < maps < null. */
function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return cmpStr(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareValues(a[i], b[i]);
      if (c) return c;
    }
    return a.length - b.length;
  }
  if (isJsonObject(a) && isJsonObject(b)) return compareFieldLists(a, b);
  return 0;
}

function compareFieldLists(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const ka = Object.keys(a).sort(cmpStr);
  const kb = Object.keys(b).sort(cmpStr);
  for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
    const na = ka[i] as string;
    const nb = kb[i] as string;
    const c = cmpStr(na, nb) || compareValues(a[na], b[nb]);
    if (c) return c;
  }
  return ka.length - kb.length;
}

const PE_RANK: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

/** Path-element order: field names, then keys, then values, then indexes (each in its own order). */
export function comparePE(a: string, b: string): number {
  const ta = a.slice(0, 1);
  const tb = b.slice(0, 1);
  if (ta !== tb) return (PE_RANK[ta] ?? 9) - (PE_RANK[tb] ?? 9);
  const ca = a.slice(2);
  const cb = b.slice(2);
  if (ta === 'f') return cmpStr(ca, cb);
  if (ta === 'i') return Number(ca) - Number(cb);
  const va: unknown = JSON.parse(ca);
  const vb: unknown = JSON.parse(cb);
  return ta === 'k' && isJsonObject(va) && isJsonObject(vb) ? compareFieldLists(va, vb) : compareValues(va, vb);
}

/** Human form used in conflict messages: `.spec.containers[name="app"].image`. */
export function peToString(pe: string): string {
  const body = pe.slice(2);
  switch (pe.slice(0, 1)) {
    case 'f':
      return `.${body}`;
    case 'k': {
      const fields = JSON.parse(body) as Record<string, unknown>;
      return `[${Object.keys(fields).map((k) => `${k}=${goJSON(fields[k])}`).sort(cmpStr).join(',')}]`;
    }
    case 'v':
      return `[=${body}]`;
    default:
      return `[${body}]`;
  }
}

export function pathToString(path: readonly string[]): string {
  return path.map(peToString).join('');
}

/** A set of field paths, as a trie: `members` end here, `children` continue. */
export class FieldSet {
  readonly members = new Set<string>();
  readonly children = new Map<string, FieldSet>();

  static fromPaths(paths: readonly (readonly string[])[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  isEmpty(): boolean {
    if (this.members.size) return false;
    for (const c of this.children.values()) if (!c.isEmpty()) return false;
    return true;
  }

  insert(path: readonly string[]): void {
    if (path.length === 0) return;
    const parent = path.slice(0, -1).reduce<FieldSet>((s, pe) => s.child(pe), this);
    parent.members.add(path[path.length - 1] as string);
  }

  child(pe: string): FieldSet {
    let c = this.children.get(pe);
    if (!c) {
      c = new FieldSet();
      this.children.set(pe, c);
    }
    return c;
  }

  has(path: readonly string[]): boolean {
    if (path.length === 0) return false;
    const parent = path.slice(0, -1).reduce<FieldSet | undefined>((s, pe) => s?.children.get(pe), this);
    return parent?.members.has(path[path.length - 1] as string) ?? false;
  }

  withPrefix(pe: string): FieldSet {
    return this.children.get(pe) ?? new FieldSet();
  }

  union(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const m of this.members) out.members.add(m);
    for (const m of o.members) out.members.add(m);
    for (const [pe, c] of this.children) out.children.set(pe, c.union(o.children.get(pe) ?? new FieldSet()));
    for (const [pe, c] of o.children) if (!out.children.has(pe)) out.children.set(pe, c.union(new FieldSet()));
    return out.pruned();
  }

  /** Members of this not in o, recursively (a member of o does not remove this's children below it). */
  difference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const m of this.members) if (!o.members.has(m)) out.members.add(m);
    for (const [pe, c] of this.children) {
      const oc = o.children.get(pe);
      out.children.set(pe, oc ? c.difference(oc) : c.union(new FieldSet()));
    }
    return out.pruned();
  }

  /** Like difference, but a member of o also removes everything below it. */
  recursiveDifference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const m of this.members) if (!o.members.has(m)) out.members.add(m);
    for (const [pe, c] of this.children) {
      if (o.members.has(pe)) continue;
      const oc = o.children.get(pe);
      out.children.set(pe, oc ? c.recursiveDifference(oc) : c.union(new FieldSet()));
    }
    return out.pruned();
  }

  intersection(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const m of this.members) if (o.members.has(m)) out.members.add(m);
    for (const [pe, c] of this.children) {
      const oc = o.children.get(pe);
      if (oc) out.children.set(pe, c.intersection(oc));
    }
    return out.pruned();
  }

  equals(o: FieldSet): boolean {
    return this.difference(o).isEmpty() && o.difference(this).isEmpty();
  }

  /** Every member path: members of a level first, then the children, each in path-element order. */
  paths(prefix: readonly string[] = []): string[][] {
    const out: string[][] = [];
    for (const m of [...this.members].sort(comparePE)) out.push([...prefix, m]);
    for (const pe of [...this.children.keys()].sort(comparePE)) out.push(...(this.children.get(pe) as FieldSet).paths([...prefix, pe]));
    return out;
  }

  private pruned(): this {
    for (const [pe, c] of this.children) if (c.isEmpty()) this.children.delete(pe);
    return this;
  }

  toFieldsV1(): JsonObject {
    return this.emit(false);
  }

  private emit(includeSelf: boolean): JsonObject {
    const out: JsonObject = {};
    if (includeSelf) out['.'] = {};
    const keys = new Set<string>([...this.members, ...[...this.children.entries()].filter(([, c]) => !c.isEmpty()).map(([pe]) => pe)]);
    for (const pe of [...keys].sort(comparePE)) {
      const c = this.children.get(pe);
      out[pe] = c && !c.isEmpty() ? c.emit(this.members.has(pe)) : {};
    }
    return out;
  }

  static fromFieldsV1(v: unknown): FieldSet {
    const s = new FieldSet();
    if (!isJsonObject(v)) throw errors.badRequest('invalid managedFields: fieldsV1 must be an object');
    for (const [pe, sub] of Object.entries(v)) {
      if (pe === '.') continue;
      if (!/^[fkvi]:/.test(pe)) throw errors.badRequest(`invalid managedFields: unknown path element ${JSON.stringify(pe)}`);
      if (!isJsonObject(sub) || Object.keys(sub).length === 0) {
        s.members.add(pe);
        continue;
      }
      if (Object.hasOwn(sub, '.')) s.members.add(pe);
      const c = FieldSet.fromFieldsV1(sub);
      if (!c.isEmpty()) s.children.set(pe, c);
    }
    return s;
  }
}

/** One manager's ownership, keyed the way the apiserver identifies managers. */
export interface ManagerRecord {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource: string;
  time: string | undefined;
  set: FieldSet;
}

/** Apply entries are identified without their apiVersion; Update entries with it (BuildManagerIdentifier). */
export function managerId(m: Pick<ManagerRecord, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  const id: Record<string, string> = { manager: m.manager, operation: m.operation };
  if (m.operation === 'Update' && m.apiVersion) id['apiVersion'] = m.apiVersion;
  if (m.subresource) id['subresource'] = m.subresource;
  return JSON.stringify(id);
}

/** How conflict messages name a manager (printManager upstream). */
export function describeManager(m: Pick<ManagerRecord, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  let s = JSON.stringify(m.manager);
  if (m.subresource) s += ` with subresource ${JSON.stringify(m.subresource)}`;
  if (m.operation === 'Update') s += ` using ${m.apiVersion}`;
  return s;
}

export type ManagedSets = Map<string, ManagerRecord>;

export function decodeManagedFields(entries: unknown): ManagedSets {
  const out: ManagedSets = new Map();
  if (entries === undefined || entries === null) return out;
  if (!Array.isArray(entries)) throw errors.badRequest('invalid managedFields: must be a list');
  for (const e of entries) {
    if (!isJsonObject(e)) throw errors.badRequest('invalid managedFields: entry must be an object');
    if (e['fieldsType'] !== 'FieldsV1') throw errors.badRequest(`invalid managedFields: unsupported fieldsType ${JSON.stringify(e['fieldsType'])}`);
    const op = e['operation'];
    if (op !== 'Apply' && op !== 'Update') throw errors.badRequest(`invalid managedFields: unknown operation ${JSON.stringify(op)}`);
    const rec: ManagerRecord = {
      manager: typeof e['manager'] === 'string' ? e['manager'] : '',
      operation: op,
      apiVersion: typeof e['apiVersion'] === 'string' ? e['apiVersion'] : '',
      subresource: typeof e['subresource'] === 'string' ? e['subresource'] : '',
      time: typeof e['time'] === 'string' ? e['time'] : undefined,
      set: FieldSet.fromFieldsV1(e['fieldsV1'] ?? {}),
    };
    const id = managerId(rec);
    const prev = out.get(id);
    // Duplicate identities are merged, as decoding upstream keys them by identity.
    out.set(id, prev ? { ...rec, set: prev.set.union(rec.set) } : rec);
  }
  return out;
}

function seconds(t: string | undefined): number {
  if (!t) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** Entries in the apiserver's order: Apply before Update, then by time, manager, apiVersion, subresource. */
export function encodeManagedFields(sets: ManagedSets): ManagedFieldsEntry[] | undefined {
  const recs = [...sets.values()].filter((r) => !r.set.isEmpty());
  if (recs.length === 0) return undefined;
  recs.sort(
    (a, b) =>
      cmpStr(a.operation, b.operation) ||
      seconds(a.time) - seconds(b.time) ||
      cmpStr(a.manager, b.manager) ||
      cmpStr(a.apiVersion, b.apiVersion) ||
      cmpStr(a.subresource, b.subresource),
  );
  return recs.map((r) => {
    // Key order follows metav1.ManagedFieldsEntry's JSON.
    const e: ManagedFieldsEntry = { manager: r.manager, operation: r.operation };
    if (r.apiVersion) e.apiVersion = r.apiVersion;
    if (r.time) e.time = r.time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = r.set.toFieldsV1();
    if (r.subresource) e.subresource = r.subresource;
    return e;
  });
}

/** metav1.Time: RFC 3339 in UTC with second precision. */
export function formatTime(t: Date | string): string {
  // Already in that form (nowTime's): as it is, without a parse and a print.
  if (typeof t === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(t)) return t;
  const d = typeof t === 'string' ? new Date(t) : t;
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The paths the apiserver never records as owned (stripMeta). */
export const STRIPPED_FIELDS: FieldSet = FieldSet.fromPaths([
  ['f:apiVersion'],
  ['f:kind'],
  ['f:metadata'],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((f) => [
    'f:metadata',
    `f:${f}`,
  ]),
]);

/** Managers beyond this many Update entries are folded into "ancient-changes" (capManagers upstream). */
export const MAX_UPDATE_MANAGERS = 10;

export function capUpdateManagers(sets: ManagedSets, apiVersion: string): void {
  const updates = [...sets.entries()].filter(([, r]) => r.operation === 'Update' && r.subresource === '');
  if (updates.length <= MAX_UPDATE_MANAGERS) return;
  updates.sort(([, a], [, b]) => seconds(a.time) - seconds(b.time));
  const bucketRec: ManagerRecord = { manager: 'ancient-changes', operation: 'Update', apiVersion, subresource: '', time: undefined, set: new FieldSet() };
  const bucketId = managerId(bucketRec);
  const bucket = sets.get(bucketId) ?? bucketRec;
  let excess = updates.length - MAX_UPDATE_MANAGERS + (sets.has(bucketId) ? 0 : 1);
  for (const [id, r] of updates) {
    if (excess <= 0) break;
    if (id === bucketId) continue;
    bucket.set = bucket.set.union(r.set);
    bucket.time = r.time;
    sets.delete(id);
    excess--;
  }
  sets.set(bucketId, bucket);
}
