// The OCI runtime spec (config.json) for one container, as containerd's CRI plugin writes it for a pod's
// container (pkg/cri/opts/spec_linux.go and runc's defaults): the image's rootfs, the pod's namespaces joined by
// path, the container's own mount/PID namespaces, its cgroup and limits, its user and capabilities.
// Pure: everything the spec says comes from the input, so a table test pins it.

/** The process the container runs, already resolved (command over Entrypoint, env over the image's Env …). */
export interface OciProcess {
  argv: string[];
  /** KEY=value, in order. */
  env: string[];
  cwd: string;
  uid: number;
  gid: number;
  additionalGids?: number[];
  terminal?: boolean;
  /** Bounding-set names without CAP_ (capabilities.ts boundingSet). Root gets them effective; others only bounded. */
  capabilities: string[];
  noNewPrivileges: boolean;
}

export interface BindMount {
  source: string;
  destination: string;
  readOnly?: boolean;
}

export interface OciLimits {
  memoryBytes?: number;
  /** CFS quota and period in microseconds (limits.cpu). */
  cpuQuota?: number;
  cpuPeriod?: number;
  /** cpu.shares from requests.cpu. */
  cpuShares?: number;
  pids?: number;
}

export interface OciSpecInput {
  process: OciProcess;
  hostname: string;
  rootfs: string;
  readonlyRootfs?: boolean;
  mounts: BindMount[];
  /** The pod's network namespace file, or the host's network. */
  network: { path: string } | 'host';
  /** The pod's IPC and UTS namespace files when the pod pins them; otherwise the container gets new ones. */
  ipcPath?: string;
  utsPath?: string;
  /** false: the host's PID namespace (hostPID). */
  pidNamespace: boolean;
  /** cgroupfs path relative to each hierarchy's root, e.g. /bosun-ab12/pod<uid>/<container>. */
  cgroupsPath: string;
  limits: OciLimits;
  privileged?: boolean;
  /** hostUsers: false — the container's 0..size-1 map to host ids from hostId. */
  userNamespace?: { hostId: number; size: number };
}

export interface OciSpec {
  ociVersion: string;
  process: Record<string, unknown>;
  root: { path: string; readonly: boolean };
  /** Absent when the container joins the pod's UTS namespace: runc sets no hostname there. */
  hostname?: string;
  mounts: Record<string, unknown>[];
  linux: Record<string, unknown>;
}

/** runc's and containerd's defaults: paths an unprivileged container must not read or write. */
export const MASKED_PATHS = ['/proc/acpi', '/proc/asound', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list', '/proc/timer_stats', '/proc/sched_debug', '/proc/scsi', '/sys/firmware'];
export const READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];

/** The character devices every container gets (containerd's default device allow-list). */
const DEFAULT_DEVICE_RULES = [
  { allow: false, access: 'rwm' },
  ...[
    [1, 3], // null
    [1, 5], // zero
    [1, 7], // full
    [1, 8], // random
    [1, 9], // urandom
    [5, 0], // tty
    [5, 1], // console
    [5, 2], // ptmx
  ].map(([major, minor]) => ({ allow: true, type: 'c', major, minor, access: 'rwm' })),
  { allow: true, type: 'c', major: 136, access: 'rwm' }, // pts
];

function baseMounts(privileged: boolean): Record<string, unknown>[] {
  return [
    { destination: '/proc', type: 'proc', source: 'proc', options: ['nosuid', 'noexec', 'nodev'] },
    { destination: '/dev', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'strictatime', 'mode=755', 'size=65536k'] },
    { destination: '/dev/pts', type: 'devpts', source: 'devpts', options: ['nosuid', 'noexec', 'newinstance', 'ptmxmode=0666', 'mode=0620', 'gid=5'] },
    { destination: '/dev/shm', type: 'tmpfs', source: 'shm', options: ['nosuid', 'noexec', 'nodev', 'mode=1777', 'size=65536k'] },
    { destination: '/dev/mqueue', type: 'mqueue', source: 'mqueue', options: ['nosuid', 'noexec', 'nodev'] },
    { destination: '/sys', type: 'sysfs', source: 'sysfs', options: ['nosuid', 'noexec', 'nodev', privileged ? 'rw' : 'ro'] },
    { destination: '/sys/fs/cgroup', type: 'cgroup', source: 'cgroup', options: ['nosuid', 'noexec', 'nodev', 'relatime', privileged ? 'rw' : 'ro'] },
  ];
}

