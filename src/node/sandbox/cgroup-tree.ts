// The sandbox's cgroups: <root>/pod<uid>/<container> in every managed hierarchy. Every process of a pod
// (the sandbox's own helpers included) lives in a container cgroup, so an agent that was killed finds
// what it started by listing the tree, and can kill it.
import { mkdir, readdir, rmdir, writeFile } from 'node:fs/promises';
import { readKernelFile } from './kernel-file.ts';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Backoff, realClock } from '../../runtime/index.ts';
import type { CgroupLayout, Hierarchy } from './cgroup-layout.ts';
import { deviceRuleWrites } from './device-rules.ts';
import { SandboxHostError } from './errors.ts';
import { containerLimitWrites, oomCounterFile, parseOomKills, podPidsWrite, type CgroupFileWrite, type CgroupLimits } from './resource-limits.ts';

const POD_PREFIX = 'pod';
// Killed processes leave their cgroup within milliseconds; this bounds a stuck kernel.
const EMPTY_TIMEOUT_MS = 10_000;

export interface ContainerProcesses {
  name: string;
  pids: number[];
}

export interface PodProcesses {
  podUid: string;
  containers: ContainerProcesses[];
  /** Every process in the pod's cgroups, in any hierarchy. */
  pids: number[];
}

function isErrno(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === code;
}

// A cgroup removed while it is read (a container's own cleanup racing a pod's) answers ENODEV.
function isGone(error: unknown): boolean {
  return isErrno(error, 'ENOENT') || isErrno(error, 'ENODEV');
}

export async function subdirectories(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch (error) {
    if (isGone(error)) return [];
    throw error;
  }
}

/** The processes in dir and its descendants. */
async function processesUnder(dir: string): Promise<number[]> {
  let own: number[];
  try {
    own = (await readKernelFile(join(dir, 'cgroup.procs'))).split('\n').filter((l) => l !== '').map(Number);
  } catch (error) {
    if (isGone(error)) return [];
    throw error;
  }
  const children = await Promise.all((await subdirectories(dir)).map((name) => processesUnder(join(dir, name))));
  return [...own, ...children.flat()];
}

async function processesIn(dirs: string[]): Promise<number[]> {
  return [...new Set((await Promise.all(dirs.map(processesUnder))).flat())].sort((a, b) => a - b);
}

/** Descendant cgroups first, so that each rmdir finds its directory empty. */
async function cgroupsDeepestFirst(dir: string): Promise<string[]> {
  const children = await Promise.all((await subdirectories(dir)).map((name) => cgroupsDeepestFirst(join(dir, name))));
  return [...children.flat(), dir];
}

/**
 * SIGKILLs every process in the given cgroups until none is left, then removes them. cgroup v1 offers no
 * event for "now empty", so this re-reads with exponential backoff (1 ms doubling to 100 ms).
 */
async function killAndRemove(dirs: string[]): Promise<void> {
  const backoff = new Backoff(realClock, { initialMs: 1, maxMs: 100, jitter: 0, resetAfterMs: Number.POSITIVE_INFINITY });
  const deadline = Date.now() + EMPTY_TIMEOUT_MS;
  for (;;) {
    const pids = await processesIn(dirs);
    if (pids.length === 0) break;
    if (Date.now() > deadline) throw new SandboxHostError(`processes ${pids.join(', ')} survive SIGKILL in ${dirs.join(', ')}`);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch (error) {
        if (!isErrno(error, 'ESRCH')) throw error;
      }
    }
    await sleep(backoff.next());
  }
  for (const dir of dirs) {
    for (const cgroup of await cgroupsDeepestFirst(dir)) {
      try {
        await rmdir(cgroup);
      } catch (error) {
        if (!isGone(error)) throw new SandboxHostError(`cannot remove cgroup ${cgroup}: ${(error as Error).message}`);
      }
    }
  }
}

async function writeCgroupFile(dir: string, write: Pick<CgroupFileWrite, 'file' | 'value' | 'optional'>): Promise<void> {
  try {
    await writeFile(join(dir, write.file), write.value);
  } catch (error) {
    if (write.optional && isErrno(error, 'ENOENT')) return;
    throw new SandboxHostError(`cannot set ${write.file}=${write.value} in ${dir}: ${(error as Error).message}`);
  }
}

/** One container's cgroups (a directory per hierarchy). */
export class ContainerCgroup {
  constructor(
    private readonly tree: CgroupTree,
    /** Indexed like the layout's hierarchies. */
    readonly dirs: string[],
  ) {}

  /** The cgroup.procs files a process writes its pid into to join. */
  get procsFiles(): string[] {
    return this.dirs.map((dir) => join(dir, 'cgroup.procs'));
  }

  /** Each hierarchy's mount point with this container's directory in it. */
  get placements(): { mountPoint: string; dir: string }[] {
    return this.tree.layout.hierarchies.map((h, i) => ({ mountPoint: h.mountPoint, dir: this.dirs[i] as string }));
  }

  dirFor(controller: string): string {
    return this.dirs[this.tree.hierarchyIndex(controller)] as string;
  }

  /** 0 when the cgroup is already gone (a pod destroyed from under its container). */
  async oomKills(): Promise<number> {
    try {
      return parseOomKills(await readKernelFile(join(this.dirFor('memory'), oomCounterFile(this.tree.layout.version))));
    } catch (error) {
      if (isGone(error)) return 0;
      throw error;
    }
  }

  processes(): Promise<number[]> {
    return processesIn(this.dirs);
  }

