// SPDY/3 header blocks: name/value pairs (lower-case names; several values of one name joined by NUL),
// compressed with zlib primed with SPDY3_HEADER_DICTIONARY. Each direction of a session is one zlib stream:
// every block is sync-flushed, and the next block continues the same stream, so a session keeps one
// compressor for what it sends and one decompressor for what it receives, used one block at a time.
import { constants, createDeflate, createInflate, type Deflate, type Inflate } from 'node:zlib';
import { SPDY3_HEADER_DICTIONARY } from './header-dictionary.ts';
import { SpdyProtocolError } from './frames.ts';

export type SpdyHeaders = Map<string, string[]>;

export function encodeHeaderBlock(headers: SpdyHeaders): Buffer {
  const parts: Buffer[] = [];
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  parts.push(u32(headers.size));
  for (const [name, values] of headers) {
    const nameBytes = Buffer.from(name.toLowerCase(), 'utf8');
    const valueBytes = Buffer.from(values.join('\0'), 'utf8');
    parts.push(u32(nameBytes.length), nameBytes, u32(valueBytes.length), valueBytes);
  }
  return Buffer.concat(parts);
}

export function decodeHeaderBlock(block: Buffer): SpdyHeaders {
  const headers: SpdyHeaders = new Map();
  let offset = 0;
  const take = (length: number): Buffer => {
    if (offset + length > block.length) throw new SpdyProtocolError('truncated header block');
    const part = block.subarray(offset, offset + length);
    offset += length;
    return part;
  };
  const count = take(4).readUInt32BE(0);
  for (let i = 0; i < count; i++) {
    const name = take(take(4).readUInt32BE(0)).toString('utf8').toLowerCase();
    const value = take(take(4).readUInt32BE(0)).toString('utf8');
    headers.set(name, [...(headers.get(name) ?? []), ...value.split('\0')]);
  }
  return headers;
}

/** Feeds one block through a zlib stream and returns what a sync flush makes of it. */
function throughZlib(stream: Deflate | Inflate, input: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => reject(new SpdyProtocolError(`header block: ${error.message}`));
    stream.once('error', failed);
    stream.write(input);
    stream.flush(constants.Z_SYNC_FLUSH, () => {
      stream.off('error', failed);
      // Paused mode: everything the flush produced waits in the readable buffer.
      const out: Buffer[] = [];
      for (let chunk = stream.read() as Buffer | null; chunk !== null; chunk = stream.read() as Buffer | null) out.push(chunk);
      resolve(Buffer.concat(out));
    });
  });
}

/** One direction's compression state. Calls must not overlap (a session serialises them). */
export class HeaderCompressor {
  private readonly deflate = createDeflate({ dictionary: SPDY3_HEADER_DICTIONARY, level: constants.Z_BEST_COMPRESSION });

  compress(headers: SpdyHeaders): Promise<Buffer> {
    return throughZlib(this.deflate, encodeHeaderBlock(headers));
  }

  close(): void {
    this.deflate.destroy();
  }
}

export class HeaderDecompressor {
  private readonly inflate = createInflate({ dictionary: SPDY3_HEADER_DICTIONARY });

  async decompress(block: Buffer): Promise<SpdyHeaders> {
    return decodeHeaderBlock(await throughZlib(this.inflate, block));
  }

  close(): void {
    this.inflate.destroy();
  }
}