function bind({ source, destination, readOnly }: BindMount): Record<string, unknown> {
  return { destination, type: 'bind', source, options: ['rbind', 'rprivate', readOnly === true ? 'ro' : 'rw'] };
}

function namespaces(input: OciSpecInput): Record<string, unknown>[] {
  const result: Record<string, unknown>[] = [{ type: 'mount' }];
  if (input.pidNamespace) result.push({ type: 'pid' });
  result.push(input.ipcPath !== undefined ? { type: 'ipc', path: input.ipcPath } : { type: 'ipc' });
  result.push(input.utsPath !== undefined ? { type: 'uts', path: input.utsPath } : { type: 'uts' });
  if (input.network !== 'host') result.push({ type: 'network', path: input.network.path });
  if (input.userNamespace !== undefined) result.push({ type: 'user' });
  return result;
}

function resources(limits: OciLimits, privileged: boolean): Record<string, unknown> {
  const result: Record<string, unknown> = { devices: privileged ? [{ allow: true, access: 'rwm' }] : DEFAULT_DEVICE_RULES };
  if (limits.memoryBytes !== undefined) result['memory'] = { limit: limits.memoryBytes };
  const cpu: Record<string, number> = {};
  if (limits.cpuShares !== undefined) cpu['shares'] = limits.cpuShares;
  if (limits.cpuQuota !== undefined) cpu['quota'] = limits.cpuQuota;
  if (limits.cpuPeriod !== undefined) cpu['period'] = limits.cpuPeriod;
  if (Object.keys(cpu).length > 0) result['cpu'] = cpu;
  if (limits.pids !== undefined) result['pids'] = { limit: limits.pids };
  return result;
}

export function buildRuntimeSpec(input: OciSpecInput): OciSpec {
  const privileged = input.privileged === true;
  const { process } = input;
  const caps = process.capabilities.map((c) => `CAP_${c}`);
  // As containerd: a non-root process keeps the bounding set but no effective or permitted capabilities.
  const held = process.uid === 0 ? caps : [];
  const linux: Record<string, unknown> = {
    namespaces: namespaces(input),
    cgroupsPath: input.cgroupsPath,
    resources: resources(input.limits, privileged),
  };
  if (!privileged) {
    linux['maskedPaths'] = MASKED_PATHS;
    linux['readonlyPaths'] = READONLY_PATHS;
  }
  if (input.userNamespace !== undefined) {
    const { hostId, size } = input.userNamespace;
    linux['uidMappings'] = [{ containerID: 0, hostID: hostId, size }];
    linux['gidMappings'] = [{ containerID: 0, hostID: hostId, size }];
  }
  return {
    ociVersion: '1.0.2',
    process: {
      terminal: process.terminal === true,
      user: { uid: process.uid, gid: process.gid, ...(process.additionalGids?.length ? { additionalGids: process.additionalGids } : {}) },
      args: process.argv,
      env: process.env,
      cwd: process.cwd,
      capabilities: { bounding: caps, effective: held, permitted: held, inheritable: [], ambient: [] },
      noNewPrivileges: process.noNewPrivileges,
    },
    root: { path: input.rootfs, readonly: input.readonlyRootfs === true },
    ...(input.utsPath === undefined ? { hostname: input.hostname } : {}),
    mounts: [...baseMounts(privileged), ...input.mounts.map(bind)],
    linux,
  };
}
