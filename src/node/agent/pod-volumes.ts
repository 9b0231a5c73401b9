// emptyDir volumes as kubelet lays them out: one directory per volume in the pod's directory
// (<podDir>/volumes/kubernetes.io~empty-dir/<name>), shared by the pod's containers and removed with it.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxSpecError } from '../sandbox/errors.ts';
import type { VolumeBinding } from '../sandbox/types.ts';

export interface PodVolume {
  name: string;
  emptyDir?: Record<string, unknown>;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
}

/** Creates each emptyDir's directory; returns the host path of every volume by name. */
export async function materialiseVolumes(podDir: string, volumes: readonly PodVolume[]): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  for (const volume of volumes) {
    if (volume.emptyDir === undefined) {
      throw new SandboxSpecError('CreateContainerConfigError', `volume ${volume.name}: only emptyDir volumes are supported on this node`);
    }
    const hostPath = join(podDir, 'volumes', 'kubernetes.io~empty-dir', volume.name);
    // Writable by any user, as kubelet makes it, so a container with runAsUser can use it (umask may narrow it).
    await mkdir(hostPath, { recursive: true, mode: 0o777 });
    paths.set(volume.name, hostPath);
  }
  return paths;
}

export function volumeBindings(mounts: readonly VolumeMount[], volumePaths: ReadonlyMap<string, string>): VolumeBinding[] {
  return mounts.map((mount) => {
    const hostPath = volumePaths.get(mount.name);
    if (hostPath === undefined) throw new SandboxSpecError('CreateContainerConfigError', `volumeMount ${mount.name}: no volume of that name in the pod`);
    return { hostPath, mountPath: mount.mountPath, ...(mount.readOnly === true ? { readOnly: true } : {}) };
  });
}
