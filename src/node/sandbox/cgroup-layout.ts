// Which cgroup hierarchies the host offers and where the sandbox's root cgroup goes in each.
// v1 (one hierarchy per controller group) is used when cpu and memory are mounted as v1 controllers, as
// on this machine; otherwise the unified v2 hierarchy, which must offer cpu and memory.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SandboxHostError } from './errors.ts';
import type { MountEntry } from './mountinfo.ts';

const V1_CONTROLLERS = ['cpu', 'cpuacct', 'memory', 'pids', 'blkio', 'devices'] as const;
const V2_CONTROLLERS = ['cpu', 'memory', 'pids', 'io'] as const;

export interface Hierarchy {
  mountPoint: string;
  /** The managed controllers this hierarchy carries (v1), or every enabled one (v2). */
  controllers: string[];
  /** The sandbox's root cgroup: pods are its children. */
  root: string;
}

export interface CgroupLayout {
  version: 1 | 2;
  hierarchies: Hierarchy[];
}

/**
 * Where the root cgroup (named `name`) sits: 'top' at the top of each hierarchy, where any later agent finds
 * it again (the choice for a node agent); 'agent' inside the agent's own cgroup (v1) or beside it (v2, which
 * forbids children next to processes), so that pods stay accounted to whatever runs the agent (tests).
 */
export interface CgroupPlacement {
  placement: 'top' | 'agent';
  name: string;
}

interface SelfCgroup {
  controllers: string[];
  path: string;
}

function parseSelfCgroups(text: string): SelfCgroup[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [, controllers = '', ...path] = line.split(':');
      return { controllers: controllers === '' ? [] : controllers.split(','), path: path.join(':') };
    });
}

function unifiedMount(mounts: readonly MountEntry[]): MountEntry | undefined {
  return mounts.find((m) => m.fsType === 'cgroup2' && m.mountPoint === '/sys/fs/cgroup') ?? mounts.find((m) => m.fsType === 'cgroup2');
}

/** v2Controllers: the unified hierarchy's cgroup.controllers, when one is mounted. */
export function planCgroupLayout(mounts: readonly MountEntry[], selfText: string, v2Controllers: string[], placement: CgroupPlacement): CgroupLayout {
  if (!/^[A-Za-z0-9_.-]+$/.test(placement.name)) throw new SandboxHostError(`invalid cgroup name "${placement.name}"`);
  const self = parseSelfCgroups(selfText);
  const v1 = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const mount of mounts) {
    if (mount.fsType !== 'cgroup') continue;
    // A hierarchy mounted twice shows up twice; the first mount of each controller wins.
    const managed = V1_CONTROLLERS.filter((c) => mount.superOptions.includes(c) && !seen.has(c));
    if (managed.length === 0) continue;
    managed.forEach((c) => seen.add(c));
    v1.set(mount.mountPoint, managed);
  }
  if (seen.has('cpu') && seen.has('memory')) {
    const hierarchies = [...v1].map(([mountPoint, controllers]) => {
      const own = self.find((entry) => entry.controllers.some((c) => controllers.includes(c)))?.path ?? '/';
      return { mountPoint, controllers, root: join(mountPoint, placement.placement === 'agent' ? own : '/', placement.name) };
    });
    return { version: 1, hierarchies };
  }
  const unified = unifiedMount(mounts);
  if (unified === undefined) throw new SandboxHostError('no cgroup hierarchy with the cpu and memory controllers is mounted');
  const missing = ['cpu', 'memory'].filter((c) => !v2Controllers.includes(c));
  if (missing.length > 0) throw new SandboxHostError(`the cgroup v2 hierarchy at ${unified.mountPoint} lacks the ${missing.join(' and ')} controller(s)`);
  const own = self.find((entry) => entry.controllers.length === 0)?.path ?? '/';
  const parent = placement.placement === 'agent' ? dirname(own) : '/';
  const controllers = V2_CONTROLLERS.filter((c) => v2Controllers.includes(c));
  return { version: 2, hierarchies: [{ mountPoint: unified.mountPoint, controllers, root: join(unified.mountPoint, parent, placement.name) }] };
}

export async function detectCgroupLayout(mounts: readonly MountEntry[], placement: CgroupPlacement): Promise<CgroupLayout> {
  const selfText = await readFile('/proc/self/cgroup', 'utf8');
  const unified = unifiedMount(mounts);
  const v2Text = unified ? await readFile(join(unified.mountPoint, 'cgroup.controllers'), 'utf8').catch(() => '') : '';
  return planCgroupLayout(mounts, selfText, v2Text.split(/\s+/).filter((c) => c !== ''), placement);
}
