// The node's image service: what the puller (pull/), the layer store (layers/) and the agent agree on.
// Contract for issue 20; see docs/node.md, "Images".
import type { RegistryCredentials } from '../../client/oci/registry-error.ts';

/** The OCI image config fields a container start reads (config.config in the image's config blob). */
export interface ImageConfig {
  entrypoint?: string[];
  cmd?: string[];
  /** KEY=value, as in the image. */
  env?: string[];
  workingDir?: string;
  /** "uid", "uid:gid", "name" or "name:group", resolved against the image's /etc/passwd by the runtime. */
  user?: string;
  stopSignal?: string;
  exposedPorts?: string[];
  labels?: Record<string, string>;
}

/** An image present on the node: pulled, verified and unpacked. */
export interface LocalImage {
  /** The reference as normalised (docker.io/library/nginx:latest, or …@sha256:…). */
  reference: string;
  /** kubelet's imageID in the pod status: <repository>@sha256:<manifest digest>. */
  imageID: string;
  /** sha256:<hex> of the manifest for this node's platform. */
  manifestDigest: string;
  /** One read-only directory per layer, lowest first (overlayfs's lowerdir is this list reversed). */
  layerDirs: string[];
  config: ImageConfig;
  /** Compressed size of the layers, as Node.status.images reports it. */
  sizeBytes: number;
}

/** A layer blob the store unpacks: a file already verified against its digest. */
export interface LayerBlob {
  /** sha256:<hex> of the compressed blob. */
  digest: string;
  /** application/vnd.oci.image.layer.v1.tar(+gzip|+zstd) or the Docker equivalents. */
  mediaType: string;
  /** The uncompressed tar's digest from the config's rootfs.diff_ids: the layer directory's key. */
  diffID: string;
  path: string;
}

/** What the puller hands the layer store: a manifest resolved for this node's platform, every blob verified. */
export interface PulledImage {
  /** Normalised reference (docker.io/library/nginx:latest). */
  reference: string;
  /** docker.io/library/nginx: the repository part of imageID. */
  repository: string;
  manifestDigest: string;
  /** sha256:<hex> of the config blob: the image's identity on the node (two tags of one image share it). */
  configDigest: string;
  config: ImageConfig;
  /** Lowest first, each with its diffID from the config's rootfs.diff_ids. */
  layers: LayerBlob[];
  sizeBytes: number;
}

export interface PullOptions {
  /** Credentials by registry host (as in .dockerconfigjson "auths"), tried before the registries file's. */
  credentials?: Map<string, RegistryCredentials>;
  signal?: AbortSignal;
}

/** Node.status.images entry. */
export interface NodeImage {
  names: string[];
  sizeBytes: number;
}

export interface ImageService {
  /** The image if it is on the node (pull policy IfNotPresent/Never). */
  local(reference: string): Promise<LocalImage | undefined>;
  /** Pulls (or re-resolves for Always) and unpacks; concurrent pulls of one image share one download. */
  pull(reference: string, options?: PullOptions): Promise<LocalImage>;
  /** What Node.status.images lists. */
  list(): Promise<NodeImage[]>;
  /** Marks an image in use by a container; the returned function releases it. GC never removes a used image. */
  use(imageID: string): () => void;
  /** Removes least recently used images until disk use is below the low threshold, once above the high one. */
  collectGarbage(): Promise<{ removed: string[]; freedBytes: number }>;
}
