// Where the counters of the pods' cgroups are read: the cpuacct and memory hierarchies' roots (v1), or the unified root (v2).
// By default the host sandbox's root; with `path`, that cgroup path of each hierarchy (runc's cgroupsPath parent).
import { join } from 'node:path';
import type { CgroupLayout } from '../sandbox/cgroup-layout.ts';
import type { PodCgroupRoots } from './stats-summary.ts';

export function podCgroupRoots(layout: CgroupLayout, path?: string): PodCgroupRoots {
  const root = (controller: string) => {
    const hierarchy = layout.hierarchies.find((h) => h.controllers.includes(controller));
    if (hierarchy === undefined) throw new Error(`no cgroup hierarchy carries the ${controller} controller`);
    return path === undefined ? hierarchy.root : join(hierarchy.mountPoint, path);
  };
  return { version: layout.version, cpu: root(layout.version === 1 ? 'cpuacct' : 'cpu'), memory: root('memory') };
}
