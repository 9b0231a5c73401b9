// One cgroup's CPU and memory counters, as cAdvisor reads them for kubelet's Summary API: cumulative CPU time,
// memory usage, working set (usage less inactive file pages, which the kernel reclaims first) and RSS.
import { readKernelFile } from '../sandbox/kernel-file.ts';
import { join } from 'node:path';

export interface CgroupUsage {
  /** Cumulative CPU time in nanoseconds. */
  cpuNanoSeconds: number;
  memoryUsageBytes: number;
  memoryWorkingSetBytes: number;
  memoryRssBytes: number;
}

/** The cgroup directories that hold the counters: the cpuacct and memory ones (v1), or the one unified directory (v2). */
export interface UsageDirs {
  version: 1 | 2;
  cpu: string;
  memory: string;
}

function statFields(text: string): Map<string, number> {
  return new Map(
    text
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((parts) => parts.length === 2)
      .map(([key, value]) => [key as string, Number(value)]),
  );
}

async function readNumber(path: string): Promise<number> {
  return Number((await readKernelFile(path)).trim());
}

/** Reads the counters; undefined when the cgroup is gone (a pod deleted while it is read). */
export async function readCgroupUsage(dirs: UsageDirs): Promise<CgroupUsage | undefined> {
  try {
    const memoryStat = statFields(await readKernelFile(join(dirs.memory, 'memory.stat')));
    if (dirs.version === 1) {
      const usage = await readNumber(join(dirs.memory, 'memory.usage_in_bytes'));
      const inactiveFile = memoryStat.get('total_inactive_file') ?? 0;
      return {
        cpuNanoSeconds: await readNumber(join(dirs.cpu, 'cpuacct.usage')),
        memoryUsageBytes: usage,
        memoryWorkingSetBytes: Math.max(0, usage - inactiveFile),
        memoryRssBytes: memoryStat.get('total_rss') ?? 0,
      };
    }
    const usage = await readNumber(join(dirs.memory, 'memory.current'));
    const cpuStat = statFields(await readKernelFile(join(dirs.cpu, 'cpu.stat')));
    return {
      cpuNanoSeconds: (cpuStat.get('usage_usec') ?? 0) * 1000,
      memoryUsageBytes: usage,
      memoryWorkingSetBytes: Math.max(0, usage - (memoryStat.get('inactive_file') ?? 0)),
      memoryRssBytes: memoryStat.get('anon') ?? 0,
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENODEV') return undefined;
    throw error;
  }
}
