// kubelet's SetVolumeOwnership: with a pod fsGroup, every file of the volume becomes group-owned by it and
// group-readable (group-writable unless the volume is read-only), and directories get setgid so that new files
// inherit the group. Symbolic links are re-grouped but keep their modes (a link has none).
import { chmod, lchown, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const READ_WRITE = 0o660;
const READ_ONLY = 0o440;
const SEARCH = 0o110;
const SETGID = 0o2000;

export async function applyFsGroup(path: string, fsGroup: number, readOnly: boolean): Promise<void> {
  const info = await lstat(path);
  await lchown(path, info.uid, fsGroup);
  if (info.isSymbolicLink()) return;
  const mask = (readOnly ? READ_ONLY : READ_WRITE) | (info.isDirectory() ? SETGID | SEARCH : 0);
  await chmod(path, (info.mode & 0o7777) | mask);
  if (!info.isDirectory()) return;
  for (const name of await readdir(path)) await applyFsGroup(join(path, name), fsGroup, readOnly);
}
