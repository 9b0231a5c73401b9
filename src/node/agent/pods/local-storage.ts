// kubelet's local storage eviction (pkg/kubelet/eviction, localStorageEviction): a pod whose disk-backed
// emptyDir outgrows its sizeLimit, whose containers together outgrow the sum of their ephemeral-storage
// limits, or one of whose containers outgrows its own, is evicted: its containers killed, phase Failed,
// reason Evicted, kubelet's message. A memory-backed emptyDir needs none of this: it is a tmpfs of sizeLimit.
//
// Disk usage has no event: inotify says that a file changed, not how much space a tree holds, and would need a
// watch per directory a container makes. So usage is measured as kubelet's eviction manager measures it, every
// interval (kubelet: 10 s), walking the trees without crossing mount points (du -x). A container's usage is
// its writable layer (the sandbox's scratch directory: /tmp, /var/tmp, /run, /root); logs are not counted.
import { lstat, opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { containerRunPath } from '../../sandbox/run-dir.ts';
import { parseBytes } from '../../sandbox/quantity.ts';
import type { Pod } from '../../../apimachinery/api/index.ts';

export const EVICTED_REASON = 'Evicted';
const EPHEMERAL_STORAGE = 'ephemeral-storage';

interface Limit {
  bytes: number;
  /** As the spec wrote it, for the message. */
  text: string;
}

export interface LocalStorageLimits {
  emptyDirs: { name: string; path: string; limit: Limit }[];
  containers: { name: string; path: string; limit: Limit | undefined }[];
  /** The sum of the containers' limits, when any container has one. */
  pod: Limit | undefined;
}

/** Binary suffixes when the sum is a whole number of them, as Quantity prints a sum of binary quantities. */
function formatBytes(bytes: number): string {
  for (const [suffix, factor] of [['Ti', 2 ** 40], ['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]] as const) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${suffix}`;
  }
  return String(bytes);
}

/** The limits kubelet enforces on this pod, or undefined when it has none. */
export function localStorageLimits(pod: Pod, podDir: string, volumePaths: ReadonlyMap<string, string>): LocalStorageLimits | undefined {
  const emptyDirs = (pod.spec.volumes ?? []).flatMap((volume) => {
    const source = volume.emptyDir;
    const path = volumePaths.get(volume.name);
    if (source?.sizeLimit === undefined || source.medium === 'Memory' || path === undefined) return [];
    const bytes = parseBytes(`volume ${volume.name} sizeLimit`, source.sizeLimit);
    return bytes > 0 ? [{ name: volume.name, path, limit: { bytes, text: source.sizeLimit } }] : [];
  });
  const containers = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].map((container) => {
    const text = container.resources?.limits?.[EPHEMERAL_STORAGE];
    const bytes = text === undefined ? 0 : parseBytes(`resources.limits.${EPHEMERAL_STORAGE}`, text);
    return { name: container.name, path: join(containerRunPath(podDir, container.name), 'scratch'), limit: text !== undefined && bytes > 0 ? { bytes, text } : undefined };
  });
  const limited = pod.spec.containers.flatMap((c) => containers.find((x) => x.name === c.name)?.limit ?? []);
  const podLimit = limited.length === 0 ? undefined : limited.length === 1 ? limited[0] : { bytes: limited.reduce((sum, l) => sum + l.bytes, 0), text: formatBytes(limited.reduce((sum, l) => sum + l.bytes, 0)) };
  if (emptyDirs.length === 0 && podLimit === undefined) return undefined;
  return { emptyDirs, containers, pod: podLimit };
}

/** Bytes the tree at path holds on its filesystem (du -x): allocated blocks, not apparent sizes. */
export async function diskUsage(path: string): Promise<number> {
  let root;
  try {
    root = await lstat(path);
  } catch {
    return 0;
  }
  const walk = async (dir: string): Promise<number> => {
    let total = 0;
    let entries;
    try {
      entries = await opendir(dir);
    } catch {
      return 0;
    }
    for await (const entry of entries) {
      const child = join(dir, entry.name);
      // A file removed while it is read is simply no longer counted.
      const stats = await lstat(child).catch(() => undefined);
      if (stats === undefined || stats.dev !== root.dev) continue;
      total += stats.blocks * 512;
      if (stats.isDirectory()) total += await walk(child);
    }
    return total;
  };
  return root.blocks * 512 + (root.isDirectory() ? await walk(path) : 0);
}

/** kubelet's eviction message for the first limit exceeded (its order: emptyDir, pod, container), if any. */
export async function localStorageViolation(limits: LocalStorageLimits): Promise<string | undefined> {
  const [emptyDirUsage, containerUsage] = await Promise.all([Promise.all(limits.emptyDirs.map((v) => diskUsage(v.path))), Promise.all(limits.containers.map((c) => diskUsage(c.path)))]);
  for (const [i, volume] of limits.emptyDirs.entries()) {
    if ((emptyDirUsage[i] ?? 0) > volume.limit.bytes) return `Usage of EmptyDir volume ${JSON.stringify(volume.name)} exceeds the limit ${JSON.stringify(volume.limit.text)}. `;
  }
  const podUsage = [...emptyDirUsage, ...containerUsage].reduce((sum, bytes) => sum + bytes, 0);
  if (limits.pod !== undefined && podUsage > limits.pod.bytes) return `Pod ephemeral local storage usage exceeds the total limit of containers ${limits.pod.text}. `;
  for (const [i, container] of limits.containers.entries()) {
    if (container.limit !== undefined && (containerUsage[i] ?? 0) > container.limit.bytes) {
      return `Container ${container.name} exceeded its local ephemeral storage limit ${JSON.stringify(container.limit.text)}. `;
    }
  }
  return undefined;
}

/**
 * Measures every intervalMs until stopped, and calls evict once with the message of the first violation.
 * A measurement that fails (the pod's directory going away) is skipped.
 */
export class LocalStorageMonitor {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly limits: LocalStorageLimits,
    private readonly intervalMs: number,
    private readonly evict: (message: string) => void,
  ) {}

  start(): void {
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.check(), this.intervalMs);
  }

  private async check(): Promise<void> {
    const message = await localStorageViolation(this.limits).catch(() => undefined);
    if (this.stopped) return;
    if (message === undefined) {
      this.schedule();
      return;
    }
    this.stopped = true;
    this.evict(message);
  }
}
