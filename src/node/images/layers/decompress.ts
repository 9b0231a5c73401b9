// A layer blob's tar stream. The compression is read from the blob's first bytes, as containerd does, rather than
// trusted from the media type (Docker's "tar.gzip" media type is also used for uncompressed layers).
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

export type Compression = 'gzip' | 'zstd' | 'none';

export async function detectCompression(path: string): Promise<Compression> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await file.read(head, 0, 4, 0);
    const start = head.subarray(0, bytesRead);
    if (start.subarray(0, 2).equals(GZIP_MAGIC)) return 'gzip';
    if (start.equals(ZSTD_MAGIC)) return 'zstd';
    return 'none';
  } finally {
    await file.close();
  }
}

/** The uncompressed bytes of a layer blob. */
export async function* decompressed(path: string): AsyncGenerator<Buffer> {
  const compression = await detectCompression(path);
  if (compression === 'none') yield* createReadStream(path);
  else if (compression === 'gzip') yield* createReadStream(path, { highWaterMark: 1 << 20 }).pipe(createGunzip({ chunkSize: 1 << 18 }));
  else yield* zstdDecompressed(path);
}

/** Node 20 has no zstd; the zstd binary does. */
async function* zstdDecompressed(path: string): AsyncGenerator<Buffer> {
  const child = spawn('zstd', ['-d', '-c', '-q', '--', path], { stdio: ['ignore', 'pipe', 'pipe'] });
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (code, signal) => resolve([code, signal])));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const spawnError = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', resolve);
  });
  if (spawnError?.code === 'ENOENT') throw new Error('the layer is zstd-compressed and the zstd binary is missing: install the Debian package zstd');
  if (spawnError) throw spawnError;
  let readAll = false;
  try {
    yield* child.stdout;
    readAll = true;
  } finally {
    // Only a reader that stopped early kills zstd: after the end of its output zstd may still be exiting.
    if (!readAll) child.kill('SIGKILL');
  }
  const [code, signal] = await closed;
  if (code !== 0) throw new Error(`zstd could not decompress the layer (exit ${code ?? signal}): ${stderr.trim()}`);
}
