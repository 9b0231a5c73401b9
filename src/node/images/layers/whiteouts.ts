// OCI whiteouts in overlayfs's form. In a layer tar, `.wh.NAME` deletes NAME of the layers below and
// `.wh..wh..opq` hides everything below in its directory; overlayfs reads a 0/0 character device and the
// trusted.overlay.opaque=y xattr for the same things, so the unpacker writes those instead of the marker files.
import { posix } from 'node:path';
import type { TarHeader } from './tar-format.ts';

const WHITEOUT_PREFIX = '.wh.';
const OPAQUE_MARKER = '.wh..wh..opq';
/** GNU tar sets an xattr from a pax record of this name. */
export const OPAQUE_PAX_RECORD = 'SCHILY.xattr.trusted.overlay.opaque';

export type Whiteout =
  | { kind: 'opaque'; directory: string }
  | { kind: 'delete'; path: string }
  /** aufs's own bookkeeping (.wh..wh.plnk, .wh..wh.aufs): not part of the image. */
  | { kind: 'ignore' };

/** What a (normalised) entry path means, if it is a whiteout marker. */
export function whiteoutOf(path: string): Whiteout | undefined {
  const base = posix.basename(path);
  if (!base.startsWith(WHITEOUT_PREFIX)) return undefined;
  const directory = posix.dirname(path) === '.' ? '' : posix.dirname(path);
  if (base === OPAQUE_MARKER) return { kind: 'opaque', directory };
  if (base.startsWith(`${WHITEOUT_PREFIX}${WHITEOUT_PREFIX}`)) return { kind: 'ignore' };
  return { kind: 'delete', path: posix.join(directory, base.slice(WHITEOUT_PREFIX.length)) };
}

/** overlayfs's whiteout: a character device 0/0. */
export function whiteoutHeader(path: string, mtime: number): TarHeader {
  return { path, linkPath: '', type: 'character-device', size: 0, mode: 0, uid: 0, gid: 0, mtime, devMajor: 0, devMinor: 0, pax: new Map() };
}

/** The directory again, with the opaque xattr added (tar applies a directory's metadata again when it exists). */
export function opaqueDirectoryHeader(directory: string, written: TarHeader | undefined, mtime: number): TarHeader {
  const base: TarHeader = written ?? { path: directory, linkPath: '', type: 'directory', size: 0, mode: 0o755, uid: 0, gid: 0, mtime, devMajor: 0, devMinor: 0, pax: new Map() };
  const pax = new Map(base.pax);
  pax.set(OPAQUE_PAX_RECORD, Buffer.from('y'));
  return { ...base, path: directory || '.', pax };
}
