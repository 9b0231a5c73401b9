// Content-addressed blobs under <root>/blobs/sha256/<hex>, shared by every image on the node. A blob is verified
// while it streams into a temp file and renamed into place only when its digest (and size) match, so a blob path
// that exists is always verified; at most 3 downloads run at once, and one digest is downloaded once at a time.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { digestVerifier } from '../../../client/oci/digest-verifier.ts';
import { RegistryError } from '../../../client/oci/registry-error.ts';

const PARALLEL_DOWNLOADS = 3;

export class BlobStore {
  private readonly ingesting = new Map<string, Promise<string>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly root: string) {}

  path(digest: string): string {
    return join(this.root, 'blobs', 'sha256', hexOf(digest));
  }

  async has(digest: string): Promise<boolean> {
    return access(this.path(digest)).then(
      () => true,
      () => false,
    );
  }

  /**
   * The blob's path, downloading it with `open` unless it is present. `size` (the descriptor's) is checked too.
   * DigestMismatch when the bytes are not the digest's; the temp file is removed on every failure.
   */
  async ingest(digest: string, size: number | undefined, open: () => Promise<Readable>): Promise<string> {
    const running = this.ingesting.get(digest);
    if (running) return running;
    const promise = this.download(digest, size, open).finally(() => this.ingesting.delete(digest));
    this.ingesting.set(digest, promise);
    return promise;
  }

  private async download(digest: string, size: number | undefined, open: () => Promise<Readable>): Promise<string> {
    const target = this.path(digest);
    if (await this.has(digest)) return target;
    await this.acquire();
    const temp = join(this.root, 'ingest', `${hexOf(digest)}.${randomUUID()}`);
    try {
      await mkdir(join(this.root, 'ingest'), { recursive: true });
      await mkdir(join(this.root, 'blobs', 'sha256'), { recursive: true });
      await pipeline(await open(), digestVerifier(digest, size), createWriteStream(temp, { mode: 0o644 }));
      await rename(temp, target);
      return target;
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    } finally {
      this.release();
    }
  }

  private async acquire(): Promise<void> {
    if (this.running < PARALLEL_DOWNLOADS) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot to the next waiter, or frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

function hexOf(digest: string): string {
  const match = /^sha256:([a-f0-9]{64})$/.exec(digest);
  if (!match?.[1]) throw new RegistryError('Invalid', `"${digest}" is not a sha256 digest`);
  return match[1];
}
