// What a node takes from a manifest: this node's platform from an index, as containerd's default platform matcher
// chooses it, and only layers it can unpack.
import { arch } from 'node:process';
import { RegistryError } from '../../../client/oci/registry-error.ts';
import type { Descriptor } from '../../../client/oci/manifest.ts';

const LAYER_MEDIA_TYPES = new Set([
  'application/vnd.oci.image.layer.v1.tar',
  'application/vnd.oci.image.layer.v1.tar+gzip',
  'application/vnd.oci.image.layer.v1.tar+zstd',
  'application/vnd.docker.image.rootfs.diff.tar.gzip',
]);

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

/** Refuses a manifest whose layers are not image layers the layer store unpacks. */
export function requireUnpackableLayers(layers: Descriptor[], where: string): void {
  for (const layer of layers) {
    if (!LAYER_MEDIA_TYPES.has(layer.mediaType)) {
      throw new RegistryError('Invalid', `${where} has a layer of media type ${layer.mediaType}, which Bosun cannot unpack`);
    }
  }
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
    throw new RegistryError('UnsupportedPlatform', `no match for platform ${mine} in the manifest list of ${where} (it offers ${offered || 'nothing'})`);
  }
  return chosen;
}
