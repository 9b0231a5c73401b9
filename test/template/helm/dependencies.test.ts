// Ported from helm/helm v3.19.2 pkg/chartutil/dependencies_test.go, over its testdata (testdata/chartutil/).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadChart, type Chart } from '../../../src/template/helm/chart.ts';
import { processDependencyEnabled, processDependencyImportValues } from '../../../src/template/helm/dependencies.ts';
import { tableAt, type Values } from '../../../src/template/helm/values.ts';

const TESTDATA = join(import.meta.dirname, 'testdata', 'chartutil');
const load = (p: string): Chart => loadChart(join(TESTDATA, p));

/** Chart.ChartPath of every chart in the tree, sorted (extractChartNames). */
function chartNames(c: Chart): string[] {
  const out: string[] = [];
  const walk = (ch: Chart, prefix: string): void => {
    const p = prefix + ch.metadata.name;
    out.push(p);
    for (const d of ch.dependencies) walk(d, p + '.');
  };
  walk(c, '');
  return out.sort();
}

const ENABLED: [string, Values, string[]][] = [
  ['tags with no effect', { tags: { nothinguseful: false } }, ['parentchart', 'parentchart.subchart1', 'parentchart.subchart1.subcharta', 'parentchart.subchart1.subchartb']],
  ['tags disabling a group', { tags: { 'front-end': false } }, ['parentchart']],
  ['tags disabling a group and enabling a different group', { tags: { 'front-end': false, 'back-end': true } }, ['parentchart', 'parentchart.subchart2', 'parentchart.subchart2.subchartb', 'parentchart.subchart2.subchartc']],
  ['tags disabling only children, children still enabled since tag front-end=true in values.yaml', { tags: { subcharta: false, subchartb: false } }, ['parentchart', 'parentchart.subchart1', 'parentchart.subchart1.subcharta', 'parentchart.subchart1.subchartb']],
  ['tags disabling all parents/children with additional tag re-enabling a parent', { tags: { 'front-end': false, subchart1: true, 'back-end': false } }, ['parentchart', 'parentchart.subchart1']],
  ['conditions enabling the parent charts, but back-end (b, c) is still disabled via values.yaml', { subchart1: { enabled: true }, subchart2: { enabled: true } }, ['parentchart', 'parentchart.subchart1', 'parentchart.subchart1.subcharta', 'parentchart.subchart1.subchartb', 'parentchart.subchart2']],
  ['conditions disabling the parent charts, effectively disabling children', { subchart1: { enabled: false }, subchart2: { enabled: false } }, ['parentchart']],
  ["conditions a child using the second condition path of child's condition", { subchart1: { subcharta: { enabled: false } } }, ['parentchart', 'parentchart.subchart1', 'parentchart.subchart1.subchartb']],
  ['tags enabling a parent/child group with condition disabling one child', { subchart2: { subchartc: { enabled: false } }, tags: { 'back-end': true } }, ['parentchart', 'parentchart.subchart1', 'parentchart.subchart1.subcharta', 'parentchart.subchart1.subchartb', 'parentchart.subchart2', 'parentchart.subchart2.subchartb']],
  ['tags will not enable a child if parent is explicitly disabled with condition', { subchart1: { enabled: false }, tags: { 'front-end': true } }, ['parentchart']],
  ['subcharts with alias also respect conditions', { subchart1: { enabled: false }, subchart2alias: { enabled: true, subchartb: { enabled: true } } }, ['parentchart', 'parentchart.subchart2alias', 'parentchart.subchart2alias.subchartb']],
];

for (const [name, values, want] of ENABLED) {
  test(`TestDependencyEnabled: ${name}`, () => {
    const c = load('subpop');
    processDependencyEnabled(c, values, '');
    assert.deepEqual(chartNames(c), want);
  });
}

function pathValue(v: Values, path: string): unknown {
  const parts = path.split('.');
  const last = parts.pop()!;
  const t = parts.length ? tableAt(v, parts.join('.')) : v;
  return t === undefined || !(last in t) ? undefined : t[last];
}

