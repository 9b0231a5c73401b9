// /proc/self/mountinfo, parsed: the host's mount table, from which the sandbox rebuilds a read-only
// copy of the host's view and finds the cgroup hierarchies.
import { readKernelFile } from './kernel-file.ts';

export interface MountEntry {
  mountPoint: string;
  /** Per-mount flags (ro, nosuid, nodev, noexec, relatime, …). */
  mountOptions: string[];
  fsType: string;
  source: string;
  /** Filesystem options; for cgroup v1 these name the hierarchy's controllers. */
  superOptions: string[];
}

// The kernel escapes space, tab, newline and backslash in paths as three octal digits.
function unescapeMountPath(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

export function parseMountInfo(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    // id parent major:minor root mount-point options [optional fields...] - fstype source super-options
    const separator = line.indexOf(' - ');
    if (separator < 0) continue;
    const head = line.slice(0, separator).split(' ');
    const tail = line.slice(separator + 3).split(' ');
    const [mountPoint, options] = [head[4], head[5]];
    const [fsType, source, superOptions] = [tail[0], tail[1], tail[2]];
    if (mountPoint === undefined || options === undefined || fsType === undefined) continue;
    entries.push({
      mountPoint: unescapeMountPath(mountPoint),
      mountOptions: options.split(','),
      fsType,
      source: unescapeMountPath(source ?? ''),
      superOptions: (superOptions ?? '').split(','),
    });
  }
  return entries;
}

let reading: Promise<readonly MountEntry[]> | undefined;
let queued: Promise<readonly MountEntry[]> | undefined;

/**
 * The mount table as it is now: read after the call. Calls that arrive while a read runs share the next read,
 * so a burst of container starts (each reads the table, which grows by two entries per pod) reads and parses
 * it a few times instead of once per start. The entries are shared: callers must not change them.
 */
export function readMountInfo(): Promise<readonly MountEntry[]> {
  if (reading === undefined) {
    const read = readKernelFile('/proc/self/mountinfo').then(parseMountInfo);
    reading = read;
    const done = () => {
      if (reading === read) reading = undefined;
    };
    read.then(done, done);
    return read;
  }
  const ignore = () => undefined;
  queued ??= reading.then(ignore, ignore).then(() => {
    queued = undefined;
    return readMountInfo();
  });
  return queued;
}
