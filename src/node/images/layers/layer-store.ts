// One directory per layer, keyed by its diffID: `<root>/sha256/<hex>`. A layer is unpacked into `<root>/tmp`
// and renamed into place once complete and verified, so a directory under sha256/ is always a whole layer; a
// layer already there is not unpacked again, and concurrent unpacks of one layer share one promise.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { LayerBlob } from '../types.ts';
import { unpackLayer } from './unpack-layer.ts';

const DIGEST = /^sha256:([0-9a-f]{64})$/;

export interface UnpackedLayer {
  diffID: string;
  dir: string;
  /** Bytes of file data written, when this call unpacked it (undefined when the layer was already there). */
  unpackedBytes?: number;
}

export class LayerStore {
  private readonly unpacking = new Map<string, Promise<UnpackedLayer>>();

  private constructor(readonly root: string) {}

  /** Opens the store under `root`, removing what an interrupted unpack or removal left in tmp/. */
  static async open(root: string): Promise<LayerStore> {
    await rm(join(root, 'tmp'), { recursive: true, force: true });
    await mkdir(join(root, 'sha256'), { recursive: true, mode: 0o700 });
    await mkdir(join(root, 'tmp'), { mode: 0o700 });
    return new LayerStore(root);
  }

  dir(diffID: string): string {
    const hex = DIGEST.exec(diffID)?.[1];
    if (!hex) throw new Error(`invalid layer diffID ${JSON.stringify(diffID)}: want sha256:<64 hex digits>`);
    return join(this.root, 'sha256', hex);
  }

  async has(diffID: string): Promise<boolean> {
    return (await stat(this.dir(diffID)).catch(() => undefined))?.isDirectory() ?? false;
  }

  /** The diffIDs of every layer on disk. */
  async list(): Promise<string[]> {
    return (await readdir(join(this.root, 'sha256'))).filter((name) => /^[0-9a-f]{64}$/.test(name)).map((hex) => `sha256:${hex}`);
  }

  /** Unpacks `layer` unless it is there; `lowerDiffIDs` are the image's layers below it, lowest first. */
  unpack(layer: LayerBlob, lowerDiffIDs: string[]): Promise<UnpackedLayer> {
    const running = this.unpacking.get(layer.diffID);
    if (running) return running;
    const promise = this.unpackOnce(layer, lowerDiffIDs).finally(() => this.unpacking.delete(layer.diffID));
    this.unpacking.set(layer.diffID, promise);
    return promise;
  }

  private async unpackOnce(layer: LayerBlob, lowerDiffIDs: string[]): Promise<UnpackedLayer> {
    const dir = this.dir(layer.diffID);
    if (await this.has(layer.diffID)) return { diffID: layer.diffID, dir };
    const temp = this.tempPath(layer.diffID);
    await mkdir(temp, { mode: 0o755 });
    try {
      // A layer without a "./" entry leaves the root as created; the rootfs root must not be mkdir's 0700 under a umask.
      await chmod(temp, 0o755);
      const unpackedBytes = await unpackLayer({
        blobPath: layer.path,
        diffID: layer.diffID,
        target: temp,
        lowerDirs: lowerDiffIDs.map((diffID) => this.dir(diffID)).reverse(),
      });
      await rename(temp, dir);
      return { diffID: layer.diffID, dir, unpackedBytes };
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
  }

  /** Removes a layer: renamed out of sha256/ first, so that a crash never leaves a half-removed layer in place. */
  async remove(diffID: string): Promise<void> {
    const temp = this.tempPath(diffID);
    try {
      await rename(this.dir(diffID), temp);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    await rm(temp, { recursive: true, force: true });
  }

  private tempPath(diffID: string): string {
    return join(this.root, 'tmp', `${DIGEST.exec(diffID)?.[1] ?? 'layer'}.${randomBytes(4).toString('hex')}`);
  }
}
