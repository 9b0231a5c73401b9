// Mount points made in a container's root file system before runc runs. runc makes a missing one itself, as the
// container's root; in a user namespace that root owns none of the image's files (they show as nobody), so the
// agent makes them first, as the host's root, in the container's own upper layer. A path through a symlink of the
// image is left alone: runc resolves it within the root file system, and the agent must never follow it out.
import { lstat, mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readMountInfo } from '../../sandbox/mountinfo.ts';

/** Flags a user namespace's remount must keep: the kernel locks them on a mount made outside it. */
const LOCKED_FLAGS = ['nosuid', 'nodev', 'noexec'];

/**
 * The locked flags of the mount each source path is on, as runc 1.1.5 does not carry them into the read-only
 * remount of a bind mount itself (the remount then fails with EPERM in a user namespace).
 */
export async function lockedFlags(sources: string[]): Promise<string[][]> {
  const mounts = await readMountInfo();
  return Promise.all(
    sources.map(async (source) => {
      const path = await realpath(source);
      const on = mounts.filter((m) => path === m.mountPoint || path.startsWith(m.mountPoint === '/' ? '/' : `${m.mountPoint}/`)).at(-1);
      return (on?.mountOptions ?? []).filter((flag) => LOCKED_FLAGS.includes(flag));
    }),
  );
}

export interface MountPoint {
  /** Absolute, inside the container. */
  path: string;
  /** A file (a bind-mounted file) rather than a directory. */
  file: boolean;
}

async function kindOf(path: string): Promise<'missing' | 'directory' | 'other'> {
  try {
    return (await lstat(path)).isDirectory() ? 'directory' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
}

export async function makeMountPoints(rootfs: string, points: MountPoint[]): Promise<void> {
  for (const point of points) {
    const parts = point.path.split('/').filter((part) => part !== '' && part !== '.');
    if (parts.includes('..')) continue;
    let dir = rootfs;
    for (const [index, part] of parts.entries()) {
      const path = join(dir, part);
      const last = index === parts.length - 1;
      const kind = await kindOf(path);
      if (kind === 'missing') {
        if (last && point.file) await writeFile(path, '', { flag: 'wx', mode: 0o644 });
        else await mkdir(path, { mode: 0o755 });
      } else if (kind === 'other') break;
      dir = path;
    }
  }
}
