// The program's state (STATE_PATH) between runs: the wait program archives the directory (gzip of a JSON map
// path → base64 content), the deployer keeps the archive in Secrets of at most 1 MiB each that share a uuid
// annotation and are numbered by another (upstream pkg/deployer/container/state), and the next run's init
// program restores the newest complete group.
import { gunzipSync, gzipSync } from 'node:zlib';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export const STATE_CHUNK_BYTES = 1024 * 1024;
export const STATE_UUID_ANNOTATION = 'container.deployer.landscaper.gardener.cloud/uuid';
export const STATE_NUM_ANNOTATION = 'container.deployer.landscaper.gardener.cloud/num';
export const STATE_COUNT_ANNOTATION = 'container.deployer.landscaper.gardener.cloud/chunks';
export const STATE_WRITTEN_ANNOTATION = 'container.deployer.landscaper.gardener.cloud/written-at';

/** Splits an archive into chunks of at most `size` bytes (an empty archive is one empty chunk). */
export function chunkState(archive: Buffer, size = STATE_CHUNK_BYTES): Buffer[] {
  if (size <= 0) throw new Error('chunk size must be positive');
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < archive.length; offset += size) chunks.push(archive.subarray(offset, offset + size));
  return chunks.length > 0 ? chunks : [Buffer.alloc(0)];
}

export interface StoredChunk {
  uuid: string;
  num: number;
  /** How many chunks the group was written with. */
  count: number;
  writtenAt: string;
  data: Buffer;
}

export interface RestoredState {
  /** The newest complete group's archive, or undefined when there is none. */
  archive: Buffer | undefined;
  uuid: string | undefined;
  /** Groups other than the restored one (older, or incomplete): the deployer deletes their Secrets. */
  staleUuids: string[];
}

/** Picks the newest group whose chunks are all present and joins them in order. */
export function joinState(chunks: readonly StoredChunk[]): RestoredState {
  const groups = new Map<string, StoredChunk[]>();
  for (const c of chunks) groups.set(c.uuid, [...(groups.get(c.uuid) ?? []), c]);
  const complete = [...groups.values()]
    .filter((g) => g.length > 0 && g.every((c) => c.count === g.length) && new Set(g.map((c) => c.num)).size === g.length)
    .sort((a, b) => (b[0]?.writtenAt ?? '').localeCompare(a[0]?.writtenAt ?? ''));
  const newest = complete[0];
  if (!newest) return { archive: undefined, uuid: undefined, staleUuids: [...groups.keys()] };
  const uuid = newest[0]?.uuid ?? '';
  const archive = Buffer.concat([...newest].sort((a, b) => a.num - b.num).map((c) => c.data));
  return { archive, uuid, staleUuids: [...groups.keys()].filter((u) => u !== uuid) };
}

/** The directory's files as an archive (what the wait program writes). */
export function archiveDirectory(dir: string): Buffer {
  const files: Record<string, string> = {};
  const walk = (current: string): void => {
    let names: string[];
    try {
      names = readdirSync(current);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const path = join(current, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) files[relative(dir, path)] = readFileSync(path).toString('base64');
    }
  };
  walk(dir);
  return gzipSync(JSON.stringify(files));
}

/** Unpacks an archive into the directory (what the init program does). */
export function restoreDirectory(archive: Buffer, dir: string): number {
  if (archive.length === 0) return 0;
  const files = JSON.parse(gunzipSync(archive).toString('utf8')) as Record<string, string>;
  let count = 0;
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    if (relative(dir, target).startsWith('..')) throw new Error(`state archive: path ${JSON.stringify(path)} leaves the state directory`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, Buffer.from(content, 'base64'));
    count++;
  }
  return count;
}