  /** Kills whatever is left (daemons of a hostPID container, exec sessions) and removes the cgroups. */
  destroy(): Promise<void> {
    return killAndRemove(this.dirs);
  }
}

export class CgroupTree {
  constructor(
    readonly layout: CgroupLayout,
    /** pids.max of each pod, and of the root (every pod together). */
    private readonly pidsLimits: { pod: number; node: number },
  ) {}

  hierarchyIndex(controller: string): number {
    const index = this.layout.hierarchies.findIndex((h) => h.controllers.includes(controller));
    if (index < 0) throw new SandboxHostError(`no cgroup hierarchy carries the ${controller} controller`);
    return index;
  }

  private hasController(controller: string): boolean {
    return this.layout.hierarchies.some((h) => h.controllers.includes(controller));
  }

  private podDirs(podUid: string): string[] {
    return this.layout.hierarchies.map((h) => join(h.root, POD_PREFIX + podUid));
  }

  /** v2 hands controllers down explicitly: each level enables them for its children. */
  private async enableSubtree(hierarchy: Hierarchy, dir: string): Promise<void> {
    if (this.layout.version === 1) return;
    const file = join(dir, 'cgroup.subtree_control');
    const enabled = (await readKernelFile(file)).trim().split(/\s+/);
    for (const controller of hierarchy.controllers.filter((c) => !enabled.includes(c))) {
      await writeCgroupFile(dir, { file: 'cgroup.subtree_control', value: `+${controller}` });
    }
  }

  /** Creates the root cgroup in every hierarchy (idempotent), with the node-wide pids limit. */
  async ensureRoot(): Promise<void> {
    for (const hierarchy of this.layout.hierarchies) {
      await mkdir(hierarchy.root, { recursive: true });
      const levels = hierarchy.root.slice(hierarchy.mountPoint.length).split('/').filter((p) => p !== '');
      let dir = hierarchy.mountPoint;
      await this.enableSubtree(hierarchy, dir);
      for (const level of levels) {
        dir = join(dir, level);
        await this.enableSubtree(hierarchy, dir);
      }
      // v2 shows pids.max once the parent has enabled the controller, hence after the loop.
      if (hierarchy.controllers.includes('pids')) await writeCgroupFile(hierarchy.root, podPidsWrite(this.pidsLimits.node));
    }
  }

  /**
   * Creates (or recreates, after a crash) a container's cgroups under its pod's, with its limits; restrictDevices
   * (every container but a privileged one) applies the default device allow-list where a devices hierarchy exists.
   */
  async createContainer(podUid: string, containerName: string, limits: CgroupLimits, restrictDevices: boolean): Promise<ContainerCgroup> {
    const podDirs = this.podDirs(podUid);
    const dirs = podDirs.map((podDir) => join(podDir, containerName));
    await killAndRemove(dirs);
    for (const [index, hierarchy] of this.layout.hierarchies.entries()) {
      const podDir = podDirs[index] as string;
      try {
        await mkdir(podDir);
        if (hierarchy.controllers.includes('pids')) await writeCgroupFile(podDir, podPidsWrite(this.pidsLimits.pod));
      } catch (error) {
        if (!isErrno(error, 'EEXIST')) throw error;
      }
      await this.enableSubtree(hierarchy, podDir);
      await mkdir(dirs[index] as string);
    }
    for (const write of containerLimitWrites(this.layout.version, limits)) {
      if (!this.hasController(write.controller)) throw new SandboxHostError(`a ${write.controller} limit needs the ${write.controller} cgroup controller`);
      await writeCgroupFile(dirs[this.hierarchyIndex(write.controller)] as string, write);
    }
    if (restrictDevices && this.hasController('devices')) {
      const dir = dirs[this.hierarchyIndex('devices')] as string;
      for (const write of deviceRuleWrites()) {
        // A device the agent's own cgroup denies (a node in a container) cannot be allowed below it: it stays denied.
        await writeFile(join(dir, write.file), write.value).catch((error: unknown) => {
          if (write.file === 'devices.allow' && isErrno(error, 'EPERM')) return;
          throw new SandboxHostError(`cannot set ${write.file}=${write.value} in ${dir}: ${(error as Error).message}`);
        });
      }
    }
    return new ContainerCgroup(this, dirs);
  }

  /** The pods this tree holds, with their live processes: what an agent finds after a restart. */
  async listPods(): Promise<PodProcesses[]> {
    const primary = this.layout.hierarchies[this.hierarchyIndex('memory')] as Hierarchy;
    const podNames = (await subdirectories(primary.root)).filter((name) => name.startsWith(POD_PREFIX));
    return Promise.all(
      podNames.map(async (podName) => {
        const podUid = podName.slice(POD_PREFIX.length);
        const podDirs = this.podDirs(podUid);
        const names = await subdirectories(join(primary.root, podName));
        const containers = await Promise.all(names.map(async (name) => ({ name, pids: await processesIn(podDirs.map((d) => join(d, name))) })));
        return { podUid, containers, pids: await processesIn(podDirs) };
      }),
    );
  }

  /** Kills every process of a pod and removes its cgroups. */
  destroyPod(podUid: string): Promise<void> {
    return killAndRemove(this.podDirs(podUid));
  }

  /** Removes the root cgroups once no pod is left under them (a root that still holds pods stays). */
  async removeRoot(): Promise<void> {
    for (const hierarchy of this.layout.hierarchies) {
      try {
        await rmdir(hierarchy.root);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'EBUSY' && code !== 'ENOTEMPTY') throw error;
      }
    }
  }
}
