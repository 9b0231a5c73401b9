// Helm's chartutil ProcessDependenciesWithMerge: aliases, tags, conditions (disabled subcharts removed),
// then import-values from each child into its parent.
import type { Chart, Dependency } from './chart.ts';
import { coalesceChartValues, coalesceTables, pathToMap, tableAt, isTable, type Values } from './values.ts';

function pathValue(v: Values, path: string): unknown {
  const parts = path.split('.');
  const last = parts.pop()!;
  const t = parts.length === 0 ? v : tableAt(v, parts.join('.'));
  return t === undefined ? undefined : t[last];
}

function aliasChart(charts: Chart[], dep: Dependency): Chart | undefined {
  const c = charts.find((ch) => ch.metadata.name === dep.name);
  if (c === undefined || !dep.alias) return c;
  return { ...c, metadata: { ...c.metadata, name: dep.alias } };
}

/** processDependencyEnabled: aliases applied, disabled subcharts (tags, conditions) removed, recursively. */
export function processDependencyEnabled(c: Chart, v: Values, path: string): void {
  const deps = c.metadata.dependencies;
  if (!deps) return;
  const kept: Chart[] = c.dependencies.filter((ch) => !deps.some((d) => d.name === ch.metadata.name));
  for (const d of deps) {
    const ch = aliasChart(c.dependencies, d);
    if (ch) kept.push(ch);
    if (d.alias) d.name = d.alias;
  }
  c.dependencies = kept;
  for (const d of deps) d.enabled = true;
  const cvals = coalesceChartValues(c, v);
  const tags = tableAt(cvals, 'tags') ?? {};
  for (const d of deps) {
    let hasTrue = false;
    let hasFalse = false;
    for (const k of d.tags ?? []) {
      if (tags[k] === true) hasTrue = true;
      else if (tags[k] === false) hasFalse = true;
    }
    if (!hasTrue && hasFalse) d.enabled = false;
    else d.enabled = true;
  }
  for (const d of deps) {
    for (const cond of (d.condition ?? '').trim().split(',')) {
      if (cond.length === 0) continue;
      const b = pathValue(cvals, path + cond);
      if (typeof b === 'boolean') {
        d.enabled = b;
        break;
      }
    }
  }
  const off = new Set(deps.filter((d) => !d.enabled).map((d) => d.name));
  c.dependencies = c.dependencies.filter((ch) => !off.has(ch.metadata.name));
  c.metadata.dependencies = deps.filter((d) => d.enabled);
  for (const ch of c.dependencies) {
    ch.parent = c;
    processDependencyEnabled(ch, cvals, path + ch.metadata.name + '.');
  }
}

function trimNilValues(v: Values): Values {
  for (const [k, x] of Object.entries(v)) {
    if (x === null) delete v[k];
    else if (isTable(x)) trimNilValues(x);
  }
  return v;
}

function processImportValues(c: Chart, merge: boolean): void {
  const deps = c.metadata.dependencies;
  if (!deps) return;
  const cvals = coalesceChartValues(c, null, merge);
  let b: Values = {};
  for (const r of deps) {
    for (const iv of r['import-values'] ?? []) {
      if (isTable(iv)) {
        const vv = tableAt(cvals, `${r.name}.${String(iv.child)}`);
        if (vv !== undefined) b = coalesceTables(b, pathToMap(String(iv.parent), structuredClone(vv)), merge);
      } else if (typeof iv === 'string') {
        const vm = tableAt(cvals, `${r.name}.exports.${iv}`);
        if (vm !== undefined) b = coalesceTables(b, structuredClone(vm), merge);
      }
    }
  }
  // The parent's own values win over what it imports.
  c.values = coalesceTables(merge ? cvals : trimNilValues(cvals), b, merge);
}

/** processDependencyImportValues: children first, then the chart itself. */
export function processDependencyImportValues(c: Chart, merge: boolean): void {
  for (const d of c.dependencies) processDependencyImportValues(d, merge);
  processImportValues(c, merge);
}

/** ProcessDependenciesWithMerge, what install and template use. */
export function processDependencies(c: Chart, user: Values): void {
  processDependencyEnabled(c, user, '');
  processDependencyImportValues(c, true);
}
