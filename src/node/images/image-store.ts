// The node's images: pulled by the puller (a dependency), unpacked into shared layer directories, recorded in a
// small JSON index (`<root>/index.json`, replaced atomically), reference-counted while containers use them and
// collected by kubelet's policy: above 85% disk use, least recently used unused images go until 80%.
import { open, readFile, rename, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { LayerStore } from './layers/layer-store.ts';
import type { ImageConfig, ImageService, LocalImage, NodeImage, PulledImage, PullOptions } from './types.ts';

/** One image on the node, keyed by its config digest (two tags of one image are one record). */
interface ImageRecord {
  configDigest: string;
  /** repository:tag names pointing at it (a tag points at one image: pulling it elsewhere moves it). */
  repoTags: string[];
  /** repository@sha256:<manifest digest>: kubelet's imageID, one per repository it was pulled from. */
  repoDigests: string[];
  /** diffIDs, lowest first. */
  layers: string[];
  config: ImageConfig;
  sizeBytes: number;
  /** When it was pulled first: kubelet keeps images younger than the minimum age. */
  firstPulled: number;
  lastUsed: number;
}

interface StoreIndex {
  version: 1;
  images: ImageRecord[];
  /** Bytes of file data per unpacked layer, what removing it frees. */
  layerBytes: Record<string, number>;
}

export interface DiskUsage {
  capacityBytes: number;
  availableBytes: number;
}

export interface ImageGCPolicy {
  /** kubelet's imageGCHighThresholdPercent: collect once disk use is at or above it (85). */
  highThresholdPercent: number;
  /** kubelet's imageGCLowThresholdPercent: collect down to it (80). */
  lowThresholdPercent: number;
  /** kubelet's imageMinimumGCAge: images pulled more recently are kept (2 minutes). */
  minAgeMs: number;
}

export const KUBELET_IMAGE_GC_POLICY: ImageGCPolicy = { highThresholdPercent: 85, lowThresholdPercent: 80, minAgeMs: 120_000 };

/** kubelet's nodeStatusMaxImages and the names it reports per image. */
const NODE_STATUS_MAX_IMAGES = 50;
const MAX_NAMES_PER_IMAGE = 5;

export interface ImageStoreOptions {
  /** `<node dir>/images`. */
  root: string;
  /** The puller: a manifest for this node's platform with every blob verified on disk. */
  pull: (reference: string, options?: PullOptions) => Promise<PulledImage>;
  /** The puller's normalisation (nginx → docker.io/library/nginx:latest), so that local() finds what pull() stored. */
  normalizeReference: (reference: string) => string;
  gcPolicy?: Partial<ImageGCPolicy>;
  /** The file system holding the store; statfs(2) of the root by default. */
  diskUsage?: () => Promise<DiskUsage>;
  now?: () => number;
}

/** repository, tag and digest of a normalised reference (host[:port]/path[:tag][@digest]). */
function splitReference(reference: string): { repository: string; tag?: string; digest?: string } {
  const at = reference.indexOf('@');
  const named = at === -1 ? reference : reference.slice(0, at);
  const digest = at === -1 ? undefined : reference.slice(at + 1);
  const colon = named.lastIndexOf(':');
  if (colon > named.lastIndexOf('/')) return { repository: named.slice(0, colon), tag: named.slice(colon + 1), digest };
  return { repository: named, digest };
}

export class ImageStore implements ImageService {
  private readonly pulling = new Map<string, Promise<LocalImage>>();
  private readonly inUse = new Map<string, number>();
  /** Pulls in progress (unpacking and recording) and a collection in progress exclude each other. */
  private activePulls = 0;
  private pullsDone: Promise<void> = Promise.resolve();
  private endPulls: () => void = () => undefined;
  private collecting: Promise<unknown> = Promise.resolve();
  /** The collection removing layers right now: pulls wait for it before unpacking. */
  private activeCollection: Promise<unknown> | undefined;
  private saving: Promise<unknown> = Promise.resolve();
  private readonly policy: ImageGCPolicy;
  private readonly now: () => number;

  private constructor(
    private readonly options: ImageStoreOptions,
    private readonly layers: LayerStore,
    private readonly index: StoreIndex,
  ) {
    this.policy = { ...KUBELET_IMAGE_GC_POLICY, ...options.gcPolicy };
    this.now = options.now ?? Date.now;
  }

  static async open(options: ImageStoreOptions): Promise<ImageStore> {
    const layers = await LayerStore.open(join(options.root, 'layers'));
    return new ImageStore(options, layers, await readIndex(join(options.root, 'index.json')));
  }

  async local(reference: string): Promise<LocalImage | undefined> {
    const normalized = this.options.normalizeReference(reference);
    const { repository, digest } = splitReference(normalized);
    const record = this.index.images.find((image) => (digest ? image.repoDigests.includes(`${repository}@${digest}`) : image.repoTags.includes(normalized)));
    if (!record) return undefined;
    for (const diffID of record.layers) if (!(await this.layers.has(diffID))) return undefined;
    return this.localImage(record, normalized, repository);
  }

  async pull(reference: string, options?: PullOptions): Promise<LocalImage> {
    // async: an invalid reference (normalisation throws) is a rejection, as every other pull failure.
    const key = this.options.normalizeReference(reference);
    const running = this.pulling.get(key);
    if (running) return running;
    const promise = this.pullAndUnpack(reference, options).finally(() => this.pulling.delete(key));
    this.pulling.set(key, promise);
    return await promise;
  }

  list(): Promise<NodeImage[]> {
    const images = [...this.index.images]
      .sort((a, b) => b.sizeBytes - a.sizeBytes)
      .slice(0, NODE_STATUS_MAX_IMAGES)
      .map((image) => ({ names: [...image.repoDigests, ...image.repoTags].slice(0, MAX_NAMES_PER_IMAGE), sizeBytes: image.sizeBytes }));
    return Promise.resolve(images);
  }

  use(imageID: string): () => void {
    this.inUse.set(imageID, (this.inUse.get(imageID) ?? 0) + 1);
    this.touch(imageID);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const count = (this.inUse.get(imageID) ?? 1) - 1;
      if (count > 0) this.inUse.set(imageID, count);
      else this.inUse.delete(imageID);
      this.touch(imageID);
    };
  }

  collectGarbage(): Promise<{ removed: string[]; freedBytes: number }> {
    const run = this.collecting.then(async () => {
      while (this.activePulls > 0) await this.pullsDone;
      // From here to the assignment nothing else runs: a pull that starts now waits for this collection.
      const collection = this.collect();
      this.activeCollection = collection;
      try {
        return await collection;
      } finally {
        this.activeCollection = undefined;
      }
    });
    this.collecting = run.catch(() => undefined);
    return run;
  }

  private async pullAndUnpack(reference: string, options: PullOptions | undefined): Promise<LocalImage> {
    const pulled = await this.options.pull(reference, options);
    while (this.activeCollection) await this.activeCollection.catch(() => undefined);
    this.beginPull();
    try {
      for (const [i, layer] of pulled.layers.entries()) {
        const below = pulled.layers.slice(0, i).map((lower) => lower.diffID);
        const unpacked = await this.layers.unpack(layer, below);
        // Known at once, so that a collection after a failed pull counts what removing this layer frees.
        if (unpacked.unpackedBytes !== undefined) this.index.layerBytes[layer.diffID] = unpacked.unpackedBytes;
      }
      const record = this.record(pulled);
      await this.save();
      return this.localImage(record, pulled.reference, pulled.repository);
    } finally {
      this.finishPull();
    }
  }

  private beginPull(): void {
    if (this.activePulls++ === 0) this.pullsDone = new Promise((resolve) => (this.endPulls = resolve));
  }

  private finishPull(): void {
    if (--this.activePulls === 0) this.endPulls();
  }

  private record(pulled: PulledImage): ImageRecord {
    const now = this.now();
    const { tag, digest } = splitReference(pulled.reference);
    const repoTag = tag !== undefined && digest === undefined ? pulled.reference : undefined;
    const repoDigest = `${pulled.repository}@${pulled.manifestDigest}`;
    let record = this.index.images.find((image) => image.configDigest === pulled.configDigest);
    if (!record) {
      record = { configDigest: pulled.configDigest, repoTags: [], repoDigests: [], layers: [], config: pulled.config, sizeBytes: 0, firstPulled: now, lastUsed: now };
      this.index.images.push(record);
    }
    if (repoTag) {
      // A tag names one image: the one pulled last.
      for (const other of this.index.images) other.repoTags = other.repoTags.filter((name) => name !== repoTag);
      record.repoTags.push(repoTag);
    }
    // One manifest per repository: a re-pushed manifest of the same config replaces the old digest.
    record.repoDigests = [...record.repoDigests.filter((name) => !name.startsWith(`${pulled.repository}@`)), repoDigest];
    record.layers = pulled.layers.map((layer) => layer.diffID);
    record.config = pulled.config;
    record.sizeBytes = pulled.sizeBytes;
    record.lastUsed = now;
    return record;
  }

  private localImage(record: ImageRecord, reference: string, repository: string): LocalImage {
    const imageID = record.repoDigests.find((name) => name.startsWith(`${repository}@`)) ?? record.repoDigests[0]!;
    return {
      reference,
      imageID,
      manifestDigest: imageID.slice(imageID.indexOf('@') + 1),
      layerDirs: record.layers.map((diffID) => this.layers.dir(diffID)),
      config: record.config,
      sizeBytes: record.sizeBytes,
    };
  }

  /** Last use is kept in memory until the next save, as kubelet keeps it (in memory only). */
  private touch(imageID: string): void {
    const record = this.index.images.find((image) => image.repoDigests.includes(imageID));
    if (record) record.lastUsed = this.now();
  }

  private isUsed(record: ImageRecord): boolean {
    return record.repoDigests.some((name) => this.inUse.has(name));
  }

  private async collect(): Promise<{ removed: string[]; freedBytes: number }> {
    const usage = await (this.options.diskUsage ?? (() => diskUsageOf(this.options.root)))();
    const usedPercent = 100 - Math.floor((usage.availableBytes * 100) / usage.capacityBytes);
    if (usedPercent < this.policy.highThresholdPercent) return { removed: [], freedBytes: await this.removeOrphanLayers() };
    const toFree = (usage.capacityBytes * (100 - this.policy.lowThresholdPercent)) / 100 - usage.availableBytes;
    const now = this.now();
    const candidates = this.index.images
      .filter((image) => !this.isUsed(image) && now - image.firstPulled >= this.policy.minAgeMs)
      .sort((a, b) => a.lastUsed - b.lastUsed);
    const removed: string[] = [];
    let freedBytes = 0;
    for (const image of candidates) {
      if (freedBytes >= toFree) break;
      this.index.images = this.index.images.filter((other) => other !== image);
      const stillNeeded = new Set(this.index.images.flatMap((other) => other.layers));
      for (const diffID of new Set(image.layers)) {
        if (stillNeeded.has(diffID)) continue;
        await this.layers.remove(diffID);
        freedBytes += this.index.layerBytes[diffID] ?? 0;
        delete this.index.layerBytes[diffID];
      }
      removed.push(image.repoDigests[0] ?? image.configDigest);
      await this.save();
    }
    return { removed, freedBytes: freedBytes + (await this.removeOrphanLayers()) };
  }

  /** Layers no image names: left by a pull that failed after unpacking some of its layers. */
  private async removeOrphanLayers(): Promise<number> {
    const named = new Set(this.index.images.flatMap((image) => image.layers));
    let freedBytes = 0;
    for (const diffID of await this.layers.list()) {
      if (named.has(diffID)) continue;
      await this.layers.remove(diffID);
      freedBytes += this.index.layerBytes[diffID] ?? 0;
      delete this.index.layerBytes[diffID];
    }
    return freedBytes;
  }

  /** Writes the index; saves run one after another. */
  private save(): Promise<void> {
    const write = this.saving.then(() => this.write());
    this.saving = write.catch(() => undefined);
    return write;
  }

  private async write(): Promise<void> {
    const path = join(this.options.root, 'index.json');
    const temporary = `${path}.tmp`;
    const file = await open(temporary, 'w', 0o600);
    try {
      await file.writeFile(`${JSON.stringify(this.index, null, 2)}\n`);
      await file.datasync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  }
}

async function readIndex(path: string): Promise<StoreIndex> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, images: [], layerBytes: {} };
    throw error;
  }
  const index = JSON.parse(text) as StoreIndex;
  if (index.version !== 1 || !Array.isArray(index.images)) throw new Error(`the image index ${path} has an unknown layout; remove ${path} and the layers beside it to start over`);
  return index;
}

async function diskUsageOf(path: string): Promise<DiskUsage> {
  const stats = await statfs(path);
  return { capacityBytes: stats.blocks * stats.bsize, availableBytes: stats.bavail * stats.bsize };
}
