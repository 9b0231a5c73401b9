// The tar format, read and written byte-exactly. Entries the layer unpacker does not change pass through as the
// registry sent them; only rewritten entries get new header blocks. Pax records are kept as bytes: a file
// capability (security.capability) is binary, and a UTF-8 round trip (tar-stream's) corrupts it.

export const BLOCK = 512;

export type TarEntryType = 'file' | 'hardlink' | 'symlink' | 'character-device' | 'block-device' | 'directory' | 'fifo';

const TYPE_BY_FLAG: Record<string, TarEntryType> = {
  '0': 'file',
  '\0': 'file',
  '7': 'file',
  '1': 'hardlink',
  '2': 'symlink',
  '3': 'character-device',
  '4': 'block-device',
  '5': 'directory',
  '6': 'fifo',
};
const FLAG_BY_TYPE: Record<TarEntryType, string> = {
  file: '0',
  hardlink: '1',
  symlink: '2',
  'character-device': '3',
  'block-device': '4',
  directory: '5',
  fifo: '6',
};

/** The numeric fields of a header block. */
interface HeaderNumbers {
  size: number;
  mode: number;
  uid: number;
  gid: number;
  /** Seconds since the epoch (the header's integer; a pax mtime record stays in `pax`). */
  mtime: number;
  devMajor: number;
  devMinor: number;
}

/** One entry's metadata; numbers from the header block, overridden by its pax records as tar applies them. */
export interface TarHeader extends HeaderNumbers {
  path: string;
  linkPath: string;
  type: TarEntryType;
  /** The entry's own pax records (not the global ones), values as bytes. */
  pax: Map<string, Buffer>;
}

function field(block: Buffer, offset: number, length: number): Buffer {
  const slice = block.subarray(offset, offset + length);
  const nul = slice.indexOf(0);
  return nul === -1 ? slice : slice.subarray(0, nul);
}

/** Octal, or GNU's base-256 for values that do not fit (a set high bit in the first byte). */
function number(block: Buffer, offset: number, length: number): number {
  const first = block[offset] ?? 0;
  if (first & 0x80) {
    let value = first & 0x7f;
    for (let i = 1; i < length; i++) value = value * 256 + (block[offset + i] ?? 0);
    return value;
  }
  const text = field(block, offset, length).toString('latin1').trim();
  return text === '' ? 0 : parseInt(text, 8);
}

function checksum(block: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (block[i] ?? 0);
  return sum;
}

export function isZeroBlock(block: Buffer): boolean {
  for (const byte of block) if (byte !== 0) return false;
  return true;
}

export interface HeaderBlock extends HeaderNumbers {
  flag: string;
  name: string;
  linkName: string;
}

export function parseHeaderBlock(block: Buffer): HeaderBlock {
  if (number(block, 148, 8) !== checksum(block)) throw new Error('layer is not a valid tar archive: header checksum mismatch');
  const ustar = block.subarray(257, 263).toString('latin1') === 'ustar\0';
  const name = field(block, 0, 100).toString('utf8');
  const prefix = ustar ? field(block, 345, 155).toString('utf8') : '';
  return {
    flag: String.fromCharCode(block[156] ?? 0),
    name: prefix ? `${prefix}/${name}` : name,
    linkName: field(block, 157, 100).toString('utf8'),
    size: number(block, 124, 12),
    mode: number(block, 100, 8) & 0o7777,
    uid: number(block, 108, 8),
    gid: number(block, 116, 8),
    mtime: number(block, 136, 12),
    devMajor: number(block, 329, 8),
    devMinor: number(block, 337, 8),
  };
}

export function entryType(flag: string, path: string): TarEntryType {
  const type = TYPE_BY_FLAG[flag];
  if (!type) throw new Error(`layer entry ${JSON.stringify(path)} has tar type ${JSON.stringify(flag)}, which image layers do not use`);
  return type;
}

/** "<length> <key>=<value>\n" records; values are bytes. */
export function parsePax(body: Buffer): Map<string, Buffer> {
  const records = new Map<string, Buffer>();
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    if (space === -1) break;
    const length = parseInt(body.subarray(at, space).toString('latin1'), 10);
    if (!(length > 0)) break;
    const record = body.subarray(space + 1, at + length - 1);
    const equals = record.indexOf(0x3d);
    if (equals !== -1) records.set(record.subarray(0, equals).toString('utf8'), Buffer.from(record.subarray(equals + 1)));
    at += length;
  }
  return records;
}

export function encodePax(records: Map<string, Buffer>): Buffer {
  const parts: Buffer[] = [];
  for (const [key, value] of records) {
    const rest = Buffer.concat([Buffer.from(` ${key}=`, 'utf8'), value, Buffer.from('\n')]);
    // The length counts its own digits.
    let length = rest.length + 1;
    while (String(length).length + rest.length !== length) length = String(length).length + rest.length;
    parts.push(Buffer.from(String(length), 'latin1'), rest);
  }
  return Buffer.concat(parts);
}

export function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

function writeString(block: Buffer, offset: number, length: number, value: string): void {
  block.write(value.slice(0, length), offset, length, 'latin1');
}

function writeOctal(block: Buffer, offset: number, length: number, value: number): boolean {
  const text = value.toString(8);
  if (text.length > length - 1) return false;
  writeString(block, offset, length, text.padStart(length - 1, '0'));
  return true;
}

function ustarBlock(flag: string, header: HeaderNumbers, pax: Map<string, Buffer>): Buffer {
  const block = Buffer.alloc(BLOCK);
  // The names travel in pax records; the header's name field is a readable placeholder.
  writeString(block, 0, 100, 'PaxHeader/entry');
  writeOctal(block, 100, 8, header.mode);
  for (const [key, offset, length, value] of [
    ['uid', 108, 8, header.uid],
    ['gid', 116, 8, header.gid],
    ['size', 124, 12, header.size],
    ['mtime', 136, 12, header.mtime],
  ] as const) {
    if (!writeOctal(block, offset, length, value) && !pax.has(key)) pax.set(key, Buffer.from(String(value)));
  }
  block[156] = flag.charCodeAt(0);
  writeString(block, 257, 6, 'ustar\0');
  writeString(block, 263, 2, '00');
  writeOctal(block, 329, 8, header.devMajor);
  writeOctal(block, 337, 8, header.devMinor);
  writeString(block, 148, 8, `${checksum(block).toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** New header blocks for an entry: a pax header (path, linkpath and the entry's other records) and a ustar header. */
export function encodeEntryHeader(header: TarHeader): Buffer {
  const pax = new Map(header.pax);
  pax.set('path', Buffer.from(header.path, 'utf8'));
  if (header.linkPath) pax.set('linkpath', Buffer.from(header.linkPath, 'utf8'));
  else pax.delete('linkpath');
  const main = ustarBlock(FLAG_BY_TYPE[header.type], header, pax);
  const records = encodePax(pax);
  const paxHeader = ustarBlock('x', { size: records.length, mode: 0o644, uid: 0, gid: 0, mtime: header.mtime, devMajor: 0, devMinor: 0 }, new Map());
  return Buffer.concat([paxHeader, records, Buffer.alloc(padding(records.length)), main]);
}
