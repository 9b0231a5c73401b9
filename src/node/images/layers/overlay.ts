// A container's root file system: the image's layer directories as overlayfs lower directories (highest first),
// with an upper and a work directory per container. The kernel copies mount options into one page, so a long
// lowerdir list is given relative to the layers' common parent, from a mount process started there.
import { dirname, relative } from 'node:path';
import { HostCommandError, runHostCommand } from '../../host-commands/host-command.ts';

/** The kernel's limit on mount options: one page (4096 bytes on the machines Bosun runs on), NUL included. */
export const MOUNT_OPTIONS_LIMIT = 4095;

export interface OverlayRootfs {
  /** The image's layer directories, lowest first (LocalImage.layerDirs). */
  layerDirs: string[];
  upperDir: string;
  workDir: string;
}

export interface OverlayMountOptions {
  options: string;
  /** Where the mount process runs, when the lower directories are given relative to it. */
  cwd?: string;
}

export class OverlayOptionsTooLongError extends Error {
  constructor(layers: number, length: number) {
    super(
      `the image's ${layers} layers do not fit in overlayfs's mount options: ${length} bytes even with relative paths, the kernel takes ${MOUNT_OPTIONS_LIMIT}`,
    );
    this.name = 'OverlayOptionsTooLongError';
  }
}

function checkPath(path: string): string {
  // overlayfs separates options with ',' and lower directories with ':'.
  if (/[,:\\]/.test(path)) throw new Error(`overlay directory ${JSON.stringify(path)} contains ',', ':' or '\\', which overlayfs's options cannot carry`);
  return path;
}

function optionsFor(lower: string[], upperDir: string, workDir: string): string {
  return `lowerdir=${lower.map(checkPath).join(':')},upperdir=${checkPath(upperDir)},workdir=${checkPath(workDir)}`;
}

export function overlayMountOptions(rootfs: OverlayRootfs): OverlayMountOptions {
  if (rootfs.layerDirs.length === 0) throw new Error('an image without layers has no root file system to mount');
  // overlayfs refuses a directory twice ("conflicting lowerdir path"); images repeat layers (empty ones
  // especially). The highest copy shadows every path of the lower ones, so dropping those changes nothing.
  const lower = [...new Set([...rootfs.layerDirs].reverse())];
  const absolute = optionsFor(lower, rootfs.upperDir, rootfs.workDir);
  if (absolute.length <= MOUNT_OPTIONS_LIMIT) return { options: absolute };
  const parent = dirname(lower[0]!);
  const shortened = optionsFor(
    lower.map((dir) => relative(parent, dir)),
    rootfs.upperDir,
    rootfs.workDir,
  );
  if (shortened.length > MOUNT_OPTIONS_LIMIT) throw new OverlayOptionsTooLongError(lower.length, shortened.length);
  return { options: shortened, cwd: parent };
}

/** Mounts the container's root file system at `target` (an existing directory). */
export async function mountOverlay(rootfs: OverlayRootfs, target: string): Promise<void> {
  const { options, cwd } = overlayMountOptions(rootfs);
  try {
    await runHostCommand(['mount', '-t', 'overlay', 'overlay', '-o', options, target], '', cwd === undefined ? {} : { cwd });
  } catch (error) {
    throw new Error(`could not mount the container's root file system at ${target}: ${error instanceof HostCommandError ? error.stderr.trim() || error.message : String(error)}`, { cause: error });
  }
}

/** Unmounts `target`; a target that is not mounted is fine (cleanup after a failed start). */
export async function unmountOverlay(target: string): Promise<void> {
  try {
    await runHostCommand(['umount', target]);
  } catch (error) {
    const stderr = error instanceof HostCommandError ? error.stderr.trim() || error.message : String(error);
    if (!/not mounted|no mount point specified/.test(stderr)) throw new Error(`could not unmount ${target}: ${stderr}`, { cause: error });
  }
}
