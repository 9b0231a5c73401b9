// The container's mounts, in order:
//   1. an overlay of a small skeleton tmpfs (mount points the host lacks) over the host's root, read-only;
//   2. the host's other mounts, bound read-only, except the trees the sandbox replaces (privileged
//      containers keep the host's /sys, writable, and /dev) and the private directories: every host mount at
//      or below one is left out and the directory itself is covered by an empty read-only tmpfs, so no
//      container sees the node's per-pod state (other pods' volumes, logs) and the number of mounts per start
//      does not grow with the number of pods;
//   3. a fresh /proc with runc's read-only and masked paths; a fresh read-only /sys whose /sys/fs/cgroup holds
//      only the container's own cgroups; /dev as a few device nodes, devpts, shm and mqueue;
//   4. writable /tmp, /var/tmp, /run and /root from the container's scratch directory: the host's /run (the
//      Docker, containerd, D-Bus and systemd sockets) is not shown, since a read-only mount still lets a process
//      connect to the Unix sockets on it, nor the host's /root;
//   5. volumes, shallowest first; then /etc/hosts, /etc/hostname, /etc/resolv.conf unless a volume took them.
// Every writable place is nodev (except for privileged containers), and the devices cgroup (device-rules.ts)
// refuses every device but the default few: a root container's CAP_MKNOD must not yield usable device nodes.
import { stat } from 'node:fs/promises';
import { basename, isAbsolute, posix } from 'node:path';
import { ContainerView, isWithin } from './container-view.ts';
import { SandboxSpecError } from './errors.ts';
import type { MountSpec } from './fstab.ts';
import type { MountEntry } from './mountinfo.ts';
import type { VolumeBinding } from './types.ts';

const READ_ONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];
// runc's masked paths, then the host's password hashes: a root container must not read them.
const MASKED_PATHS = [
  '/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/proc/asound', '/proc/acpi', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list',
  '/proc/timer_stats', '/proc/sched_debug', '/proc/scsi', '/sys/firmware', '/sys/devices/virtual/powercap',
];
export const DEVICE_NODES = ['null', 'zero', 'full', 'random', 'urandom', 'tty'];
const MOUNT_FLAGS = new Set(['nosuid', 'nodev', 'noexec', 'noatime', 'nodiratime', 'relatime', 'strictatime', 'nosymfollow']);
const REPLACED_TREES = ['/proc', '/dev', '/sys', '/tmp', '/var/tmp', '/run', '/root'];
const PRIVILEGED_HOST_TREES = ['/sys'];

/** Which of runc's protected paths this kernel has (probed once). */
export interface ProtectedPaths {
  readOnly: string[];
  maskedFiles: string[];
  maskedDirs: string[];
}

export async function probeProtectedPaths(): Promise<ProtectedPaths> {
  const kind = (path: string) => stat(path).then((s) => (s.isDirectory() ? 'dir' : 'file'), () => 'absent');
  const kinds = new Map(await Promise.all([...READ_ONLY_PATHS, ...MASKED_PATHS].map(async (path) => [path, await kind(path)] as const)));
  return {
    readOnly: READ_ONLY_PATHS.filter((p) => kinds.get(p) !== 'absent'),
    maskedFiles: MASKED_PATHS.filter((p) => kinds.get(p) === 'file'),
    maskedDirs: MASKED_PATHS.filter((p) => kinds.get(p) === 'dir'),
  };
}

export interface MountPlanInput {
  hostMounts: readonly MountEntry[];
  protectedPaths: ProtectedPaths;
  /** The skeleton tmpfs's mount point (host path). */
  skeletonDir: string;
  scratch: { tmp: string; varTmp: string; run: string; dev: string; root: string };
  podFiles: { hosts: string; hostname: string; resolvConf: string };
  /** The container's cgroup directory in each hierarchy (by the hierarchy's mount point). */
  cgroups: { version: 1 | 2; dirs: { mountPoint: string; dir: string }[] };
  volumes: VolumeBinding[];
  /** Canonical host directories no container may see, none inside another (private-dirs.ts). */
  privateDirs: string[];
  workingDir: string;
  privileged: boolean;
  readOnlyRootFilesystem: boolean;
}

export interface MountPlan {
  mounts: MountSpec[];
  view: ContainerView;
  /** Canonical working directory. */
  workingDir: string;
}

/**
 * The host's mounts other than its root, as the host sees them (the last mount on a path hides earlier ones),
 * without those the container does not get: the replaced trees and everything at or below a private directory.
 */
