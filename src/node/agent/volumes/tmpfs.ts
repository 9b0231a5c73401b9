// Memory-backed volume directories (emptyDir medium Memory, and secret and projected volumes, which kubelet keeps
// off the disk): a tmpfs mounted on the volume's directory in the agent's mount namespace, sized by sizeLimit.
// Containers bind the directory, so they see the tmpfs; the pod's cleanup unmounts it.
//
// Every pod has one (its service account token), so a burst of pods mounts a burst of them: the mounts that
// arrive while a batch runs share the next one, a single `mount -a` over an fstab of them (one process for a
// hundred mounts instead of a hundred; measured 5 against 159 ms of the host's time here).
import { randomUUID } from 'node:crypto';
import { realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BatchQueue } from '../../host-commands/batch-queue.ts';
import { runHostCommand } from '../../host-commands/host-command.ts';
import { renderFstab } from '../../sandbox/fstab.ts';
import { readMountInfo } from '../../sandbox/mountinfo.ts';

interface TmpfsMount {
  dir: string;
  options: string[];
}

/** True when something is mounted on dir: it is on another device than its parent (as mountpoint(1) decides). */
async function isMountPoint(dir: string): Promise<boolean> {
  const [self, parent] = await Promise.all([stat(dir), stat(dirname(dir))]);
  return self.dev !== parent.dev;
}

function mountOne({ dir, options }: TmpfsMount): Promise<string> {
  return runHostCommand(['mount', '-t', 'tmpfs', '-o', options.join(','), 'tmpfs', dir]);
}

/**
 * Mounts a batch: one alone directly, more through one `mount -a` (which reads its fstab from a file only). When
 * that fails, each directory it left unmounted is mounted alone, so each failure is its own directory's error.
 */
async function mountBatch(mounts: readonly TmpfsMount[]): Promise<(Error | undefined)[]> {
  const [only] = mounts;
  if (only !== undefined && mounts.length === 1) return [await mountOne(only).then(() => undefined, (error: Error) => error)];
  const fstab = join(tmpdir(), `bosun-tmpfs-${randomUUID()}.fstab`);
  try {
    await writeFile(fstab, renderFstab(mounts.map(({ dir, options }) => ({ source: 'tmpfs', target: dir, fsType: 'tmpfs', options })), ''), { flag: 'wx', mode: 0o600 });
    await runHostCommand(['mount', '-a', '-T', fstab]);
    return mounts.map(() => undefined);
  } catch {
    return Promise.all(
      mounts.map(async (mount) => {
        if (await isMountPoint(mount.dir).catch(() => false)) return undefined;
        return mountOne(mount).then(() => undefined, (error: Error) => error);
      }),
    );
  } finally {
    await rm(fstab, { force: true });
  }
}

const mounts = new BatchQueue<TmpfsMount>(mountBatch);

/**
 * Mounts a tmpfs on dir unless one is already there (an agent restart re-materialises its pods' volumes); fresh
 * says the caller made dir just now, so nothing can be mounted on it.
 */
export async function mountTmpfs(dir: string, sizeBytes: number | undefined, { fresh = false }: { fresh?: boolean } = {}): Promise<void> {
  // Two stats, not a read of the whole mountinfo, which a burst of pods makes long and slow to read.
  if (!fresh && (await isMountPoint(dir))) return;
  const options = ['mode=0777', 'nosuid', 'nodev', ...(sizeBytes !== undefined && sizeBytes > 0 ? [`size=${sizeBytes}`] : [])];
  await mounts.run({ dir, options });
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
