// The blueprint filesystem readFile/readDir/include read from, and an in-memory implementation.
import { posix } from 'node:path';

export interface BlueprintFsEntry {
  name: string;
  isDir: boolean;
  size: number;
}

export interface BlueprintFs {
  /** Throws when the file does not exist. */
  readFile(path: string): Buffer;
  /** Entries sorted by name; throws when the directory does not exist. */
  readDir(path: string): BlueprintFsEntry[];
}

export class BlueprintFsError extends Error {
  override readonly name = 'BlueprintFsError' as const;
}

const norm = (p: string): string => posix.normalize('/' + p).replace(/^\/+/, '').replace(/\/+$/, '');

/** A blueprint filesystem over a map of file paths to contents. */
export class MemoryBlueprintFs implements BlueprintFs {
  private readonly files: Map<string, Buffer>;
  constructor(files: Record<string, string | Buffer>) {
    this.files = new Map(Object.entries(files).map(([k, v]) => [norm(k), typeof v === 'string' ? Buffer.from(v) : v]));
  }
  readFile(path: string): Buffer {
    const f = this.files.get(norm(path));
    if (f === undefined) throw new BlueprintFsError(`open ${path}: file does not exist`);
    return f;
  }
  readDir(path: string): BlueprintFsEntry[] {
    const dir = norm(path);
    const seen = new Map<string, BlueprintFsEntry>();
    for (const [f, c] of this.files) {
      if (dir !== '' && !f.startsWith(dir + '/')) continue;
      const rest = dir === '' ? f : f.slice(dir.length + 1);
      const slash = rest.indexOf('/');
      if (slash >= 0) seen.set(rest.slice(0, slash), { name: rest.slice(0, slash), isDir: true, size: 0 });
      else seen.set(rest, { name: rest, isDir: false, size: c.length });
    }
    if (seen.size === 0) throw new BlueprintFsError(`open ${path}: file does not exist`);
    return [...seen.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
