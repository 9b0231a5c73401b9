// `bosun helm template` beside the real helm binary (test/helpers/helm-binary.ts): both render the same charts
// in the same run and the outputs must be equal byte for byte. Covers Helm's functions (toToml,
// toYamlPretty, from*/*Array errors), hook handling, and the error output of invalid YAML and failed templates.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { helmBinary } from '../../helpers/helm-binary.ts';
import { runBosunHelm, type HelmRun } from './run-bosun-helm.ts';

const OWN_CHARTS = join(import.meta.dirname, 'testdata', 'bosun');
const home = mkdtempSync(join(tmpdir(), 'bosun-helm-oracle-'));

/** The real `helm ARGS`; its log lines (`file.go:N: …`, --debug's and "skipping unknown hook") left out. */
function realHelm(args: string[], cwd: string): HelmRun {
  const env = { ...process.env, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
  const r = spawnSync(helmBinary(), args, { cwd, env, encoding: 'utf8' });
  const stderr = r.stderr.split('\n').filter((l) => !/^\w+\.go:\d+: /.test(l)).join('\n');
  return { stdout: r.stdout, stderr, combined: r.stdout + stderr };
}

test('functions, values and hooks render as the real helm renders them', async () => {
  const args = ['template', 'r', 'functions', '--set', 'fromSet.big=10000000,fromSet.neg=-3,fromSet.zero=0,fromSet.lead=007,fromSet.yes=TRUE,fromSet.f=1.5,fromSet.list={1,x}'];
  const bosun = await runBosunHelm(args, OWN_CHARTS);
  assert.equal(bosun.stderr, '');
  assert.equal(bosun.stdout, realHelm(args, OWN_CHARTS).stdout);
});

/** A one-template chart in a fresh directory. */
function chartWith(template: string): string {
  const dir = mkdtempSync(join(home, 'chart-'));
  mkdirSync(join(dir, 't', 'templates'), { recursive: true });
  writeFileSync(join(dir, 't', 'Chart.yaml'), 'apiVersion: v2\nname: t\nversion: 0.1.0\n');
  writeFileSync(join(dir, 't', 'templates', 'a.yaml'), template);
  return dir;
}

const ERROR_CASES: [string, string][] = [
  ['a key without a value', 'a: b\nc\nd: e\n'],
  ['a key without a value after blank lines', 'a: b\n\n\nc\n\n'],
  ['a mapping where none may be', 'a: b\n  c: d\n'],
  ['a mapping item out of line', 'a:\n  b: 1\n c: 2\n'],
  ['a document that is a list', '- a\n'],
  ['a document that is a string', 'just text\n'],
  ['metadata that is a number', 'metadata: 5\n'],
  ['a failed template', 'x: {{ fail "boom" }}\n'],
  ['a function Helm does not have', 'x: {{ mustToYaml .Values }}\n'],
  ['a required value', 'x: {{ required "x is required" .Values.x }}\n'],
];

for (const [name, template] of ERROR_CASES) {
  for (const debug of [false, true]) {
    test(`${name}${debug ? ' (--debug)' : ''}: the same error output as helm`, async () => {
      const dir = chartWith(template);
      const args = ['template', 't', ...(debug ? ['--debug'] : [])];
      const want = realHelm(args, dir);
      const got = await runBosunHelm(args, dir);
      assert.equal(got.stdout, want.stdout);
      // Under --debug helm adds a blank line and a Go stack trace to stderr; the Error line is what counts.
      const errorLine = (s: string): string | undefined => (debug ? s.split('\n').find((l) => l.startsWith('Error: ')) : s);
      assert.equal(errorLine(got.stderr), errorLine(want.stderr));
    });
  }
}

test(".Capabilities.APIVersions: helm 3.17's list with client-go 0.32→0.34's changes, as Helm 3.19.2's", async () => {
  const dir = chartWith('a: {{ .Capabilities.APIVersions | toJson | quote }}\n');
  const list = (out: string): string[] => JSON.parse(JSON.parse(/^a: (.*)$/m.exec(out)![1]!) as string) as string[];
  const helm317 = list(realHelm(['template', 't'], dir).stdout);
  const bosun = list((await runBosunHelm(['template', 't'], dir)).stdout);
  const expected = helm317.filter((gv) => gv !== 'networking.k8s.io/v1alpha1');
  expected.splice(expected.indexOf('resource.k8s.io/v1beta1'), 0, 'resource.k8s.io/v1', 'resource.k8s.io/v1beta2');
  assert.deepEqual(bosun, expected);
});
