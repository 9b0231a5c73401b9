// How `bosun` starts: the build `npm ci` makes (scripts/build-cli.mjs) while it is up to date, the TypeScript
// sources through tsx otherwise; and the build behaves as the sources do. (Start-up time: npm run bench:cli.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDirRemovedAtExit } from '../helpers/temp-dir.ts';

const root = join(import.meta.dirname, '..', '..');

/** A checkout in miniature: the real bin/bosun.js, a one-line "source" CLI and a one-line "build" of it. */
function miniatureCheckout(): { dir: string; run: () => string } {
  const dir = tempDirRemovedAtExit('bosun-start-');
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'src', 'cli'), { recursive: true });
  mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
  copyFileSync(join(root, 'bin', 'bosun.js'), join(dir, 'bin', 'bosun.js'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  writeFileSync(join(dir, 'src', 'cli', 'main.ts'), "const from: string = 'sources';\nconsole.log(from);\n");
  writeFileSync(join(dir, 'dist', 'cli', 'main.js'), "console.log('build');\n");
  return { dir, run: () => execFileSync(process.execPath, [join(dir, 'bin', 'bosun.js')], { encoding: 'utf8' }).trim() };
}

function writeManifest(dir: string, builtAt: number, inputs: string[]): void {
  writeFileSync(join(dir, 'dist', 'cli', 'build.json'), JSON.stringify({ builtAt, inputs }));
}

test('bin/bosun.js runs the build while every input is older than it, the sources otherwise', () => {
  const { dir, run } = miniatureCheckout();
  const builtAt = Date.now();
  const source = join(dir, 'src', 'cli', 'main.ts');
  assert.equal(run(), 'sources', 'never built');

  const before = new Date(builtAt - 60_000);
  utimesSync(source, before, before);
  writeManifest(dir, builtAt, ['src/cli/main.ts']);
  assert.equal(run(), 'build', 'built after the last edit');

  const after = new Date(builtAt + 60_000);
  utimesSync(source, after, after);
  assert.equal(run(), 'sources', 'edited since the build');

  utimesSync(source, before, before);
  writeManifest(dir, builtAt, ['src/cli/main.ts', 'src/cli/removed.ts']);
  assert.equal(run(), 'sources', 'a file the build read is gone');

  rmSync(join(dir, 'dist', 'cli', 'build.json'));
  assert.equal(run(), 'sources', 'an interrupted build has no build.json');
});

test('the build lists the commands and finds the CRD manifests in the checkout', () => {
  const dir = tempDirRemovedAtExit('bosun-build-');
  // Packages stay external: the chunks find them through node_modules above them, as in dist/cli.
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  const outdir = join(dir, 'cli');
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--outdir', outdir]);
  const built = (...args: string[]) => execFileSync(process.execPath, [join(outdir, 'main.js'), ...args], { encoding: 'utf8' });
  const sources = (...args: string[]) => execFileSync(process.execPath, ['--import', 'tsx', join(root, 'src', 'cli', 'main.ts'), ...args], { encoding: 'utf8' });

  assert.equal(built('--help'), sources('--help'));
  const crds = built('manifests');
  assert.match(crds, /kind: CustomResourceDefinition/);
  assert.equal(crds, sources('manifests'));

  // client-node is bundled, so its package entry (and the generated API modules it loads) is never imported.
  const chunks = readdirSync(outdir).filter((file) => file.endsWith('.js'));
  assert.deepEqual(chunks.filter((file) => readFileSync(join(outdir, file), 'utf8').includes('"@kubernetes/client-node')), []);

  const manifest = JSON.parse(readFileSync(join(outdir, 'build.json'), 'utf8')) as { builtAt: number; inputs: string[] };
  assert.ok(manifest.inputs.includes('src/cli/main.ts') && manifest.inputs.includes('scripts/build-cli.mjs'), manifest.inputs.join(' '));
  assert.ok(manifest.builtAt <= Date.now());
});
