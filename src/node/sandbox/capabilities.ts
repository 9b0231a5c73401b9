// Linux capabilities as securityContext.capabilities names them, and the bounding set a container gets:
// containerd's default set, then add/drop applied in containerd's order (ALL first, then single names).
import { SandboxSpecError } from './errors.ts';

// Indexed by capability number (linux/capability.h).
const CAPABILITIES = [
  'CHOWN', 'DAC_OVERRIDE', 'DAC_READ_SEARCH', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID', 'SETPCAP',
  'LINUX_IMMUTABLE', 'NET_BIND_SERVICE', 'NET_BROADCAST', 'NET_ADMIN', 'NET_RAW', 'IPC_LOCK', 'IPC_OWNER',
  'SYS_MODULE', 'SYS_RAWIO', 'SYS_CHROOT', 'SYS_PTRACE', 'SYS_PACCT', 'SYS_ADMIN', 'SYS_BOOT', 'SYS_NICE',
  'SYS_RESOURCE', 'SYS_TIME', 'SYS_TTY_CONFIG', 'MKNOD', 'LEASE', 'AUDIT_WRITE', 'AUDIT_CONTROL', 'SETFCAP',
  'MAC_OVERRIDE', 'MAC_ADMIN', 'SYSLOG', 'WAKE_ALARM', 'BLOCK_SUSPEND', 'AUDIT_READ', 'PERFMON', 'BPF',
  'CHECKPOINT_RESTORE',
] as const;

export const DEFAULT_CAPABILITIES = [
  'CHOWN', 'DAC_OVERRIDE', 'FSETID', 'FOWNER', 'MKNOD', 'NET_RAW', 'SETGID', 'SETUID', 'SETFCAP', 'SETPCAP',
  'NET_BIND_SERVICE', 'SYS_CHROOT', 'KILL', 'AUDIT_WRITE',
];

function canonical(name: string, lastCap: number): string {
  const bare = name.toUpperCase().replace(/^CAP_/, '');
  const index = CAPABILITIES.indexOf(bare as (typeof CAPABILITIES)[number]);
  if (index < 0 || index > lastCap) throw new SandboxSpecError('CreateContainerError', `unknown capability "${name}"`);
  return bare;
}

/** The capability names (upper case, no CAP_ prefix) left in the bounding set; lastCap is the kernel's highest. */
export function boundingSet(capabilities: { add?: string[]; drop?: string[] } | undefined, lastCap: number): string[] {
  const add = capabilities?.add ?? [];
  const drop = capabilities?.drop ?? [];
  const isAll = (name: string) => name.toUpperCase() === 'ALL';
  const set = new Set(DEFAULT_CAPABILITIES);
  if (add.some(isAll)) CAPABILITIES.slice(0, lastCap + 1).forEach((c) => set.add(c));
  if (drop.some(isAll)) set.clear();
  add.filter((c) => !isAll(c)).forEach((c) => set.add(canonical(c, lastCap)));
  drop.filter((c) => !isAll(c)).forEach((c) => set.delete(canonical(c, lastCap)));
  return CAPABILITIES.filter((c) => set.has(c));
}
