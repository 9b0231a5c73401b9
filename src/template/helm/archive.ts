// Chart archives (.tgz): gzip + tar, the top directory stripped, within Helm's limits (100 MiB decompressed,
// 5 MiB per file).
import { gunzipSync } from 'node:zlib';
import { ChartLoadError, MAX_FILE_SIZE, type HelmFile } from './chart.ts';

/** Helm's limit on a chart archive's decompressed size. */
export const MAX_DECOMPRESSED_SIZE = 100 * 1024 * 1024;

function field(block: Buffer, offset: number, length: number): string {
  const raw = block.subarray(offset, offset + length);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul < 0 ? length : nul).toString('utf8');
}

function paxPath(data: Buffer): string | undefined {
  for (const line of data.toString('utf8').split('\n')) {
    const m = /^\d+ path=(.*)$/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/** The regular files of a chart archive, named relative to the chart's top directory. */
export function readChartArchive(gz: Uint8Array): HelmFile[] {
  let tar: Buffer;
  try {
    tar = gunzipSync(gz, { maxOutputLength: MAX_DECOMPRESSED_SIZE });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new ChartLoadError('chart exceeds maximum decompressed size');
    throw new ChartLoadError(`invalid chart archive: ${(e as Error).message}`);
  }
  const files: HelmFile[] = [];
  let longName: string | undefined;
  for (let off = 0; off + 512 <= tar.length;) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156]!);
    const prefix = field(header, 345, 155);
    const data = tar.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      longName = paxPath(data) ?? longName;
      continue;
    }
    if (type === 'L') {
      longName = field(data, 0, data.length);
      continue;
    }
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = undefined;
    if (type !== '0' && type !== '\0') continue;
    const parts = name.split('/');
    if (parts.length < 2) continue;
    const rel = parts.slice(1).join('/');
    if (rel.split('/').includes('..')) throw new ChartLoadError(`chart illegally contains parent directory references: ${name}`);
    if (size > MAX_FILE_SIZE) throw new ChartLoadError(`decompressed chart file "${rel}" is larger than the maximum file size ${MAX_FILE_SIZE}`);
    files.push({ name: rel, data: Buffer.from(data) });
  }
  return files;
}
