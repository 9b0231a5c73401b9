// Memory-backed volume directories (emptyDir medium Memory, and secret and projected volumes, which kubelet keeps
// off the disk): a tmpfs mounted on the volume's directory in the agent's mount namespace, sized by sizeLimit.
// Containers bind the directory, so they see the tmpfs; the pod's cleanup unmounts it.
import { realpath } from 'node:fs/promises';
import { runHostCommand } from '../../host-commands/host-command.ts';
import { readMountInfo } from '../../sandbox/mountinfo.ts';

/**
 * Mounts a tmpfs on dir unless one is already there (an agent restart re-materialises its pods' volumes); fresh
 * says the caller made dir just now, so nothing can be mounted on it.
 */
export async function mountTmpfs(dir: string, sizeBytes: number | undefined, { fresh = false }: { fresh?: boolean } = {}): Promise<void> {
  if (!fresh) {
    // mountinfo shows real paths; the data directory may be reached through a symbolic link.
    const real = await realpath(dir);
    if ((await readMountInfo()).some((entry) => entry.mountPoint === real)) return;
  }
  const options = ['mode=0777', 'nosuid', 'nodev', ...(sizeBytes !== undefined && sizeBytes > 0 ? [`size=${sizeBytes}`] : [])];
  await runHostCommand(['mount', '-t', 'tmpfs', '-o', options.join(','), 'tmpfs', dir]);
}

/** Every mount at or below dir (by its real path), deepest first; none when dir does not exist. */
export async function mountsUnder(dir: string): Promise<string[]> {
  const real = await realpath(dir).catch(() => undefined);
  if (real === undefined) return [];
  const entries = await readMountInfo();
  return entries
    .map((entry) => entry.mountPoint)
    .filter((mountPoint) => mountPoint === real || mountPoint.startsWith(`${real}/`))
    .sort((a, b) => b.length - a.length);
}

export async function unmount(mountPoint: string): Promise<void> {
  await runHostCommand(['umount', mountPoint]);
}
