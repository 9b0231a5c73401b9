// bosun's one-shot commands as a user runs them (bin/bosun.js): --version, --help, template render from a file or
// standard input and with a field the values lack, blueprint render of a directory that is not there, a reader
// that goes away.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..', '..');

function bosun(args: string[], input?: string) {
  return spawnSync(process.execPath, [join(root, 'bin', 'bosun.js'), ...args], { encoding: 'utf8', ...(input !== undefined ? { input } : {}) });
}

const dir = () => mkdtempSync(join(tmpdir(), 'bosun-one-shot-'));

test('--version prints the package version', () => {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const r = bosun(['--version']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `${version}\n`);
});

test('--help and the README\'s first paragraph name what Bosun runs', () => {
  const r = bosun(['--help']);
  assert.equal(r.status, 0, r.stderr);
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const firstParagraph = readme.split('\n\n')[1] ?? '';
  // Both wrap lines: compare with every run of white space as one space.
  for (const [where, wrapped] of [['bosun --help', r.stdout], ['README.md', firstParagraph]] as const) {
    const text = wrapped.replace(/\s+/g, ' ');
    assert.match(text, /Landscaper/, where);
    assert.match(text, /terrakojo/, where);
    assert.match(text, /Jobs and Deployments/, where);
    assert.match(text, /chaos/i, where);
  }
});

test('template render -f - reads the template from standard input', () => {
  const values = join(dir(), 'values.yaml');
  writeFileSync(values, 'name: world\n');
  const r = bosun(['template', 'render', '-f', '-', '--values', values], 'hello {{ .name | upper }}\n');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'hello WORLD\n');
});

test('template render fails, as Landscaper does, when a field the template uses has no value', () => {
  const d = dir();
  const template = join(d, 'config.yaml.tpl');
  writeFileSync(template, 'name: {{ .name }}\nport: {{ .port }}\n');
  writeFileSync(join(d, 'values.yaml'), 'name: web\n');
  const r = bosun(['template', 'render', '-f', template, '--values', join(d, 'values.yaml')]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '', 'nothing half-rendered on stdout');
  assert.ok(r.stderr.startsWith(`template ${JSON.stringify(template)} contains fields with "no value":\n\nline 2:6\n`), r.stderr);
  assert.match(r.stderr, /2: {4}port: <no value>\n {12}ˆ≈≈≈≈≈≈≈/);
});

test('blueprint render of a directory that is not there, or of a missing imports file, is one line naming it', () => {
  const missing = join(dir(), 'no-such-blueprint');
  const r = bosun(['blueprint', 'render', missing]);
  assert.equal(r.status, 1);
  assert.equal(r.stderr, `InputFileError: blueprint directory ${missing} does not exist\n`);

  const example = join(root, 'examples', 'landscaper', 'blueprint-render');
  const imports = join(dir(), 'imports.yaml');
  const noImports = bosun(['blueprint', 'render', example, '--imports', imports]);
  assert.equal(noImports.status, 1);
  assert.equal(noImports.stderr, `InputFileError: imports file ${imports} does not exist\n`);
});

test('a one-shot command whose reader goes away ends as `yes | head` does, without a stack trace', async () => {
  // More output than a pipe holds, so that writing goes on after the reader has gone.
  const child = spawn(process.execPath, [join(root, 'bin', 'bosun.js'), 'template', 'render', '-f', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.once('data', () => child.stdout.destroy());
  child.stdin.end('{{ range until 50000 }}line {{ . }}\n{{ end }}');
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  assert.deepEqual({ code, signal, err }, { code: 141, signal: null, err: '' });
});
