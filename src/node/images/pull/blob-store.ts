// Content-addressed blobs under <root>/blobs/sha256/<hex>, shared by every image on the node. A blob is hashed
// while it streams into a temp file and renamed into place only when its digest (and size) match, so a blob path
// that exists is always verified; at most 3 downloads run at once, and one digest is downloaded once at a time.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ImagePullError } from '../types.ts';

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
      const hash = createHash('sha256');
      let received = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          received += chunk.length;
          if (size !== undefined && received > size) return callback(mismatch(digest, `more than the ${size} bytes its descriptor gives`));
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      await pipeline(await open(), measure, createWriteStream(temp, { mode: 0o644 }));
      const actual = `sha256:${hash.digest('hex')}`;
      if (size !== undefined && received !== size) throw mismatch(digest, `${received} bytes where its descriptor gives ${size}`);
      if (actual !== digest) throw mismatch(digest, `the content received has digest ${actual}`);
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
  if (!match?.[1]) throw new ImagePullError('Invalid', `"${digest}" is not a sha256 digest`);
  return match[1];
}

function mismatch(digest: string, detail: string): ImagePullError {
  return new ImagePullError('DigestMismatch', `blob ${digest} failed verification: ${detail}`);
}