function hostSubmounts(mounts: readonly MountEntry[], hidden: string[]): MountEntry[] {
  const last = new Map<string, number>();
  mounts.forEach((m, i) => last.set(m.mountPoint, i));
  return mounts.filter((m, i) => last.get(m.mountPoint) === i && m.mountPoint !== '/' && !hidden.some((tree) => isWithin(m.mountPoint, tree)));
}

export async function planMounts(input: MountPlanInput): Promise<MountPlan> {
  const { privileged } = input;
  const view = new ContainerView({ containerPath: '/', source: '/', create: 'skeleton', description: "the host's root filesystem" });
  const mounts: MountSpec[] = [{ source: 'bosun-root', target: '/', fsType: 'overlay', options: ['ro', `lowerdir=${input.skeletonDir}:/`] }];
  const writableOptions = privileged ? [] : ['nodev'];
  const replaced = privileged ? REPLACED_TREES.filter((tree) => !PRIVILEGED_HOST_TREES.includes(tree)) : REPLACED_TREES;

  for (const m of hostSubmounts(input.hostMounts, [...replaced, ...input.privateDirs])) {
    const writable = privileged && isWithin(m.mountPoint, '/sys');
    mounts.push({ source: m.mountPoint, target: m.mountPoint, fsType: 'none', options: ['bind', ...(writable ? [] : ['ro']), ...m.mountOptions.filter((o) => MOUNT_FLAGS.has(o))] });
    view.addLayer({ containerPath: m.mountPoint, source: m.mountPoint, create: 'never', description: `the host mount ${m.mountPoint}` });
  }
  // The files a private directory holds on its parent's filesystem are hidden by the cover; one inside a
  // replaced tree is hidden already. Volume sources under it are bound by host path, before pivot_root.
  for (const dir of input.privateDirs.filter((d) => !replaced.some((tree) => isWithin(d, tree)))) {
    mounts.push({ source: 'bosun-private', target: dir, fsType: 'tmpfs', options: ['ro', 'nosuid', 'nodev', 'noexec', 'mode=755', 'size=4k'] });
    view.addLayer({ containerPath: dir, source: undefined, create: 'never', description: `the node's private directory ${dir}` });
  }

  mounts.push({ source: 'proc', target: '/proc', fsType: 'proc', options: ['nosuid', 'nodev', 'noexec'] });
  view.addLayer({ containerPath: '/proc', source: undefined, create: 'never', description: '/proc' });
  if (privileged) {
    mounts.push({ source: '/dev', target: '/dev', fsType: 'none', options: ['rbind'] });
    view.addLayer({ containerPath: '/dev', source: '/dev', create: 'never', description: "the host's /dev" });
  } else {
    mounts.push({ source: input.scratch.dev, target: '/dev', fsType: 'none', options: ['bind', 'nosuid', 'nodev', 'noexec'] });
    view.addLayer({ containerPath: '/dev', source: input.scratch.dev, create: 'source', description: '/dev' });
    for (const node of DEVICE_NODES) {
      mounts.push({ source: `/dev/${node}`, target: `/dev/${node}`, fsType: 'none', options: ['bind', 'nosuid', 'noexec'] });
      view.addLayer({ containerPath: `/dev/${node}`, source: `/dev/${node}`, create: 'never', description: `/dev/${node}` });
    }
    const special: [string, string, string[]][] = [
      ['/dev/pts', 'devpts', ['newinstance', 'ptmxmode=0666', 'mode=0620', 'nosuid', 'noexec']],
      ['/dev/shm', 'tmpfs', ['nosuid', 'nodev', 'noexec', 'mode=1777', 'size=65536k']],
      ['/dev/mqueue', 'mqueue', ['nosuid', 'nodev', 'noexec']],
    ];
    for (const [path, fsType, options] of special) {
      mounts.push({ source: fsType, target: path, fsType, options });
      view.addLayer({ containerPath: path, source: undefined, create: 'never', description: path });
    }
    mounts.push({ source: 'sysfs', target: '/sys', fsType: 'sysfs', options: ['ro', 'nosuid', 'nodev', 'noexec'] });
    view.addLayer({ containerPath: '/sys', source: '/sys', create: 'never', description: '/sys' });
    // v1: one directory per hierarchy in a small tmpfs (mount(8) makes them); v2: the one cgroup directory.
    const { version, dirs } = input.cgroups;
    if (version === 1) {
      mounts.push({ source: 'cgroup-root', target: '/sys/fs/cgroup', fsType: 'tmpfs', options: ['nosuid', 'nodev', 'noexec', 'mode=755', 'size=64k'] });
      view.addLayer({ containerPath: '/sys/fs/cgroup', source: undefined, create: 'never', description: '/sys/fs/cgroup' });
    }
    for (const { mountPoint, dir } of dirs) {
      const target = version === 1 ? `/sys/fs/cgroup/${basename(mountPoint)}` : '/sys/fs/cgroup';
      mounts.push({ source: dir, target, fsType: 'none', options: ['bind', 'ro', 'nosuid', 'nodev', 'noexec', ...(version === 1 ? ['X-mount.mkdir'] : [])] });
      view.addLayer({ containerPath: target, source: dir, create: 'never', description: 'the container cgroup' });
    }
  }
  if (!privileged) {
    const { readOnly, maskedFiles, maskedDirs } = input.protectedPaths;
    for (const path of readOnly) mounts.push({ source: path, sourceInRoot: true, target: path, fsType: 'none', options: ['bind', 'ro', 'nosuid', 'nodev', 'noexec'] });
    for (const path of maskedFiles) mounts.push({ source: '/dev/null', target: path, fsType: 'none', options: ['bind', 'ro'] });
    for (const path of maskedDirs) mounts.push({ source: 'tmpfs', target: path, fsType: 'tmpfs', options: ['ro', 'nosuid', 'nodev', 'noexec', 'size=0'] });
  }

  const rootOptions = input.readOnlyRootFilesystem ? ['ro'] : [];
  const scratchTargets = new Set<string>();
  // /root is the container's own, as an image's is: the host's holds the admin's keys and history.
  for (const [path, source] of [['/tmp', input.scratch.tmp], ['/var/tmp', input.scratch.varTmp], ['/run', input.scratch.run], ['/root', input.scratch.root]] as const) {
    const target = await view.ensureMountPoint(path, 'dir');
    // A host where /var/tmp links to /tmp gets one mount.
    if (scratchTargets.has(target)) continue;
    scratchTargets.add(target);
    mounts.push({ source, target, fsType: 'none', options: ['bind', 'nodev', ...rootOptions] });
    view.addLayer({ containerPath: target, source, create: 'source', description: target });
  }

  const volumeTargets = new Set<string>();
  const volumes = [...input.volumes].sort((a, b) => depth(a.mountPath) - depth(b.mountPath));
  for (const volume of volumes) {
    if (!isAbsolute(volume.mountPath) || posix.normalize(volume.mountPath) === '/') {
      throw new SandboxSpecError('CreateContainerConfigError', `volumeMounts.mountPath: Invalid value: "${volume.mountPath}": must be an absolute path other than /`);
    }
    if (!isAbsolute(volume.hostPath)) throw new SandboxSpecError('CreateContainerConfigError', `hostPath: Invalid value: "${volume.hostPath}": must be an absolute path`);
    const stats = await stat(volume.hostPath).catch(() => undefined);
    if (stats === undefined) throw new SandboxSpecError('CreateContainerError', `hostPath ${volume.hostPath} for the volume at ${volume.mountPath} does not exist`);
    const target = await view.ensureMountPoint(volume.mountPath, stats.isDirectory() ? 'dir' : 'file');
    mounts.push({ source: volume.hostPath, target, fsType: 'none', options: ['bind', ...(volume.readOnly ? ['ro'] : []), ...writableOptions] });
    view.addLayer({ containerPath: target, source: volume.hostPath, create: 'source', description: `the volume at ${target}` });
    volumeTargets.add(target);
  }

  // kubelet mounts /etc/hosts writable; containerd makes hostname and resolv.conf follow readOnlyRootFilesystem.
  const podFiles: [string, string, string[]][] = [
    ['/etc/hosts', input.podFiles.hosts, []],
    ['/etc/hostname', input.podFiles.hostname, rootOptions],
    ['/etc/resolv.conf', input.podFiles.resolvConf, rootOptions],
  ];
  for (const [path, source, options] of podFiles) {
    const target = await view.ensureMountPoint(path, 'file');
    if (volumeTargets.has(target)) continue;
    mounts.push({ source, target, fsType: 'none', options: ['bind', 'nodev', ...options] });
    view.addLayer({ containerPath: target, source, create: 'never', description: target });
  }

  const workingDir = await view.ensureMountPoint(input.workingDir, 'dir');
  return { mounts, view, workingDir };
}

function depth(path: string): number {
  return posix.normalize(path).split('/').filter((p) => p !== '').length;
}
