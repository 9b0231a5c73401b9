// Where the node runtime API listens: under the host's /run, which chaos pods mount, one socket per agent
// (several agents may share a machine), in a directory only root may enter.
import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

export const RUNTIME_SOCKET_DIR = '/run/bosun';

export function defaultRuntimeSocketPath(dataDir: string): string {
  return `${RUNTIME_SOCKET_DIR}/runtime-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}.sock`;
}

/** Makes the socket's directory (mode 0700) and removes a socket a dead agent left; refuses to remove anything else. */
export async function prepareSocketPath(path: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (dir === RUNTIME_SOCKET_DIR) await chmod(dir, 0o700);
  const existing = await lstat(path).catch(() => undefined);
  if (existing === undefined) return;
  if (!existing.isSocket()) throw new Error(`${path} exists and is not a socket`);
  await unlink(path);
}
