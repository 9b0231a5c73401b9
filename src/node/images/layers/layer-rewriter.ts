// Turns an OCI layer's entries into what one overlayfs lower directory must hold, and hands them to tar:
// whiteouts in overlayfs's form, paths never written through a symlink (or refused when they would leave the
// layer), hard links into lower layers copied up. Every other entry passes through byte for byte.
import { withLowerFile } from './copy-up.ts';
import { LayerSymlinks } from './layer-paths.ts';
import { encodeEntryHeader, padding, type TarHeader } from './tar-format.ts';
import type { TarExtraction } from './tar-extract.ts';
import type { TarEntry } from './tar-reader.ts';
import { opaqueDirectoryHeader, whiteoutHeader, whiteoutOf } from './whiteouts.ts';

/** How GNU tar reads a member name by itself: without leading '/' or './' and trailing '/'. */
function asTarReadsIt(name: string): string {
  return name.replace(/^(\.?\/)+/, '').replace(/\/+$/, '');
}

export class LayerRewriter {
  private readonly symlinks = new LayerSymlinks();
  /** Directories this layer wrote, for re-emitting one with the opaque xattr. */
  private readonly directories = new Map<string, TarHeader>();
  /** Everything else this layer wrote: hard-link targets found here are linked, others copied up. */
  private readonly files = new Set<string>();
  /** Bytes of file data written. */
  unpackedBytes = 0;

  /** `lowerDirs`: the directories of the layers below, highest first. */
  constructor(
    private readonly out: TarExtraction,
    private readonly lowerDirs: string[],
  ) {}

  async write(entry: TarEntry): Promise<void> {
    const { header } = entry;
    if (entry.rawGlobal.length > 0) await this.out.write(entry.rawGlobal);
    const path = this.symlinks.resolve(header.path);
    const whiteout = whiteoutOf(path);
    if (whiteout?.kind === 'ignore') return;
    if (whiteout?.kind === 'delete') {
      // A whiteout hides the layers below only: what this layer wrote at the path stays (its own directory then
      // hides the lower directory's entries, which is an opaque directory).
      if (this.files.has(whiteout.path)) return;
      const directory = this.directories.get(whiteout.path);
      if (!directory) this.forget(whiteout.path);
      await this.out.write(
        encodeEntryHeader(directory ? opaqueDirectoryHeader(whiteout.path, directory, header.mtime) : whiteoutHeader(whiteout.path, header.mtime)),
      );
      return;
    }
    if (whiteout?.kind === 'opaque') {
      await this.out.write(encodeEntryHeader(opaqueDirectoryHeader(whiteout.directory, this.directories.get(whiteout.directory), header.mtime)));
      return;
    }

    let linkPath = header.linkPath;
    if (header.type === 'hardlink') {
      linkPath = this.symlinks.resolve(header.linkPath);
      if (!this.files.has(linkPath)) {
        await this.copyUp(path, linkPath);
        return;
      }
      const linkedSymlink = this.symlinks.targetOf(linkPath);
      this.forget(path);
      if (linkedSymlink !== undefined) this.symlinks.record(path, linkedSymlink);
    } else if (header.type === 'symlink') {
      this.forget(path);
      this.symlinks.record(path, header.linkPath);
    } else {
      this.forget(path);
    }
    if (header.type === 'directory') this.directories.set(path, { ...header, path: path || '.' });
    else this.files.add(path);

    const unchanged = asTarReadsIt(header.path) === path && (header.type !== 'hardlink' || asTarReadsIt(header.linkPath) === linkPath);
    await this.emit(unchanged ? entry.rawHeader : encodeEntryHeader({ ...header, path: path || '.', linkPath }), header.size, entry.body());
  }

  private forget(path: string): void {
    this.symlinks.forget(path);
    this.directories.delete(path);
    this.files.delete(path);
  }

  private async copyUp(path: string, target: string): Promise<void> {
    const found = await withLowerFile(this.lowerDirs, target, async (lower) => {
      await this.emit(encodeEntryHeader({ ...lower.header, path }), lower.header.size, lower.body());
    });
    if (!found) throw new Error(`layer entry ${JSON.stringify(path)} is a hard link to ${JSON.stringify(target)}, which is in neither this layer nor a lower one`);
    this.forget(path);
    this.files.add(path);
  }

  private async emit(rawHeader: Buffer, size: number, body: AsyncIterable<Buffer>): Promise<void> {
    await this.out.write(rawHeader);
    for await (const chunk of body) await this.out.write(chunk);
    const pad = padding(size);
    if (pad > 0) await this.out.write(Buffer.alloc(pad));
    this.unpackedBytes += size;
  }
}
