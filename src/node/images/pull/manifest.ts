// Manifests a pull understands (OCI index/manifest, Docker manifest list/schema 2), the Accept header asking for
// them, and the choice of this node's platform from an index, as containerd's default platform matcher does.
import { arch } from 'node:process';
import { ImagePullError } from '../types.ts';

export const MEDIA_TYPES = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerSchema1: 'application/vnd.docker.distribution.manifest.v1+json',
  dockerSchema1Signed: 'application/vnd.docker.distribution.manifest.v1+prettyjws',
} as const;

export const MANIFEST_ACCEPT = [MEDIA_TYPES.ociIndex, MEDIA_TYPES.dockerList, MEDIA_TYPES.ociManifest, MEDIA_TYPES.dockerManifest].join(', ');

const LAYER_MEDIA_TYPES = new Set([
  'application/vnd.oci.image.layer.v1.tar',
  'application/vnd.oci.image.layer.v1.tar+gzip',
  'application/vnd.oci.image.layer.v1.tar+zstd',
  'application/vnd.docker.image.rootfs.diff.tar.gzip',
]);

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { os?: string; architecture?: string; variant?: string };
}

export type ParsedManifest =
  | { kind: 'index'; manifests: Descriptor[] }
  | { kind: 'manifest'; config: Descriptor; layers: Descriptor[] };

export interface Platform {
  os: string;
  architecture: string;
  variant?: string;
}

const GOARCH: Partial<Record<string, string>> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64', mips: 'mips', mipsel: 'mipsle' };

/** linux/<GOARCH>[/variant] of this process: what an index is searched for. */
export function nodePlatform(): Platform {
  const architecture = GOARCH[arch] ?? arch;
  if (architecture === 'arm64') return { os: 'linux', architecture, variant: 'v8' };
  if (architecture === 'arm') {
    const version = (process.config.variables as { arm_version?: string }).arm_version;
    return { os: 'linux', architecture, variant: `v${version ?? '7'}` };
  }
  return { os: 'linux', architecture };
}

function isDescriptor(value: unknown): value is Descriptor {
  const d = value as Descriptor | null;
  return typeof d === 'object' && d !== null && typeof d.digest === 'string' && /^sha256:[a-f0-9]{64}$/.test(d.digest) && typeof d.size === 'number';
}

/** Parses manifest bytes; `contentType` is the registry's Content-Type, the JSON's own mediaType otherwise. */
export function parseManifest(bytes: Buffer, contentType: string | undefined, where: string): ParsedManifest {
  const type = contentType?.split(';')[0]?.trim();
  let json: { schemaVersion?: unknown; mediaType?: unknown; manifests?: unknown; config?: unknown; layers?: unknown };
  try {
    json = JSON.parse(bytes.toString('utf8')) as typeof json;
  } catch {
    throw new ImagePullError('Invalid', `the manifest of ${where} is not JSON`);
  }
  if (type === MEDIA_TYPES.dockerSchema1 || type === MEDIA_TYPES.dockerSchema1Signed || json.schemaVersion === 1) {
    throw new ImagePullError(
      'Invalid',
      `${where} is a Docker image manifest schema 1, which Bosun does not pull (deprecated by Docker, removed in containerd 2.0): push it again as Docker schema 2 or OCI`,
    );
  }
  const mediaType = typeof json.mediaType === 'string' ? json.mediaType : type;
  if (Array.isArray(json.manifests) || mediaType === MEDIA_TYPES.ociIndex || mediaType === MEDIA_TYPES.dockerList) {
    if (!Array.isArray(json.manifests) || !json.manifests.every(isDescriptor)) throw new ImagePullError('Invalid', `the image index of ${where} has malformed entries`);
    return { kind: 'index', manifests: json.manifests };
  }
  if (!isDescriptor(json.config) || !Array.isArray(json.layers) || !json.layers.every(isDescriptor)) {
    throw new ImagePullError('Invalid', `the manifest of ${where} (${mediaType ?? 'no media type'}) has no valid config and layers`);
  }
  for (const layer of json.layers) {
    if (!LAYER_MEDIA_TYPES.has(layer.mediaType)) {
      throw new ImagePullError('Invalid', `${where} has a layer of media type ${layer.mediaType}, which Bosun cannot unpack`);
    }
  }
  return { kind: 'manifest', config: json.config, layers: json.layers };
}

/**
 * The index entry for `platform`: same os and architecture, then the exact variant, an entry without a variant,
 * or (arm64) "v8" and none as the same; containerd's matcher does the same normalisation.
 */
export function choosePlatform(manifests: Descriptor[], platform: Platform, where: string): Descriptor {
  const normalise = (variant: string | undefined, architecture: string | undefined): string => (architecture === 'arm64' && variant === 'v8' ? '' : (variant ?? ''));
  const candidates = manifests.filter((m) => (m.platform?.os ?? 'linux') === platform.os && m.platform?.architecture === platform.architecture);
  const wanted = normalise(platform.variant, platform.architecture);
  const chosen =
    candidates.find((m) => normalise(m.platform?.variant, m.platform?.architecture) === wanted) ?? candidates.find((m) => (m.platform?.variant ?? '') === '');
  if (chosen === undefined) {
    const offered = manifests.map((m) => [m.platform?.os, m.platform?.architecture, m.platform?.variant].filter(Boolean).join('/')).join(', ');
    const mine = [platform.os, platform.architecture, platform.variant].filter(Boolean).join('/');
    throw new ImagePullError('UnsupportedPlatform', `no match for platform ${mine} in the manifest list of ${where} (it offers ${offered || 'nothing'})`);
  }
  return chosen;
}
