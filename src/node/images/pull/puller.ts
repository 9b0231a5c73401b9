// pull(reference) → PulledImage: resolve the reference over the registry's endpoints (mirrors first), choose this
// node's platform from an index, verify the manifest's digest over the bytes received, fetch config and layers into
// the blob store. Concurrent pulls of one reference share one promise.
import { readFile } from 'node:fs/promises';
import { parseManifest, type Descriptor } from '../../../client/oci/manifest.ts';
import { lookupCredentials } from '../../../client/oci/pull-secrets.ts';
import { formatReference, manifestSelector, parseImageReference, repositoryName, type ImageReference } from '../../../client/oci/reference.ts';
import { RegistryClient } from '../../../client/oci/registry-client.ts';
import { EMPTY_REGISTRIES_CONFIG, resolveEndpoints, type RegistriesConfig } from '../../../client/oci/registry-config.ts';
import { RegistryError, type RegistryFailure } from '../../../client/oci/registry-error.ts';
import type { ImageConfig, PulledImage, PullOptions } from '../types.ts';
import { BlobStore } from './blob-store.ts';
import { choosePlatform, nodePlatform, requireUnpackableLayers, type Platform } from './image-manifest.ts';

export interface ImagePullerOptions {
  /** The blob store's directory (blobs/sha256/<hex> below it). */
  root: string;
  registries?: RegistriesConfig;
  /** Default: linux and this process's architecture. */
  platform?: Platform;
}

/** Which endpoint's failure to report when all failed: the one that says most about the image. */
const FAILURE_RANK: RegistryFailure[] = ['DigestMismatch', 'UnsupportedPlatform', 'Invalid', 'Unauthorized', 'NotFound', 'Unreachable'];

export class ImagePuller {
  readonly blobs: BlobStore;
  private readonly registries: RegistriesConfig;
  private readonly platform: Platform;
  private readonly pulling = new Map<string, Promise<PulledImage>>();

  constructor(options: ImagePullerOptions) {
    this.blobs = new BlobStore(options.root);
    this.registries = options.registries ?? EMPTY_REGISTRIES_CONFIG;
    this.platform = options.platform ?? nodePlatform();
  }

  /** Pulls `reference`; a pull already running for the same normalised reference is shared, not repeated. */
  async pull(reference: string, options: PullOptions = {}): Promise<PulledImage> {
    const ref = parseImageReference(reference);
    const key = formatReference(ref);
    const running = this.pulling.get(key);
    if (running) return running;
    const promise = this.pullOnce(ref, options).finally(() => this.pulling.delete(key));
    this.pulling.set(key, promise);
    return promise;
  }

  /** Tries each endpoint in order; a failure on one moves to the next, as containerd's resolver does. */
  private async pullOnce(ref: ImageReference, options: PullOptions): Promise<PulledImage> {
    const failures: RegistryError[] = [];
    for (const endpoint of resolveEndpoints(this.registries, ref)) {
      // A pod's secret names the registry (or the mirror's host); the registries file's auth is the fallback.
      const lookupName = endpoint.mirror ? `${endpoint.host}/${endpoint.repository}` : repositoryName(ref);
      const credentials = lookupCredentials(options.credentials, lookupName) ?? endpoint.auth;
      const client = new RegistryClient(endpoint, { credentials, signal: options.signal });
      try {
        return await this.pullFrom(client, ref);
      } catch (error) {
        if (!(error instanceof RegistryError) || error.failure === 'DigestMismatch') throw error;
        failures.push(error);
      }
    }
    const ranked = [...failures].sort((a, b) => FAILURE_RANK.indexOf(a.failure) - FAILURE_RANK.indexOf(b.failure));
    const [first] = ranked;
    if (first === undefined) throw new RegistryError('Unreachable', `no registry endpoint for ${formatReference(ref)}`);
    const others = failures.filter((f) => f !== first).map((f) => f.message);
    const message = `failed to pull "${formatReference(ref)}": ${first.message}${others.length ? `; also tried: ${others.join('; ')}` : ''}`;
    throw new RegistryError(first.failure, message);
  }

