// Which block device backs a path, as major:minor of the whole disk. Upstream throttles `MAJ:0`, which is the
// whole disk only by luck (sda is 8:0, but vda on virtio-blk with 16 minors per disk happens to work too, and
// nvme0n1 is 259:0 while its partitions are 259:1…; dm-1 is 253:1, and a path on overlayfs has major 0, an
// anonymous device). The kernel accepts throttle rules on whole disks only (a partition is refused), so the
// device is resolved for real: stat the path, see through overlayfs to its upper layer, then go from a
// partition to its parent disk through /sys/dev/block.
import { posix } from 'node:path';
import type { HostReads } from '../../host/host-reads.ts';

export interface BlockDevice {
  major: number;
  minor: number;
}

export class BlockDeviceError extends Error {
  override readonly name = 'BlockDeviceError' as const;
}

export const formatDevice = (device: BlockDevice): string => `${device.major}:${device.minor}`;

/** The device number of the filesystem holding `path` (following links), from stat(1). */
export async function statDevice(reads: HostReads, path: string): Promise<BlockDevice> {
  const result = await reads.run(['stat', '-L', '-c', '%Hd:%Ld', path]);
  if (result.code !== 0) throw new BlockDeviceError(`cannot stat ${path}: ${result.stderr.trim() || `stat exited ${result.code}`}`);
  const match = /^(\d+):(\d+)$/.exec(result.stdout.trim());
  if (!match) throw new BlockDeviceError(`unexpected stat output for ${path}: ${JSON.stringify(result.stdout)}`);
  return { major: Number(match[1]), minor: Number(match[2]) };
}

interface MountEntry {
  mountPoint: string;
  fsType: string;
  superOptions: string;
}

/** /proc/PID/mountinfo: the mount point is field 5, the filesystem type and super options follow the ` - `. */
export function parseMountInfo(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const [before, after] = line.split(' - ');
    if (!before || !after) continue;
    const fields = before.split(' ');
    const tail = after.split(' ');
    const mountPoint = fields[4];
    if (mountPoint === undefined) continue;
    entries.push({ mountPoint: unescapeOctal(mountPoint), fsType: tail[0] ?? '', superOptions: tail[2] ?? '' });
  }
  return entries;
}

const unescapeOctal = (s: string): string => s.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

/** The mount a path lives on: the last mounted among those with the longest matching mount point. */
export function mountOf(entries: readonly MountEntry[], path: string): MountEntry | undefined {
  let best: MountEntry | undefined;
  for (const entry of entries) {
    const mp = entry.mountPoint;
    const covers = mp === '/' || path === mp || path.startsWith(mp.endsWith('/') ? mp : `${mp}/`);
    if (covers && (!best || mp.length >= best.mountPoint.length)) best = entry;
  }
  return best;
}

/** An overlay's upper directory (host path at mount time), where writes land. */
export function overlayUpperDir(superOptions: string): string | undefined {
  for (const option of superOptions.split(',')) if (option.startsWith('upperdir=')) return option.slice('upperdir='.length);
  return undefined;
}

/** From a partition to its disk; a whole disk (or a device-mapper or loop device) is itself. */
export async function wholeDisk(reads: HostReads, device: BlockDevice): Promise<BlockDevice> {
  const sysPath = `/sys/dev/block/${formatDevice(device)}`;
  if (!(await reads.exists(sysPath))) {
    throw new BlockDeviceError(`${formatDevice(device)} is not a block device (no ${sysPath}): the path is on a virtual filesystem that cannot be throttled`);
  }
  if (!(await reads.exists(`${sysPath}/partition`))) return device;
  const resolved = await reads.run(['readlink', '-f', sysPath]);
  if (resolved.code !== 0) throw new BlockDeviceError(`cannot resolve ${sysPath}: ${resolved.stderr.trim()}`);
  const parentDev = (await reads.readFile(`${posix.dirname(resolved.stdout.trim())}/dev`)).trim();
  const match = /^(\d+):(\d+)$/.exec(parentDev);
  if (!match) throw new BlockDeviceError(`unexpected parent device of ${formatDevice(device)}: ${JSON.stringify(parentDev)}`);
  return { major: Number(match[1]), minor: Number(match[2]) };
}

export interface ResolveOptions {
  /** The path to stat (as the injector sees it: /proc/PID/root/…, or under the host mount). */
  statPath: string;
  /** The path as seen by the mount namespace of `mountInfoPath`, to find its mount when stat gives major 0. */
  pathInMountNamespace: string;
  mountInfoPath: string;
  /** Where the host's root is mounted, to stat an overlay's upper directory (a host path). */
  hostRoot: string;
}

/** The whole disk backing a path, seeing through overlayfs. */
export async function resolveBlockDevice(reads: HostReads, options: ResolveOptions): Promise<BlockDevice> {
  let device = await statDevice(reads, options.statPath);
  if (device.major === 0) {
    const mount = mountOf(parseMountInfo(await reads.readFile(options.mountInfoPath)), options.pathInMountNamespace);
    const upper = mount?.fsType === 'overlay' ? overlayUpperDir(mount.superOptions) : undefined;
    if (!upper) {
      throw new BlockDeviceError(`${options.pathInMountNamespace} is on ${mount?.fsType ?? 'an unknown filesystem'} (device ${formatDevice(device)}), not on a block device: it cannot be throttled`);
    }
    device = await statDevice(reads, posix.join(options.hostRoot, upper));
    if (device.major === 0) throw new BlockDeviceError(`the overlay upper directory ${upper} of ${options.pathInMountNamespace} is not on a block device: it cannot be throttled`);
  }
  return wholeDisk(reads, device);
}
