// A registered container as GET /v1/containers/{id} shows it: the main PID while it runs and its cgroup
// directory per controller, as upstream's injector reads them from containerd.
import type { RuntimeContainer } from '../../client/node-runtime/protocol.ts';
import type { ContainerLookup } from '../agent/pods/container-registry.ts';
import type { CgroupLayout } from '../sandbox/cgroup-layout.ts';

export function cgroupsByController(layout: CgroupLayout, dirs: readonly string[]): Record<string, string> {
  const cgroups: Record<string, string> = {};
  for (const [index, hierarchy] of layout.hierarchies.entries()) {
    const dir = dirs[index];
    if (dir === undefined) continue;
    if (layout.version === 2) cgroups['unified'] = dir;
    else for (const controller of hierarchy.controllers) cgroups[controller] = dir;
  }
  return cgroups;
}

export function describeContainer(found: ContainerLookup, layout: CgroupLayout): RuntimeContainer {
  const { pod, container } = found;
  const handle = container.handle;
  const pid = handle?.isRunning === true ? handle.pid : undefined;
  return {
    id: container.id ?? '',
    podUid: pod.uid,
    namespace: pod.namespace,
    pod: pod.name,
    container: container.name,
    ...(pid !== undefined ? { pid } : {}),
    cgroupVersion: layout.version,
    cgroups: handle?.cgroup ? cgroupsByController(layout, handle.cgroup.dirs) : {},
  };
}
