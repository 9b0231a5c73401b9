// A registered container as GET /v1/containers/{id} shows it: the main PID while it runs and its cgroup
// directory per controller, as upstream's injector reads them from containerd.
import { readKernelFile } from '../sandbox/kernel-file.ts';
import { join } from 'node:path';
import type { RuntimeContainer } from '../../client/node-runtime/protocol.ts';
import type { ContainerLookup } from '../agent/pods/container-registry.ts';
import type { CgroupLayout } from '../sandbox/cgroup-layout.ts';
import { readMountInfo } from '../sandbox/mountinfo.ts';

/**
 * v1 hierarchies the sandbox does not manage, which the injector still reads (cpuset: the CPUs the container
 * may use): the live process's own cgroup there, from /proc/<pid>/cgroup and the host's mount table.
 */
const UNMANAGED_V1 = ['cpuset'];

async function unmanagedCgroups(pid: number): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  const [text, mounts] = await Promise.all([readKernelFile(`/proc/${pid}/cgroup`).catch(() => ''), readMountInfo()]);
  for (const line of text.split('\n')) {
    const [, controllers = '', ...path] = line.split(':');
    for (const controller of controllers.split(',').filter((c) => UNMANAGED_V1.includes(c))) {
      const mount = mounts.find((m) => m.fsType === 'cgroup' && m.superOptions.includes(controller));
      if (mount) found[controller] = join(mount.mountPoint, path.join(':'));
    }
  }
  return found;
}

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

export async function describeContainer(found: ContainerLookup, layout: CgroupLayout): Promise<RuntimeContainer> {
  const { pod, container } = found;
  const handle = container.handle;
  const pid = handle?.isRunning === true ? await handle.commandPid() : undefined;
  return {
    id: container.id ?? '',
    podUid: pod.uid,
    namespace: pod.namespace,
    pod: pod.name,
    container: container.name,
    ...(pid !== undefined ? { pid } : {}),
    cgroupVersion: layout.version,
    cgroups: {
      ...(pid !== undefined && layout.version === 1 ? await unmanagedCgroups(pid) : {}),
      ...(handle?.cgroup ? cgroupsByController(layout, handle.cgroup.dirs) : {}),
    },
  };
}
