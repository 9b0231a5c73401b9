// kubelet's Summary API (/stats/summary, stats/v1alpha1) from the node's own readings and its pods' cgroups:
// what metrics-server turns into NodeMetrics and PodMetrics. CPU rates (usageNanoCores) come from two readings
// of the cumulative counters: the last one kept per cgroup, taken when the summary was last asked for. The
// first request, with nothing kept, reads twice a second apart; later ones use the kept reading once it is
// at least a second old (metrics-server asks every 15 s, so its window is its scrape interval).
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { subdirectories } from '../sandbox/cgroup-tree.ts';
import { readCgroupUsage, type CgroupUsage, type UsageDirs } from './cgroup-usage.ts';
import { readNodeUsage, type NodeUsage } from './node-usage.ts';

const MIN_WINDOW_MS = 1000;
const POD_PREFIX = 'pod';

export interface CpuStats {
  time: string;
  usageNanoCores: number;
  usageCoreNanoSeconds: number;
}

export interface MemoryStats {
  time: string;
  availableBytes?: number;
  usageBytes: number;
  workingSetBytes: number;
  rssBytes: number;
}

export interface ContainerStats {
  name: string;
  startTime: string;
  cpu: CpuStats;
  memory: MemoryStats;
}

export interface PodStats {
  podRef: { name: string; namespace: string; uid: string };
  startTime: string;
  containers: ContainerStats[];
  cpu: CpuStats;
  memory: MemoryStats;
}

export interface Summary {
  node: {
    nodeName: string;
    startTime: string;
    cpu: CpuStats;
    memory: MemoryStats;
    fs: { time: string; availableBytes: number; capacityBytes: number; usedBytes: number; inodesFree: number; inodes: number };
    rlimit: { time: string; maxpid: number; curproc: number };
  };
  pods: PodStats[];
}

/** Where the pods' cgroups are: the cpuacct and memory roots (v1) or the one unified root (v2). */
export interface PodCgroupRoots {
  version: 1 | 2;
  cpu: string;
  memory: string;
}

export interface SummarySource {
  nodeName: string;
  /** The node's filesystem: the one holding this path (the node's data directory). */
  fsPath: string;
  /** The trees pods' cgroups are in (the host sandbox's, the image containers'): a pod's usage is its sum over them. */
  roots: PodCgroupRoots[];
  /** The pod a cgroup's uid belongs to; cgroups of pods the agent does not know (yet, or any more) are left out. */
  podByUid(uid: string): { namespace: string; name: string } | undefined;
  now?: () => Date;
}

interface Sample {
  atMs: number;
  cpuNanoSeconds: number;
}

interface Reading {
  atMs: number;
  node: NodeUsage;
  /** Keyed by pod uid, and `uid/container`. */
  cgroups: Map<string, CgroupUsage>;
  /** pod uid → its containers' names. */
  pods: Map<string, string[]>;
}

function addUsage(a: CgroupUsage, b: CgroupUsage): CgroupUsage {
  return {
    cpuNanoSeconds: a.cpuNanoSeconds + b.cpuNanoSeconds,
    memoryUsageBytes: a.memoryUsageBytes + b.memoryUsageBytes,
    memoryWorkingSetBytes: a.memoryWorkingSetBytes + b.memoryWorkingSetBytes,
    memoryRssBytes: a.memoryRssBytes + b.memoryRssBytes,
  };
}

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

export class StatsSummary {
  private readonly kept = new Map<string, Sample>();
  private readonly startedMs: number;

  constructor(private readonly source: SummarySource) {
    this.startedMs = this.nowMs();
  }

  private nowMs(): number {
    return (this.source.now ?? (() => new Date()))().getTime();
  }

