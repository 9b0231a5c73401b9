// Helm's chartutil coalescing: user values over chart defaults, null deletes a default, globals copied down.
export type Values = Record<string, unknown>;
import type { Chart } from './chart.ts';

export function isTable(v: unknown): v is Values {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function copy<T>(v: T): T {
  return structuredClone(v);
}

/** CoalesceTables / MergeTables: src fills what dst lacks; dst wins. Coalescing drops nulls of dst. */
export function coalesceTables(dst: Values, src: Values, merge = false): Values {
  for (const [key, val] of Object.entries(src)) {
    if (key in dst) {
      const d = dst[key];
      if (d === null && !merge) delete dst[key];
      else if (isTable(d) && isTable(val)) coalesceTables(d, val, merge);
    } else dst[key] = val;
  }
  return dst;
}

function coalesceGlobals(dest: Values, src: Values): void {
  const dg = dest.global === undefined ? {} : dest.global;
  const sg = src.global === undefined ? {} : src.global;
  if (!isTable(dg) || !isTable(sg)) return;
  for (const [key, val] of Object.entries(sg)) {
    if (isTable(val)) {
      const vv = copy(val);
      const dv = dg[key];
      if (!(key in dg)) dg[key] = vv;
      else if (isTable(dv)) {
        // The parent's globals win; nulls are dropped later by coalesce.
        coalesceTables(vv, dv, true);
        dg[key] = vv;
      }
    } else if (!isTable(dg[key])) dg[key] = val;
  }
  dest.global = dg;
}

function coalesceValues(chart: Chart, dest: Values, merge: boolean): void {
  for (const [key, val] of Object.entries(copy(chart.values))) {
    if (key in dest) {
      const d = dest[key];
      if (d === null && !merge) delete dest[key];
      else if (isTable(d) && isTable(val)) {
        const isSubchart = chart.dependencies.some((c) => c.metadata.name === key);
        coalesceTables(d, val, merge || isSubchart);
      }
    } else dest[key] = val;
  }
}

function coalesce(chart: Chart, dest: Values, merge: boolean): Values {
  coalesceValues(chart, dest, merge);
  for (const sub of chart.dependencies) {
    const name = sub.metadata.name;
    if (!(name in dest)) dest[name] = {};
    const d = dest[name];
    if (!isTable(d)) throw new Error(`type mismatch on ${name}: ${String(d)}`);
    coalesceGlobals(d, dest);
    coalesce(sub, d, merge);
  }
  return dest;
}

/** CoalesceValues (merge=false) or MergeValues (merge=true) of a chart and user values. */
export function coalesceChartValues(chart: Chart, user: Values | null, merge = false): Values {
  return coalesce(chart, copy(user ?? {}), merge);
}

/** Values.Table: the table at a dotted path, or undefined. */
export function tableAt(v: Values, path: string): Values | undefined {
  let cur: unknown = v;
  for (const part of path.split('.')) {
    if (!isTable(cur)) return undefined;
    cur = cur[part];
  }
  return isTable(cur) ? cur : undefined;
}

export function pathToMap(path: string, data: Values): Values {
  if (path === '.') return data;
  const parts = path.split('.').filter((p) => p !== '');
  let out: Values = data;
  for (let i = parts.length - 1; i >= 0; i--) out = { [parts[i]!]: out };
  return out;
}
