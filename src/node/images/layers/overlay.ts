// A container's root file system: the image's layer directories as overlayfs lower directories (highest first),
// with an upper and a work directory per container. The kernel copies mount options into one page, so a long
// lowerdir list is given relative to the layers' common parent, from a mount process started there.
import { spawn } from 'node:child_process';
import { dirname, relative } from 'node:path';

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

function run(command: string, args: string[], cwd?: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr: stderr.trim() }));
  });
}

/** Mounts the container's root file system at `target` (an existing directory). */
export async function mountOverlay(rootfs: OverlayRootfs, target: string): Promise<void> {
  const { options, cwd } = overlayMountOptions(rootfs);
  const { code, stderr } = await run('mount', ['-t', 'overlay', 'overlay', '-o', options, target], cwd);
  if (code !== 0) throw new Error(`could not mount the container's root file system at ${target}: ${stderr}`);
}

/** Unmounts `target`; a target that is not mounted is fine (cleanup after a failed start). */
export async function unmountOverlay(target: string): Promise<void> {
  const { code, stderr } = await run('umount', [target]);
  if (code !== 0 && !/not mounted|no mount point specified/.test(stderr)) throw new Error(`could not unmount ${target}: ${stderr}`);
}
