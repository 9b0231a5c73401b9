// Unpacks one layer blob into a directory, checking the uncompressed stream against the layer's diffID as it
// goes: the blob's own digest was checked by the puller, the diffID (from the image config) only here.
import { createHash, type Hash } from 'node:crypto';
import { decompressed } from './decompress.ts';
import { LayerRewriter } from './layer-rewriter.ts';
import { TarExtraction } from './tar-extract.ts';
import { readTar } from './tar-reader.ts';

export class DiffIDMismatchError extends Error {
  constructor(diffID: string, actual: string) {
    super(`layer content does not match its diffID: expected ${diffID}, the uncompressed layer is ${actual}`);
    this.name = 'DiffIDMismatchError';
  }
}

async function* hashing(source: AsyncIterable<Buffer>, hash: Hash): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    hash.update(chunk);
    yield chunk;
  }
}

export interface UnpackLayerRequest {
  blobPath: string;
  diffID: string;
  /** An empty directory to unpack into. */
  target: string;
  /** The image's layers below this one, highest first (hard links into them are copied up). */
  lowerDirs: string[];
}

/** Returns the bytes of file data written. On an error the target is left half-written: the caller removes it. */
export async function unpackLayer(request: UnpackLayerRequest): Promise<number> {
  const hash = createHash('sha256');
  const extraction = TarExtraction.start(request.target);
  const rewriter = new LayerRewriter(extraction, request.lowerDirs);
  try {
    for await (const entry of readTar(hashing(decompressed(request.blobPath), hash))) await rewriter.write(entry);
    const actual = `sha256:${hash.digest('hex')}`;
    if (actual !== request.diffID) throw new DiffIDMismatchError(request.diffID, actual);
    await extraction.finish();
  } catch (error) {
    await extraction.abort();
    throw error;
  }
  return rewriter.unpackedBytes;
}
