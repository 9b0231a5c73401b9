// Test images built from files on this machine, never downloaded: an OCI image layout written here (GNU tar for
// the layers, Node's zlib or the zstd binary to compress), pushed to a registry with skopeo.
//
//   const image = await buildOciImage({ config: { cmd: ['sh'] } });                  // busybox-static + applets
//   const image = await buildOciImage({ busybox: false, layers: [{ dir }, { tar: 'tricky.tar' }] });
//   const image = await buildOciImage({ platforms: [{ architecture: 'arm64', variant: 'v8' }, { architecture: 'amd64' }] });
//   await pushImage(image, `${registry.host}/bosun/web:1.0`);                        // OCI media types
//   await pushImage(image, `${registry.host}/bosun/web:v2`, { format: 'v2s2', credentials: registry.credentials });
//   image.digest        // what was pushed under the tag: the manifest's (or, with platforms, the index's) digest
//   image.manifests     // one per platform: { platform, digest, configDigest }
//   image.layers        // { digest, diffID, size, mediaType }, lowest first
//
// Layers are, lowest first: busybox (/bin/busybox with its applet symlinks, unless busybox: false), then each of
// `layers`, a directory (archived with numeric owners and xattrs) or an uncompressed tar file used as it is (for
// whiteouts, hard links and other entries a directory cannot hold). The layout lives in a temp dir; remove() drops it.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { nodePlatform } from '../../src/node/images/pull/image-manifest.ts';

export type LayerSource = { dir: string } | { tar: string };

export interface ImagePlatform {
  architecture: string;
  os?: string;
  variant?: string;
}

export interface ImageConfigSpec {
  entrypoint?: string[];
  cmd?: string[];
  env?: string[];
  user?: string;
  workingDir?: string;
  stopSignal?: string;
  exposedPorts?: string[];
  labels?: Record<string, string>;
}

export interface OciImageSpec {
  /** Start from /bin/busybox and its applet symlinks (default true). */
  busybox?: boolean;
  layers?: LayerSource[];
  config?: ImageConfigSpec;
  /** Default: one manifest for this machine (linux/GOARCH). More than one: an image index over them. */
  platforms?: ImagePlatform[];
  compression?: 'gzip' | 'zstd' | 'none';
}

export interface BuiltLayer {
  digest: string;
  diffID: string;
  size: number;
  mediaType: string;
}

export interface BuiltImage {
  /** The OCI layout directory; the image is tagged `latest` in it. */
  layout: string;
  digest: string;
  mediaType: string;
  manifests: { platform: ImagePlatform; digest: string; configDigest: string }[];
  layers: BuiltLayer[];
  remove(): void;
}

const LAYER_MEDIA_TYPE = {
  gzip: 'application/vnd.oci.image.layer.v1.tar+gzip',
  zstd: 'application/vnd.oci.image.layer.v1.tar+zstd',
  none: 'application/vnd.oci.image.layer.v1.tar',
};