const IMPORTED: Record<string, string> = {
  'imported-chart1.SC1bool': 'true', 'imported-chart1.SC1float': '3.14', 'imported-chart1.SC1int': '100',
  'imported-chart1.SC1string': 'dollywood', 'imported-chart1.SC1extra1': '11', 'imported-chart1.SPextra1': 'helm rocks',
  'imported-chartA.SCAbool': 'false', 'imported-chartA.SCAfloat': '3.1', 'imported-chartA.SCAint': '55',
  'imported-chartA.SCAstring': 'jabba', 'imported-chartA.SPextra3': '1.337', 'imported-chartA.SC1extra2': '1.337',
  'imported-chartA.SCAnested1.SCAnested2': 'true',
  'imported-chartA-B.SCAbool': 'false', 'imported-chartA-B.SCAfloat': '3.1', 'imported-chartA-B.SCAint': '55',
  'imported-chartA-B.SCAstring': 'jabba', 'imported-chartA-B.SCBbool': 'true', 'imported-chartA-B.SCBfloat': '7.77',
  'imported-chartA-B.SCBint': '33', 'imported-chartA-B.SCBstring': 'boba', 'imported-chartA-B.SPextra5': 'k8s',
  'imported-chartA-B.SC1extra5': 'tiller',
  'overridden-chart1.SC1bool': 'false', 'overridden-chart1.SC1float': '3.141592', 'overridden-chart1.SC1int': '99',
  'overridden-chart1.SC1string': 'pollywog', 'overridden-chart1.SPextra2': '42',
  'overridden-chartA.SCAbool': 'true', 'overridden-chartA.SCAfloat': '41.3', 'overridden-chartA.SCAint': '808',
  'overridden-chartA.SCAstring': 'jabberwocky', 'overridden-chartA.SPextra4': 'true',
  'overridden-chartA-B.SCAbool': 'true', 'overridden-chartA-B.SCAfloat': '41.3', 'overridden-chartA-B.SCAint': '808',
  'overridden-chartA-B.SCAstring': 'jabberwocky', 'overridden-chartA-B.SCBbool': 'false', 'overridden-chartA-B.SCBfloat': '1.99',
  'overridden-chartA-B.SCBint': '77', 'overridden-chartA-B.SCBstring': 'jango', 'overridden-chartA-B.SPextra6': '111',
  'overridden-chartA-B.SCAextra1': '23', 'overridden-chartA-B.SCBextra1': '13', 'overridden-chartA-B.SC1extra6': '77',
  SCBexported1B: '1965', SC1extra7: 'true', SCBexported2A: 'blaster', 'global.SC1exported2.all.SC1exported3': 'SC1expstr',
};

test('TestProcessDependencyImportValues', () => {
  const c = load('subpop');
  processDependencyImportValues(c, false);
  for (const [k, want] of Object.entries(IMPORTED)) assert.equal(String(pathValue(c.values, k)), want, k);
  assert.equal(pathValue(c.values, 'ensurenull'), undefined, 'coalescing drops nulls');
  const merged = load('subpop');
  processDependencyImportValues(merged, true);
  assert.ok('ensurenull' in merged.values && merged.values.ensurenull === null, 'merging keeps nulls');
});

test('TestDependentChartAliases', () => {
  const c = load('dependent-chart-alias');
  assert.equal(c.dependencies.length, 2);
  processDependencyEnabled(c, c.values, '');
  assert.equal(c.dependencies.length, 3, 'alias dependencies added');
  assert.equal(c.dependencies.length, c.metadata.dependencies?.length);
});

test('TestDependentChartWithSubChartsAbsentInDependency', () => {
  const c = load('dependent-chart-no-requirements-yaml');
  assert.equal(c.dependencies.length, 2);
  processDependencyEnabled(c, c.values, '');
  assert.equal(c.dependencies.length, 2);
});

test('TestDependentChartWithSubChartsHelmignore: ignored files are not loaded', () => {
  const c = load('dependent-chart-helmignore');
  assert.deepEqual(c.dependencies.map((d) => d.metadata.name), ['alpine']);
  assert.ok(!c.files.some((f) => f.name.startsWith('ignore/') || f.name.startsWith('.')));
});
