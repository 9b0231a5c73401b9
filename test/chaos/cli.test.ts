// `bosun chaos validate` as a user runs it: a process on files and on stdin; "valid" lines and exit 0 for good
// Disruptions (other kinds in the file skipped), each error with its field path and exit 1 otherwise.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { bin, runToEnd, type Finished } from '../helpers/bosun-process.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures');

function bosun(args: string[], input?: string): Promise<Finished> {
  return runToEnd(process.execPath, [bin, ...args], input === undefined ? {} : { input });
}

const T = { timeout: 60_000 };

test('a file of good Disruptions: one valid line each, the Deployment skipped, exit 0', T, async () => {
  const file = join(FIXTURES, 'good.yaml');
  const r = await bosun(['chaos', 'validate', '-f', file]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.deepEqual(r.stdout.trim().split('\n'), [
    `${file}, document 1: skipped, not a Disruption (apiVersion "apps/v1", kind "Deployment")`,
    `disruption/web-cpu valid (${file}, document 2)`,
    `disruption/web-disk valid (${file}, document 3)`,
    `disruption/web-crash valid (${file}, document 4)`,
  ]);
});

test('a file of bad Disruptions: every error with its field path, exit 1', T, async () => {
  const file = join(FIXTURES, 'bad.yaml');
  const r = await bosun(['chaos', 'validate', '-f', file]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.deepEqual(r.stderr.trim().split('\n'), [
    `disruption/everything-at-once invalid (${file}, document 1):`,
    '  spec.nodeFailure: node failure disruptions are not compatible with other disruption kinds. The node failure will remove the impact of the other disruption types',
    '  spec.count: count must be a positive integer or a valid percentage value',
    `disruption/drop-everything invalid (${file}, document 2):`,
    '  at least one of the initial safety nets caught an issue',
    '  spec.network: the specified disruption either contains no Host or Service filters. This will result in all network traffic being affected.',
  ]);
});

test('--no-safemode skips the safety nets; stdin is read with -f -', T, async () => {
  const yaml = 'apiVersion: chaos.datadoghq.com/v1beta1\nkind: Disruption\nmetadata: {name: drop}\nspec: {count: 1, selector: {app: web}, network: {drop: 100}}\n';
  const on = await bosun(['chaos', 'validate', '-f', '-'], yaml);
  assert.equal(on.code, 1);
  assert.match(on.stderr, /^disruption\/drop invalid \(stdin, document 1\):/);
  const off = await bosun(['chaos', 'validate', '--no-safemode', '-f', '-'], yaml);
  assert.equal(off.code, 0, off.stderr);
  assert.equal(off.stdout, 'disruption/drop valid (stdin, document 1)\n');
});

test('a missing file, broken YAML or no Disruption at all: a clear line and exit 1', T, async () => {
  const missing = await bosun(['chaos', 'validate', '-f', join(FIXTURES, 'nope.yaml')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /InputFileError: file .*nope\.yaml does not exist/);
  const broken = await bosun(['chaos', 'validate', '-f', '-'], 'kind: [unclosed\n');
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /^stdin, document 1: invalid YAML: /);
  const none = await bosun(['chaos', 'validate', '-f', '-'], 'apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n');
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no chaos\.datadoghq\.com\/v1beta1 Disruption in -/);
});
