// The host's own readings, as kubelet takes them for the node in its Summary API and for its eviction signals:
// CPU time from /proc/stat, memory from /proc/meminfo, the node's filesystem (the one holding its data
// directory) from statfs, and the process count against kernel.pid_max.
import { readdir, statfs } from 'node:fs/promises';
import { readKernelFile } from '../sandbox/kernel-file.ts';

// /proc/stat counts in USER_HZ, 100 on every Linux architecture kubelet supports.
const NANOSECONDS_PER_TICK = 10_000_000;

export interface NodeUsage {
  cpuNanoSeconds: number;
  memoryTotalBytes: number;
  memoryAvailableBytes: number;
  memoryUsageBytes: number;
  memoryWorkingSetBytes: number;
  fsCapacityBytes: number;
  fsAvailableBytes: number;
  fsInodes: number;
  fsInodesFree: number;
  maxPids: number;
  runningPids: number;
}

/** Busy CPU time: every column of the aggregate line but idle and iowait. */
export function parseProcStatCpu(text: string): number {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (line === undefined) throw new Error('/proc/stat has no aggregate cpu line');
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return (ticks.reduce((sum, t) => sum + t, 0) - idle) * NANOSECONDS_PER_TICK;
}

/** /proc/meminfo's kB fields, in bytes. */
export function parseMeminfo(text: string): Map<string, number> {
  const fields = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\w+):\s+(\d+)(?:\s+kB)?$/.exec(line.trim());
    if (match) fields.set(match[1] as string, Number(match[2]) * (line.includes('kB') ? 1024 : 1));
  }
  return fields;
}

export async function readNodeUsage(fsPath: string): Promise<NodeUsage> {
  const [stat, meminfoText, fs, pidMax, proc] = await Promise.all([readKernelFile('/proc/stat'), readKernelFile('/proc/meminfo'), statfs(fsPath), readKernelFile('/proc/sys/kernel/pid_max'), readdir('/proc')]);
  const meminfo = parseMeminfo(meminfoText);
  const total = meminfo.get('MemTotal') ?? 0;
  const available = meminfo.get('MemAvailable') ?? meminfo.get('MemFree') ?? 0;
  return {
    cpuNanoSeconds: parseProcStatCpu(stat),
    memoryTotalBytes: total,
    memoryAvailableBytes: available,
    memoryUsageBytes: total - (meminfo.get('MemFree') ?? 0),
    memoryWorkingSetBytes: total - available,
    fsCapacityBytes: fs.blocks * fs.bsize,
    fsAvailableBytes: fs.bavail * fs.bsize,
    fsInodes: fs.files,
    fsInodesFree: fs.ffree,
    maxPids: Number(pidMax.trim()),
    runningPids: proc.filter((name) => /^\d+$/.test(name)).length,
  };
}