  private async pullFrom(client: RegistryClient, ref: ImageReference): Promise<PulledImage> {
    let fetched = await client.manifest(manifestSelector(ref));
    let parsed = parseManifest(fetched.bytes, fetched.contentType, formatReference(ref));
    if (parsed.kind === 'index') {
      const chosen = choosePlatform(parsed.manifests, this.platform, formatReference(ref));
      fetched = await client.manifest(chosen.digest);
      parsed = parseManifest(fetched.bytes, fetched.contentType, `${formatReference(ref)} (${chosen.digest})`);
      if (parsed.kind === 'index') throw new RegistryError('Invalid', `the platform entry ${chosen.digest} of ${formatReference(ref)} is itself an index`);
    }
    const { config: configDescriptor, layers } = parsed;
    requireUnpackableLayers(layers, formatReference(ref));
    const fetch = (d: Descriptor): Promise<string> => this.blobs.ingest(d.digest, d.size, () => client.blob(d.digest));
    // Config and layers together: the store runs up to 3 downloads at once.
    // Settled, not Promise.all: a failed blob must not leave the others' temp files being written after the throw.
    const settled = await Promise.allSettled([fetch(configDescriptor), ...layers.map(fetch)]);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    const [configPath, ...layerPaths] = settled.map((s) => (s as PromiseFulfilledResult<string>).value);
    const { config, diffIDs } = parseImageConfig(await readFile(configPath as string), formatReference(ref));
    if (diffIDs.length !== layers.length) {
      throw new RegistryError('Invalid', `${formatReference(ref)}: the config lists ${diffIDs.length} diff_ids for ${layers.length} layers`);
    }
    return {
      reference: formatReference(ref),
      repository: repositoryName(ref),
      manifestDigest: fetched.digest,
      configDigest: configDescriptor.digest,
      config,
      layers: layers.map((layer, i) => ({ digest: layer.digest, mediaType: layer.mediaType, diffID: diffIDs[i] as string, path: layerPaths[i] as string })),
      sizeBytes: layers.reduce((sum, layer) => sum + layer.size, 0),
    };
  }
}

interface RawImageConfig {
  config?: {
    Entrypoint?: string[] | null;
    Cmd?: string[] | null;
    Env?: string[] | null;
    WorkingDir?: string;
    User?: string;
    StopSignal?: string;
    ExposedPorts?: Record<string, unknown> | null;
    Labels?: Record<string, string> | null;
  };
  rootfs?: { type?: string; diff_ids?: unknown };
}

/** The image config blob → the fields a container start reads, and rootfs.diff_ids. */
export function parseImageConfig(bytes: Buffer, where: string): { config: ImageConfig; diffIDs: string[] } {
  let raw: RawImageConfig;
  try {
    raw = JSON.parse(bytes.toString('utf8')) as RawImageConfig;
  } catch {
    throw new RegistryError('Invalid', `${where}: the image config is not JSON`);
  }
  const diffIDs = raw.rootfs?.diff_ids;
  if (!Array.isArray(diffIDs) || !diffIDs.every((d) => typeof d === 'string' && /^sha256:[a-f0-9]{64}$/.test(d))) {
    throw new RegistryError('Invalid', `${where}: the image config has no valid rootfs.diff_ids`);
  }
  const c = raw.config ?? {};
  const config: ImageConfig = {};
  if (c.Entrypoint) config.entrypoint = c.Entrypoint;
  if (c.Cmd) config.cmd = c.Cmd;
  if (c.Env) config.env = c.Env;
  if (c.WorkingDir) config.workingDir = c.WorkingDir;
  if (c.User) config.user = c.User;
  if (c.StopSignal) config.stopSignal = c.StopSignal;
  if (c.ExposedPorts) config.exposedPorts = Object.keys(c.ExposedPorts);
  if (c.Labels) config.labels = c.Labels;
  return { config, diffIDs: diffIDs as string[] };
}
