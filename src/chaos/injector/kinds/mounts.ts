// Where the chaos pod sees the host (upstream's CHAOS_INJECTOR_MOUNT_* variables, set by the controller on the
// chaos pod). When unset the injector is taken to run on the host itself (`bosun inject` from a shell).

export function hostRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env['CHAOS_INJECTOR_MOUNT_HOST'] ?? '/';
}

export function cgroupRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env['CHAOS_INJECTOR_MOUNT_CGROUP'] ?? '/sys/fs/cgroup/';
}

export function sysrqPath(env: NodeJS.ProcessEnv = process.env): string {
  return env['CHAOS_INJECTOR_MOUNT_SYSRQ'] ?? '/proc/sys/kernel/sysrq';
}

export function sysrqTriggerPath(env: NodeJS.ProcessEnv = process.env): string {
  return env['CHAOS_INJECTOR_MOUNT_SYSRQ_TRIGGER'] ?? '/proc/sysrq-trigger';
}

/** A privileged chaos pod shares the host's PIDs, so a target's namespaces and root are under /proc. */
export const procPath = (pid: number, rest: string): string => `/proc/${pid}/${rest.replace(/^\/+/, '')}`;