export async function buildOciImage(spec: OciImageSpec = {}): Promise<BuiltImage> {
  const layout = mkdtempSync(join(tmpdir(), 'bosun-oci-'));
  const blobs = join(layout, 'blobs', 'sha256');
  mkdirSync(blobs, { recursive: true });
  writeFileSync(join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  const writeBlob = (data: Buffer): { digest: string; size: number } => {
    const hex = createHash('sha256').update(data).digest('hex');
    writeFileSync(join(blobs, hex), data);
    return { digest: `sha256:${hex}`, size: data.length };
  };
  const compression = spec.compression ?? 'gzip';
  const work = mkdtempSync(join(tmpdir(), 'bosun-oci-work-'));
  try {
    const sources: LayerSource[] = [...(spec.busybox === false ? [] : [{ dir: busyboxTree(work) }]), ...(spec.layers ?? [])];
    const layers = sources.map((source): BuiltLayer => {
      const tar = 'tar' in source ? readFileSync(source.tar) : execFileSync('tar', ['--numeric-owner', '--xattrs', '--xattrs-include=*', '-C', source.dir, '-cf', '-', '.'], { maxBuffer: 1 << 30 });
      const diffID = `sha256:${createHash('sha256').update(tar).digest('hex')}`;
      return { ...writeBlob(compress(tar, compression)), diffID, mediaType: LAYER_MEDIA_TYPE[compression] };
    });
    const manifests = (spec.platforms ?? [nodePlatform()]).map((platform) => {
      const config = writeBlob(Buffer.from(JSON.stringify(imageConfig(platform, spec.config ?? {}, layers))));
      const manifest = Buffer.from(
        JSON.stringify({
          schemaVersion: 2,
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
          layers: layers.map((l) => ({ mediaType: l.mediaType, digest: l.digest, size: l.size })),
        }),
      );
      return { platform: { os: 'linux', ...platform }, ...writeBlob(manifest), configDigest: config.digest };
    });
    let top: { digest: string; size: number; mediaType: string };
    if (manifests.length === 1 && spec.platforms === undefined) {
      const [only] = manifests as [(typeof manifests)[number]];
      top = { digest: only.digest, size: only.size, mediaType: 'application/vnd.oci.image.manifest.v1+json' };
    } else {
      const index = Buffer.from(
        JSON.stringify({
          schemaVersion: 2,
          mediaType: 'application/vnd.oci.image.index.v1+json',
          manifests: manifests.map((m) => ({ mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: m.digest, size: m.size, platform: m.platform })),
        }),
      );
      top = { ...writeBlob(index), mediaType: 'application/vnd.oci.image.index.v1+json' };
    }
    writeFileSync(
      join(layout, 'index.json'),
      JSON.stringify({ schemaVersion: 2, manifests: [{ ...top, annotations: { 'org.opencontainers.image.ref.name': 'latest' } }] }),
    );
    return {
      layout,
      digest: top.digest,
      mediaType: top.mediaType,
      manifests: manifests.map(({ platform, digest, configDigest }) => ({ platform, digest, configDigest })),
      layers,
      remove: () => rmSync(layout, { recursive: true, force: true }),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export interface PushOptions {
  /** oci (default) keeps the OCI media types; v2s2 converts to Docker's (manifest list, schema 2). */
  format?: 'oci' | 'v2s2';
  credentials?: { username: string; password: string };
}

/** skopeo copy of the image (all platforms of an index) to `host:port/repo:tag`, over plain http. */
export async function pushImage(image: BuiltImage, target: string, options: PushOptions = {}): Promise<void> {
  const args = ['copy', '--quiet', '--all', '--dest-tls-verify=false'];
  if (options.format === 'v2s2') args.push('--format', 'v2s2');
  if (options.credentials) args.push('--dest-creds', `${options.credentials.username}:${options.credentials.password}`);
  args.push(`oci:${image.layout}:latest`, `docker://${target}`);
  await new Promise<void>((resolve, reject) => {
    const child = spawn('skopeo', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`skopeo ${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

/** bin/busybox and a symlink per applet where busybox --list-full puts it (usr/bin/awk → /bin/busybox). */
function busyboxTree(work: string): string {
  const root = join(work, 'busybox');
  mkdirSync(join(root, 'bin'), { recursive: true });
  copyFileSync('/bin/busybox', join(root, 'bin', 'busybox'));
  const applets = execFileSync('/bin/busybox', ['--list-full'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const applet of applets) {
    if (applet === 'bin/busybox') continue;
    mkdirSync(dirname(join(root, applet)), { recursive: true });
    symlinkSync('/bin/busybox', join(root, applet));
  }
  for (const dir of ['etc', 'tmp', 'root']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n');
  writeFileSync(join(root, 'etc', 'group'), 'root:x:0:\nnogroup:x:65534:\n');
  return root;
}

function compress(tar: Buffer, compression: 'gzip' | 'zstd' | 'none'): Buffer {
  if (compression === 'none') return tar;
  if (compression === 'gzip') return gzipSync(tar);
  const result = spawnSync('zstd', ['-q', '-c'], { input: tar, maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`zstd failed: ${result.stderr.toString()}`);
  return result.stdout;
}

function imageConfig(platform: ImagePlatform, config: ImageConfigSpec, layers: BuiltLayer[]): object {
  return {
    created: new Date(0).toISOString(),
    architecture: platform.architecture,
    os: platform.os ?? 'linux',
    ...(platform.variant === undefined ? {} : { variant: platform.variant }),
    config: {
      Entrypoint: config.entrypoint,
      Cmd: config.cmd,
      Env: config.env ?? ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
      User: config.user,
      WorkingDir: config.workingDir,
      StopSignal: config.stopSignal,
      ExposedPorts: config.exposedPorts && Object.fromEntries(config.exposedPorts.map((p) => [p, {}])),
      Labels: config.labels,
    },
    rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffID) },
    history: layers.map(() => ({ created: new Date(0).toISOString(), created_by: 'bosun test image' })),
  };
}
