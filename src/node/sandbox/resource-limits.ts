// resources → cgroup settings, with kubelet's conversions (pkg/kubelet/cm: MilliCPUToQuota,
// MilliCPUToShares, CpuSharesToCpuWeight). A limit of 0 means "no limit", as containerd reads it.
import { parseBytes, parseMilliCpu } from './quantity.ts';
import type { ContainerSpec } from './types.ts';

const CPU_PERIOD_US = 100_000;
const MIN_QUOTA_US = 1_000;
const MIN_SHARES = 2;
const MAX_SHARES = 262_144;

export interface CgroupLimits {
  cpuQuotaUs?: number;
  cpuShares?: number;
  memoryBytes?: number;
}

export function limitsFor(container: ContainerSpec): CgroupLimits {
  const { limits = {}, requests = {} } = container.resources ?? {};
  const result: CgroupLimits = {};
  if (limits.cpu !== undefined) {
    const milli = parseMilliCpu('resources.limits.cpu', limits.cpu);
    if (milli > 0) result.cpuQuotaUs = Math.max(MIN_QUOTA_US, Math.floor((milli * CPU_PERIOD_US) / 1000));
  }
  // An unset request defaults to the limit, as API defaulting does.
  const requestText = requests.cpu ?? limits.cpu;
  if (requestText !== undefined) {
    const milli = parseMilliCpu('resources.requests.cpu', requestText);
    result.cpuShares = Math.min(MAX_SHARES, Math.max(MIN_SHARES, Math.floor((milli * 1024) / 1000)));
  }
  // Validated only: no cgroup knob takes a memory request.
  if (requests.memory !== undefined) parseBytes('resources.requests.memory', requests.memory);
  if (limits.memory !== undefined) {
    const bytes = parseBytes('resources.limits.memory', limits.memory);
    if (bytes > 0) result.memoryBytes = bytes;
  }
  return result;
}

export interface CgroupFileWrite {
  /** The controller whose hierarchy holds the file (v1); v2 has one hierarchy. */
  controller: 'cpu' | 'memory' | 'pids' | 'devices';
  file: string;
  value: string;
  /** Absent on older kernels; skipped then. */
  optional?: boolean;
}

/** The files to write in a container's cgroup for these limits. */
export function containerLimitWrites(version: 1 | 2, limits: CgroupLimits): CgroupFileWrite[] {
  const writes: CgroupFileWrite[] = [];
  if (version === 1) {
    if (limits.cpuQuotaUs !== undefined) {
      writes.push({ controller: 'cpu', file: 'cpu.cfs_period_us', value: String(CPU_PERIOD_US) });
      writes.push({ controller: 'cpu', file: 'cpu.cfs_quota_us', value: String(limits.cpuQuotaUs) });
    }
    if (limits.cpuShares !== undefined) writes.push({ controller: 'cpu', file: 'cpu.shares', value: String(limits.cpuShares) });
    if (limits.memoryBytes !== undefined) writes.push({ controller: 'memory', file: 'memory.limit_in_bytes', value: String(limits.memoryBytes) });
    return writes;
  }
  if (limits.cpuQuotaUs !== undefined) writes.push({ controller: 'cpu', file: 'cpu.max', value: `${limits.cpuQuotaUs} ${CPU_PERIOD_US}` });
  if (limits.cpuShares !== undefined) {
    const weight = Math.floor(((limits.cpuShares - MIN_SHARES) * 9999) / (MAX_SHARES - MIN_SHARES)) + 1;
    writes.push({ controller: 'cpu', file: 'cpu.weight', value: String(weight) });
  }
  if (limits.memoryBytes !== undefined) writes.push({ controller: 'memory', file: 'memory.max', value: String(limits.memoryBytes) });
  // An OOM kill takes the whole container, as kubelet asks of v2.
  writes.push({ controller: 'memory', file: 'memory.oom.group', value: '1', optional: true });
  return writes;
}

/** A pids limit: a pod's (kubelet's podPidsLimit), a guard against fork bombs, or all pods' together. */
export function podPidsWrite(pidsLimit: number): CgroupFileWrite {
  return { controller: 'pids', file: 'pids.max', value: String(pidsLimit) };
}

/** How many times the kernel's OOM killer struck in a container's cgroup (v1 memory.oom_control, v2 memory.events). */
export function parseOomKills(text: string): number {
  const match = /^oom_kill (\d+)$/m.exec(text);
  return match ? Number(match[1]) : 0;
}

export function oomCounterFile(version: 1 | 2): string {
  return version === 1 ? 'memory.oom_control' : 'memory.events';
}
