// Reading a target container's cgroup (v1 or v2, paths from the node runtime) for what the pressure kinds
// need: how much CPU it may use, its memory limit and usage, and where a stress child writes its PID to join it.
import { availableParallelism } from 'node:os';
import type { RuntimeContainer } from '../../client/node-runtime/protocol.ts';
import type { HostReads } from './host/host-reads.ts';
import { CgroupError } from './errors.ts';

/** v1 reports "no limit" as a huge page-rounded number; upstream treats anything from 4 PiB up as unlimited. */
export const V1_UNLIMITED_MEMORY = 4 * 1024 ** 5;

/** How many CPUs a cpuset list such as `0-3,6` names. */
export function countCpuList(list: string): number {
  return list
    .trim()
    .split(',')
    .filter((part) => part !== '')
    .reduce((count, part) => {
      const [from, to] = part.split('-').map(Number);
      return count + (to === undefined ? 1 : to - (from ?? to) + 1);
    }, 0);
}

async function readTrimmed(reads: HostReads, path: string): Promise<string | undefined> {
  if (!(await reads.exists(path))) return undefined;
  return (await reads.readFile(path)).trim();
}

export interface CpuCapacity {
  /** CPUs of the cpuset (the whole machine when the cgroup has no cpuset). */
  cpusetCpus: number;
  /** quota/period, when a quota is set. */
  quotaCpus?: number;
  /** What the container can actually use: min of the two. */
  capacity: number;
}

/**
 * The CPU the target can use. Upstream burns N% of every cpuset CPU and leaves the quota to throttle it, so with
 * a quota smaller than the cpuset "50%" means whatever the quota lets through; Bosun takes the smaller of the two
 * as the capacity the percentage is of (docs/chaos.md, "The injector").
 */
export async function readCpuCapacity(container: RuntimeContainer | undefined, reads: HostReads): Promise<CpuCapacity> {
  const machine = availableParallelism();
  if (!container) return { cpusetCpus: machine, capacity: machine };
  let cpusetText: string | undefined;
  let quota: number | undefined;
  let period: number | undefined;
  if (container.cgroupVersion === 2) {
    const dir = container.cgroups['unified'];
    if (dir) {
      cpusetText = await readTrimmed(reads, `${dir}/cpuset.cpus.effective`);
      const max = await readTrimmed(reads, `${dir}/cpu.max`);
      const [q, p] = (max ?? 'max').split(/\s+/);
      if (q !== 'max' && q !== undefined) [quota, period] = [Number(q), Number(p ?? 100000)];
    }
  } else {
    const cpuset = container.cgroups['cpuset'];
    if (cpuset) cpusetText = await readTrimmed(reads, `${cpuset}/cpuset.effective_cpus`);
    const cpu = container.cgroups['cpu'];
    if (cpu) {
      const q = await readTrimmed(reads, `${cpu}/cpu.cfs_quota_us`);
      const p = await readTrimmed(reads, `${cpu}/cpu.cfs_period_us`);
      if (q !== undefined && Number(q) > 0) [quota, period] = [Number(q), Number(p ?? 100000)];
    }
  }
  const cpusetCpus = cpusetText ? countCpuList(cpusetText) || machine : machine;
  const quotaCpus = quota !== undefined && period ? quota / period : undefined;
  return { cpusetCpus, ...(quotaCpus !== undefined ? { quotaCpus } : {}), capacity: Math.min(cpusetCpus, quotaCpus ?? Infinity) };
}

/** The directory of the container's memory controller and its file names for the cgroup version. */
export function memoryCgroup(container: RuntimeContainer): { dir: string; limitFile: string; usageFile: string } {
  const v2 = container.cgroupVersion === 2;
  const dir = v2 ? container.cgroups['unified'] : container.cgroups['memory'];
  if (!dir) throw new CgroupError(`container ${container.container} (${container.id}) has no memory cgroup`);
  return v2 ? { dir, limitFile: `${dir}/memory.max`, usageFile: `${dir}/memory.current` } : { dir, limitFile: `${dir}/memory.limit_in_bytes`, usageFile: `${dir}/memory.usage_in_bytes` };
}

/** The limit in bytes; a CgroupError when there is none (memory pressure is a share of the limit). */
export function parseMemoryLimit(text: string, file: string): number {
  const value = text.trim();
  const bytes = value === 'max' ? Infinity : Number(value);
  if (!Number.isFinite(bytes) || bytes >= V1_UNLIMITED_MEMORY) throw new CgroupError(`${file} is ${value}: the target has no memory limit, so there is no share of it to fill`);
  if (!(bytes > 0)) throw new CgroupError(`${file} is ${JSON.stringify(value)}, not a memory limit`);
  return bytes;
}

/** The distinct cgroup directories of the container (every controller's; v2: the one). */
export function cgroupDirs(container: RuntimeContainer): string[] {
  return [...new Set(Object.values(container.cgroups))];
}
