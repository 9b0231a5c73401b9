// Helm v3.19.2's own `helm template` golden files (cmd/helm/template_test.go), run through `bosun helm template`
// and compared byte for byte. The command lines are upstream's, unchanged; paths are relative to testdata/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runBosunHelm } from './run-bosun-helm.ts';

const TESTDATA = join(import.meta.dirname, 'testdata');
const chartPath = 'testcharts/subchart';

// [golden file, command line after `helm`]
const CASES: [string, string][] = [
  ['template.txt', `template '${chartPath}'`],
  ['template-set.txt', `template '${chartPath}' --set service.name=apache`],
  ['template-values-files.txt', `template '${chartPath}' --values '${chartPath}/charts/subchartA/values.yaml'`],
  ['template-name-template.txt', `template '${chartPath}' --name-template='foobar-{{ b64enc "abc" | lower }}-baz'`],
  ['template-lib-chart.txt', `template 'testcharts/lib-chart'`],
  ['template-chart-bad-type.txt', `template 'testcharts/chart-bad-type'`],
  ['template-chart-with-template-lib-dep.txt', `template 'testcharts/chart-with-template-lib-dep'`],
  ['template-chart-with-template-lib-archive-dep.txt', `template 'testcharts/chart-with-template-lib-archive-dep'`],
  ['template-with-kube-version.txt', `template --kube-version 1.16.0 '${chartPath}'`],
  ['template-with-api-version.txt', `template --api-versions helm.k8s.io/test '${chartPath}'`],
  ['template-with-crds.txt', `template '${chartPath}' --include-crds`],
  ['template-show-only-one.txt', `template '${chartPath}' --show-only templates/service.yaml`],
  ['template-show-only-multiple.txt', `template '${chartPath}' --show-only templates/service.yaml --show-only charts/subcharta/templates/service.yaml`],
  ['template-show-only-glob.txt', `template '${chartPath}' --show-only templates/subdir/role*`],
  ['object-order.txt', `template 'testcharts/object-order'`],
  ['template-with-invalid-yaml.txt', `template 'testcharts/chart-with-template-with-invalid-yaml'`],
  ['template-with-invalid-yaml-debug.txt', `template 'testcharts/chart-with-template-with-invalid-yaml' --debug`],
  ['template-skip-tests.txt', `template '${chartPath}' --skip-tests`],
  ['issue-9027.txt', `template 'testcharts/issue-9027'`],
  ['template-subchart-cm.txt', `template '${chartPath}' --set configmap.enabled=true --set subchartb.enabled=true`],
  ['template-subchart-cm-set.txt', `template '${chartPath}' --set configmap.enabled=true --set subchartb.enabled=true --set configmap.value=baz`],
  ['template-subchart-cm-set-file.txt', `template '${chartPath}' -f ${chartPath}/extra_values.yaml`],
];

/** Splits a command line as a POSIX shell does for these cases (single quotes, `--flag='...'`). */
function shellSplit(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/(?:[^\s']+|'[^']*')+/g)) out.push(m[0].replace(/'([^']*)'/g, '$1'));
  return out;
}

for (const [golden, line] of CASES) {
  test(`helm ${line} → ${golden}`, async () => {
    const want = readFileSync(join(TESTDATA, 'output', golden), 'utf8');
    assert.equal((await runBosunHelm(shellSplit(line), TESTDATA)).combined, want);
  });
}
