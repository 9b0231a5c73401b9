// Manifests a registry client understands (OCI index/manifest, Docker manifest list/schema 2) and the Accept header
// asking for them. What the layers and config are is the caller's business (an image's, a Helm chart's).
import { RegistryError } from './registry-error.ts';

export const MEDIA_TYPES = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerSchema1: 'application/vnd.docker.distribution.manifest.v1+json',
  dockerSchema1Signed: 'application/vnd.docker.distribution.manifest.v1+prettyjws',
} as const;

export const MANIFEST_ACCEPT = [MEDIA_TYPES.ociIndex, MEDIA_TYPES.dockerList, MEDIA_TYPES.ociManifest, MEDIA_TYPES.dockerManifest].join(', ');

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { os?: string; architecture?: string; variant?: string };
}

export type ParsedManifest =
  | { kind: 'index'; manifests: Descriptor[] }
  | { kind: 'manifest'; config: Descriptor; layers: Descriptor[] };

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
    throw new RegistryError('Invalid', `the manifest of ${where} is not JSON`);
  }
  if (type === MEDIA_TYPES.dockerSchema1 || type === MEDIA_TYPES.dockerSchema1Signed || json.schemaVersion === 1) {
    throw new RegistryError(
      'Invalid',
      `${where} is a Docker image manifest schema 1, which Bosun does not pull (deprecated by Docker, removed in containerd 2.0): push it again as Docker schema 2 or OCI`,
    );
  }
  const mediaType = typeof json.mediaType === 'string' ? json.mediaType : type;
  if (Array.isArray(json.manifests) || mediaType === MEDIA_TYPES.ociIndex || mediaType === MEDIA_TYPES.dockerList) {
    if (!Array.isArray(json.manifests) || !json.manifests.every(isDescriptor)) throw new RegistryError('Invalid', `the image index of ${where} has malformed entries`);
    return { kind: 'index', manifests: json.manifests };
  }
  if (!isDescriptor(json.config) || !Array.isArray(json.layers) || !json.layers.every(isDescriptor)) {
    throw new RegistryError('Invalid', `the manifest of ${where} (${mediaType ?? 'no media type'}) has no valid config and layers`);
  }
  return { kind: 'manifest', config: json.config, layers: json.layers };
}
