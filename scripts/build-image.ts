// Bosun's container image built on this machine without Docker: the filesystem the Dockerfile's last stage has,
// laid out in a directory, and the image config its ENTRYPOINT/CMD/USER/ENV say. An OCI layout is then one
// layer of that directory (test/helpers/oci-image.ts builds and pushes it with GNU tar and skopeo).
//
//   node --import tsx scripts/build-image.ts DIR        writes DIR/rootfs and DIR/config.json
//
// What goes in, as the Dockerfile's stages:
// - Node itself: this machine's node binary and the shared libraries ldd names for it (the base image's node);
// - /app: package.json, bin, src, crds, the production dependencies only (package.json's, resolved) and the CLI
//   compiled there by scripts/build-cli.mjs, last, so that bin/bosun.js runs the build;
// - /etc/passwd and /etc/group naming uid 65532 (the Deployment's runAsUser), and a /tmp.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

export const BOSUN_IMAGE_CONFIG = {
  entrypoint: ['/usr/local/bin/node', '/app/bin/bosun.js'],
  cmd: ['controllers'],
  user: '65532:65532',
  workingDir: '/app',
  env: ['PATH=/usr/local/bin:/usr/bin:/bin', 'NODE_ENV=production'],
};

/** The shared libraries the dynamic loader maps for `binary`, with the loader itself. */
function sharedLibraries(binary: string): string[] {
  const out = execFileSync('ldd', [binary], { encoding: 'utf8' });
  return [...out.matchAll(/(?:=>\s*)?(\/\S+)\s+\(0x/g)].map((m) => m[1]!);
}

/** Copies a file to the same path under rootfs, its symlinks followed (the image needs the bytes, not the links). */
function copyHostFile(rootfs: string, path: string): void {
  const target = join(rootfs, path);
  mkdirSync(dirname(target), { recursive: true });
  cpSync(realpathSync(path), target, { preserveTimestamps: true });
}

/**
 * The package directories of package.json's dependencies and theirs, found as Node resolves them (the nearest
 * node_modules upward from the package that needs one); optional ones only when installed.
 */
function productionPackages(): string[] {
  const found = new Set<string>();
  const visit = (from: string, manifest: PackageManifest): void => {
    const optional = manifest.optionalDependencies ?? {};
    for (const name of Object.keys({ ...manifest.dependencies, ...optional })) {
      const dir = resolvePackage(from, name);
      if (dir === undefined) {
        if (Object.hasOwn(optional, name)) continue;
        throw new Error(`${name}, a dependency of ${relative(root, from) || 'bosun'}, is not installed: run npm ci`);
      }
      if (found.has(dir)) continue;
      found.add(dir);
      visit(dir, readManifest(dir));
    }
  };
  visit(root, readManifest(root));
  const dirs = [...found].sort();
  // A package inside another's node_modules is copied with it.
  return dirs.filter((dir, i) => !dirs.slice(0, i).some((parent) => dir.startsWith(parent + sep)));
}

interface PackageManifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const readManifest = (dir: string): PackageManifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest;

function resolvePackage(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dirname(dir) === dir) return undefined;
  }
}

export function buildBosunRootfs(outDir: string): { rootfs: string; config: typeof BOSUN_IMAGE_CONFIG } {
  const rootfs = join(outDir, 'rootfs');
  rmSync(rootfs, { recursive: true, force: true });
  mkdirSync(rootfs, { recursive: true });

  const node = join(rootfs, 'usr', 'local', 'bin', 'node');
  mkdirSync(dirname(node), { recursive: true });
  cpSync(realpathSync(process.execPath), node);
  for (const library of sharedLibraries(process.execPath)) copyHostFile(rootfs, library);

  mkdirSync(join(rootfs, 'etc'));
  writeFileSync(join(rootfs, 'etc', 'passwd'), 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n');
  writeFileSync(join(rootfs, 'etc', 'group'), 'root:x:0:\nnonroot:x:65532:\n');
  mkdirSync(join(rootfs, 'tmp'));
  chmodSync(join(rootfs, 'tmp'), 0o1777);

  const app = join(rootfs, 'app');
  for (const path of ['package.json', 'bin', 'src', 'crds', 'scripts/build-cli.mjs']) cpSync(join(root, path), join(app, path), { recursive: true, preserveTimestamps: true });
  for (const dir of productionPackages()) cpSync(dir, join(app, relative(root, dir)), { recursive: true, preserveTimestamps: true });
  // Compiled from the image's /app (with this checkout's esbuild) once everything else is in place, so that its
  // build time is after every source's timestamp: bin/bosun.js then runs it.
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--root', app], { stdio: 'inherit' });

  writeFileSync(join(outDir, 'config.json'), JSON.stringify(BOSUN_IMAGE_CONFIG, null, 1) + '\n');
  return { rootfs, config: BOSUN_IMAGE_CONFIG };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error('usage: node --import tsx scripts/build-image.ts DIR');
    process.exit(2);
  }
  const { rootfs } = buildBosunRootfs(resolve(outDir));
  console.log(`rootfs: ${rootfs}`);
}
