// Helm v3.19.2's own `helm template` golden files (cmd/helm/template_test.go), run through `bosun helm template`
// and compared byte for byte. The command lines are upstream's, unchanged; paths are relative to testdata/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { helmCommand } from '../../../src/cli/commands/helm.ts';

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

/** Runs `bosun helm ARGS` in this process from testdata/, returning stdout and stderr as one text. */
async function runBosunHelm(args: string[]): Promise<string> {
  let text = '';
  const write = (chunk: string | Uint8Array): boolean => {
    text += chunk.toString();
    return true;
  };
  const cwd = process.cwd();
  const [out, err] = [process.stdout.write, process.stderr.write];
  process.stdout.write = write as typeof process.stdout.write;
  process.stderr.write = write as typeof process.stderr.write;
  process.chdir(TESTDATA);
  try {
    await helmCommand().exitOverride().parseAsync(args, { from: 'user' });
  } finally {
    process.chdir(cwd);
    process.stdout.write = out;
    process.stderr.write = err;
    process.exitCode = 0;
  }
  return text;
}

// Known gaps (docs/helm.md): go-yaml's parse error text, and --debug printing the manifest before the error.
const TODO: Record<string, string> = {
  'template-with-invalid-yaml.txt': "needs go-yaml's parse error text",
  'template-with-invalid-yaml-debug.txt': "needs go-yaml's parse error text and --debug's output",
};

for (const [golden, line] of CASES) {
  test(`helm ${line} → ${golden}`, { todo: TODO[golden] }, async () => {
    const want = readFileSync(join(TESTDATA, 'output', golden), 'utf8');
    assert.equal(await runBosunHelm(shellSplit(line)), want);
  });
}