  private async read(): Promise<Reading> {
    const atMs = this.nowMs();
    const node = await readNodeUsage(this.source.fsPath);
    const cgroups = new Map<string, CgroupUsage>();
    const pods = new Map<string, string[]>();
    for (const { version, cpu, memory } of this.source.roots) {
      const dirs = (...path: string[]): UsageDirs => ({ version, cpu: join(cpu, ...path), memory: join(memory, ...path) });
      for (const podDir of (await subdirectories(memory)).filter((name) => name.startsWith(POD_PREFIX))) {
        const uid = podDir.slice(POD_PREFIX.length);
        const pod = await readCgroupUsage(dirs(podDir));
        if (pod === undefined) continue;
        const before = cgroups.get(uid);
        cgroups.set(uid, before === undefined ? pod : addUsage(before, pod));
        const names = pods.get(uid) ?? [];
        for (const container of await subdirectories(join(memory, podDir))) {
          const usage = await readCgroupUsage(dirs(podDir, container));
          if (usage === undefined) continue;
          cgroups.set(`${uid}/${container}`, usage);
          names.push(container);
        }
        pods.set(uid, names.sort());
      }
    }
    return { atMs, node, cgroups, pods };
  }

  /** The rate since the kept reading of key, keeping this one when the kept one is old enough. */
  private cpu(key: string, atMs: number, cpuNanoSeconds: number): CpuStats {
    const kept = this.kept.get(key);
    const windowMs = kept === undefined ? 0 : atMs - kept.atMs;
    const usageNanoCores = kept === undefined || windowMs <= 0 ? 0 : Math.max(0, Math.round(((cpuNanoSeconds - kept.cpuNanoSeconds) / windowMs) * 1e3));
    if (kept === undefined || windowMs >= MIN_WINDOW_MS) this.kept.set(key, { atMs, cpuNanoSeconds });
    return { time: rfc3339(atMs), usageNanoCores, usageCoreNanoSeconds: cpuNanoSeconds };
  }

  private memory(atMs: number, usage: CgroupUsage): MemoryStats {
    return { time: rfc3339(atMs), usageBytes: usage.memoryUsageBytes, workingSetBytes: usage.memoryWorkingSetBytes, rssBytes: usage.memoryRssBytes };
  }

  async summary(): Promise<Summary> {
    let reading = await this.read();
    const unsampled = ['node', ...reading.cgroups.keys()].some((key) => !this.kept.has(key));
    if (unsampled) {
      // The first reading of a cgroup only starts its window.
      for (const [key, usage] of [['node', reading.node] as const, ...reading.cgroups]) this.cpu(key, reading.atMs, usage.cpuNanoSeconds);
      await sleep(MIN_WINDOW_MS);
      reading = await this.read();
    }
    const { atMs, node } = reading;
    const time = rfc3339(atMs);
    // Keys that no longer have a cgroup (pods gone) are forgotten.
    for (const key of this.kept.keys()) if (key !== 'node' && !reading.cgroups.has(key)) this.kept.delete(key);
    const pods: PodStats[] = [];
    for (const [uid, containers] of reading.pods) {
      const pod = this.source.podByUid(uid);
      const usage = reading.cgroups.get(uid);
      if (pod === undefined || usage === undefined) continue;
      pods.push({
        podRef: { name: pod.name, namespace: pod.namespace, uid },
        startTime: rfc3339(this.startedMs),
        containers: containers.flatMap((name) => {
          const own = reading.cgroups.get(`${uid}/${name}`);
          return own === undefined ? [] : [{ name, startTime: rfc3339(this.startedMs), cpu: this.cpu(`${uid}/${name}`, atMs, own.cpuNanoSeconds), memory: this.memory(atMs, own) }];
        }),
        cpu: this.cpu(uid, atMs, usage.cpuNanoSeconds),
        memory: this.memory(atMs, usage),
      });
    }
    return {
      node: {
        nodeName: this.source.nodeName,
        startTime: rfc3339(this.startedMs),
        cpu: this.cpu('node', atMs, node.cpuNanoSeconds),
        memory: { time, availableBytes: node.memoryAvailableBytes, usageBytes: node.memoryUsageBytes, workingSetBytes: node.memoryWorkingSetBytes, rssBytes: node.memoryWorkingSetBytes },
        fs: { time, availableBytes: node.fsAvailableBytes, capacityBytes: node.fsCapacityBytes, usedBytes: node.fsCapacityBytes - node.fsAvailableBytes, inodesFree: node.fsInodesFree, inodes: node.fsInodes },
        rlimit: { time, maxpid: node.maxPids, curproc: node.runningPids },
      },
      pods,
    };
  }
}
