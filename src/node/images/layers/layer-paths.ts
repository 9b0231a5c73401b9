// Where a layer entry lands. Symlinks are kept as written (an absolute target resolves inside the rootfs at run
// time), but an entry is never written through one: its parent directories are resolved against the symlinks
// this layer has made so far, absolute targets from the layer's root, and an entry that would leave the layer
// directory is refused.
import { posix } from 'node:path';

/** Linux's limit on symlinks followed in one lookup (ELOOP). */
const MAX_SYMLINK_HOPS = 40;

export class LayerEscapeError extends Error {
  constructor(entry: string, detail: string) {
    super(`layer entry ${JSON.stringify(entry)} ${detail}: refused, it would be written outside the layer`);
    this.name = 'LayerEscapeError';
  }
}

/** The entry's path relative to the layer root ('' for the root itself), without leading '/', './' or trailing '/'. */
export function normalizeEntryPath(name: string): string {
  const relative = posix.normalize(name.replace(/^\/+/, '') || '.');
  if (relative === '..' || relative.startsWith('../')) throw new LayerEscapeError(name, 'climbs above the layer root with ".."');
  return relative === '.' ? '' : relative.replace(/\/+$/, '');
}

/** The symlinks an unpack has written, by their path in the layer. */
export class LayerSymlinks {
  private readonly targets = new Map<string, string>();

  record(path: string, target: string): void {
    this.targets.set(path, target);
  }

  /** A later entry at `path` that is not a symlink replaces it. */
  forget(path: string): void {
    this.targets.delete(path);
  }

  targetOf(path: string): string | undefined {
    return this.targets.get(path);
  }

  /**
   * The real path, in the layer, of `name`'s parent directories followed by its last component (which is not
   * followed: tar replaces it, and link(2) links a symlink itself).
   */
  resolve(name: string): string {
    const parts = normalizeEntryPath(name).split('/').filter(Boolean);
    const last = parts.pop();
    if (last === undefined) return '';
    const resolved: string[] = [];
    let pending = parts;
    let hops = 0;
    while (pending.length > 0) {
      const [part, ...rest] = pending as [string, ...string[]];
      pending = rest;
      if (part === '.') continue;
      if (part === '..') {
        if (resolved.length === 0) throw new LayerEscapeError(name, 'passes through a symlink that leads above the layer root');
        resolved.pop();
        continue;
      }
      const candidate = [...resolved, part].join('/');
      const target = this.targets.get(candidate);
      if (target === undefined) {
        resolved.push(part);
        continue;
      }
      if (++hops > MAX_SYMLINK_HOPS) throw new LayerEscapeError(name, `passes through more than ${MAX_SYMLINK_HOPS} symlinks`);
      if (target.startsWith('/')) resolved.length = 0;
      pending = [...target.split('/').filter(Boolean), ...pending];
    }
    return [...resolved, last].join('/');
  }
}
