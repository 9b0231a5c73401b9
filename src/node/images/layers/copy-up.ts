// A hard link to a file of a lower layer cannot be a hard link (layers are separate directories), so the file
// is copied up into this layer, as the OCI image spec allows. GNU tar reads it, xattrs included, and the copy
// becomes an ordinary entry of this layer's stream.
import { spawn } from 'node:child_process';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { TAR_XATTR_FLAGS } from './tar-extract.ts';
import { readTar, type TarEntry } from './tar-reader.ts';

/** The lower layer directory (highest first) whose file `path` is the merged view's, if any. */
async function lowerFileOf(lowerDirs: string[], path: string): Promise<string | undefined> {
  for (const dir of lowerDirs) {
    const stat = await lstat(join(dir, path)).catch(() => undefined);
    if (!stat) continue;
    // A whiteout hides the layers below; anything else than a file cannot be hard-linked to.
    return stat.isFile() ? dir : undefined;
  }
  return undefined;
}

/**
 * Calls `use` with the lower file at `path` as a tar entry (header, xattrs and data), or returns false when no
 * lower layer has it.
 */
export async function withLowerFile(lowerDirs: string[], path: string, use: (entry: TarEntry) => Promise<void>): Promise<boolean> {
  const dir = await lowerFileOf(lowerDirs, path);
  if (!dir) return false;
  const child = spawn('tar', ['-c', '-f', '-', '--format=posix', '--no-recursion', ...TAR_XATTR_FLAGS, '-C', dir, '--', path], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (code, signal) => resolve([code, signal])));
  let readAll = false;
  try {
    for await (const entry of readTar(child.stdout)) await use(entry);
    readAll = true;
  } finally {
    // Only a reader that stopped early kills tar: after the end of its output tar may still be exiting.
    if (!readAll) child.kill('SIGKILL');
  }
  const [code, signal] = await closed;
  if (code !== 0) throw new Error(`could not read ${path} from a lower layer for a hard link (tar exit ${code ?? signal}): ${stderr.trim()}`);
  return true;
}
