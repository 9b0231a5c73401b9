// Compiles the CLI once (run by `npm ci` through the `prepare` script) so that `bosun` starts without
// compiling TypeScript: src/cli/main.ts and everything it imports, bundled by esbuild into ES modules.
// Packages stay external (loaded from node_modules), but for client-node (below); each subcommand is its own chunk, loaded only when run.
// Beside the chunks, build.json records when the build started and which files went into it: bin/bosun.js
// uses the build only while none of those files is newer.
//
//   node scripts/build-cli.mjs [--outdir DIR] [--root DIR]     (default: dist/cli of this checkout)
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist/cli' }, root: { type: 'string' } } });
// --root: another copy of the sources (scripts/build-image.ts compiles the image's /app with it).
const root = values.root === undefined ? fileURLToPath(new URL('..', import.meta.url)) : resolve(values.root);
const outdir = resolve(root, values.outdir);

class BuildError extends Error {
  name = 'BuildError';
}

// A source file that reaches a file beside it (`new URL('./x', import.meta.url)`: the CRD manifests, a worker
// script) would look beside the chunk instead: point such URLs back at the file in the checkout.
const RELATIVE_URL = /new URL\((['"])(\.{1,2}\/[^'"]*)\1, import\.meta\.url\)/g;
const sourceRelativeUrls = {
  name: 'source-relative-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const contents = text.replace(RELATIVE_URL, (_match, _quote, target) => {
        const absolute = resolve(dirname(args.path), target) + (target.endsWith('/') ? '/' : '');
        let fromChunk = relative(outdir, absolute).split('\\').join('/') + (target.endsWith('/') ? '/' : '');
        if (!fromChunk.startsWith('.')) fromChunk = `./${fromChunk}`;
        return `new URL(${JSON.stringify(fromChunk)}, import.meta.url)`;
      });
      // Any other use of import.meta (dirname, filename, resolve) would silently name the chunk, not the source.
      const rest = contents.replace(/new URL\("[^"]*", import\.meta\.url\)/g, '');
      if (/import\.meta\b/.test(rest)) throw new BuildError(`${relative(root, args.path)}: import.meta is only supported as new URL('./relative', import.meta.url) in the CLI build`);
      return { contents, loader: 'ts' };
    });
  },
};

// Packages stay external, except client-node: Bosun uses its KubeConfig only, and its package entry loads the
// generated API modules, whose sources V8 keeps (about 18 MB of heap in every process); bundled, only what
// KubeConfig reaches is loaded. Its own dependencies stay external.
const BUNDLED_PACKAGE = /^@kubernetes\/client-node(\/|$)/;
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED_PACKAGE.test(args.path) ? undefined : { path: args.path, external: true }));
  },
};

const builtAt = Date.now();
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/cli/main.ts' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir,
  metafile: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [externalPackages, sourceRelativeUrls],
});
// The build's own recipe is an input too: a changed build script means a stale build.
const inputs = [...Object.keys(result.metafile.inputs), 'scripts/build-cli.mjs'].map((p) => relative(root, resolve(root, p)).split('\\').join('/'));
writeFileSync(resolve(outdir, 'build.json'), JSON.stringify({ builtAt, inputs }, null, 1) + '\n');
