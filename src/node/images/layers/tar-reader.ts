// Reads a tar stream entry by entry, keeping each entry's header blocks as they were so that an unchanged entry
// can be passed on byte for byte. Pax extended headers (global and per entry) and GNU long names are applied.
import { BLOCK, entryType, isZeroBlock, padding, parseHeaderBlock, parsePax, type TarHeader } from './tar-format.ts';

export interface TarEntry {
  header: TarHeader;
  /** Global pax headers read before this entry: they apply to every later entry, whatever becomes of this one. */
  rawGlobal: Buffer;
  /** The entry's extension headers (pax, GNU long names) and its own header block. */
  rawHeader: Buffer;
  /** The entry's data (header.size bytes, without padding); read it before asking for the next entry, or it is skipped. */
  body(): AsyncGenerator<Buffer>;
}

/** Buffers a byte stream and hands out exact amounts. */
class ByteReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async fill(wanted: number): Promise<void> {
    while (this.buffered < wanted && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else if (next.value.length > 0) {
        this.chunks.push(next.value);
        this.buffered += next.value.length;
      }
    }
  }

  /** Exactly `length` bytes, or undefined at the end of the stream before any. */
  async take(length: number): Promise<Buffer | undefined> {
    await this.fill(length);
    if (this.buffered === 0 && length > 0) return undefined;
    if (this.buffered < length) throw new Error('layer tar archive ends in the middle of an entry');
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const taken = all.subarray(0, length);
    const rest = all.subarray(length);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return taken;
  }

  /** Up to `length` bytes, as they arrive. */
  async *stream(length: number): AsyncGenerator<Buffer> {
    let left = length;
    while (left > 0) {
      await this.fill(1);
      const chunk = this.chunks.shift();
      if (!chunk) throw new Error('layer tar archive ends in the middle of an entry');
      const part = chunk.subarray(0, left);
      if (part.length < chunk.length) this.chunks.unshift(chunk.subarray(part.length));
      this.buffered -= part.length;
      left -= part.length;
      yield part;
    }
  }

  async skip(length: number): Promise<void> {
    for await (const chunk of this.stream(length)) void chunk;
  }

  /** Reads the rest of the stream (so that a digest over it is complete). */
  async drain(): Promise<void> {
    this.chunks = [];
    this.buffered = 0;
    while (!this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
    }
  }
}

export async function* readTar(source: AsyncIterable<Buffer>): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  let globalPax = new Map<string, Buffer>();
  for (;;) {
    const raw: Buffer[] = [];
    const rawGlobal: Buffer[] = [];
    let pax = new Map<string, Buffer>();
    let longName: string | undefined;
    let longLink: string | undefined;
    let block = await reader.take(BLOCK);
    // The end: two zero blocks (or, leniently, the end of the stream at an entry boundary).
    if (!block || isZeroBlock(block)) break;
    let parsed = parseHeaderBlock(block);
    while (['x', 'g', 'L', 'K'].includes(parsed.flag)) {
      const body = (await reader.take(parsed.size + padding(parsed.size))) ?? Buffer.alloc(0);
      (parsed.flag === 'g' ? rawGlobal : raw).push(block, body);
      const data = body.subarray(0, parsed.size);
      if (parsed.flag === 'x') pax = parsePax(data);
      else if (parsed.flag === 'g') globalPax = new Map([...globalPax, ...parsePax(data)]);
      else if (parsed.flag === 'L') longName = data.toString('utf8').replace(/\0+$/, '');
      else longLink = data.toString('utf8').replace(/\0+$/, '');
      block = await reader.take(BLOCK);
      if (!block) throw new Error('layer tar archive ends after an extended header');
      parsed = parseHeaderBlock(block);
    }
    raw.push(block);
    const records = new Map([...globalPax, ...pax]);
    const text = (key: string) => records.get(key)?.toString('utf8');
    const numeric = (key: string, fallback: number) => {
      const value = text(key);
      return value === undefined ? fallback : Math.floor(Number(value));
    };
    const path = text('path') ?? longName ?? parsed.name;
    const size = numeric('size', parsed.size);
    const header: TarHeader = {
      path,
      linkPath: text('linkpath') ?? longLink ?? parsed.linkName,
      type: entryType(parsed.flag, path),
      size: parsed.flag === '1' || parsed.flag === '2' || parsed.flag === '5' ? 0 : size,
      mode: parsed.mode,
      uid: numeric('uid', parsed.uid),
      gid: numeric('gid', parsed.gid),
      mtime: parsed.mtime,
      devMajor: parsed.devMajor,
      devMinor: parsed.devMinor,
      pax,
    };
    const dataLength = header.size;
    let consumed = false;
    yield {
      header,
      rawGlobal: Buffer.concat(rawGlobal),
      rawHeader: Buffer.concat(raw),
      body: async function* () {
        consumed = true;
        yield* reader.stream(dataLength);
        await reader.skip(padding(dataLength));
      },
    };
    if (!consumed) await reader.skip(dataLength + padding(dataLength));
  }
  await reader.drain();
}
