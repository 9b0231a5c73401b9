// A volume's directory in the pod, as kubelet names it: <podDir>/volumes/<plugin>/<volume name>.
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { mountTmpfs } from './tmpfs.ts';

export type VolumePlugin = 'kubernetes.io~empty-dir' | 'kubernetes.io~configmap' | 'kubernetes.io~secret' | 'kubernetes.io~downward-api' | 'kubernetes.io~projected';

export function podVolumesDir(podDir: string): string {
  return join(podDir, 'volumes');
}

/**
 * Creates the volume's directory, writable by any user as kubelet makes an emptyDir (so a container with runAsUser
 * can use it), on a tmpfs when memory-backed.
 */
export async function makeVolumeDir(podDir: string, plugin: VolumePlugin, name: string, memory?: { sizeBytes: number | undefined }): Promise<string> {
  const dir = join(podVolumesDir(podDir), plugin, name);
  // mkdir names the first directory it made: a directory made just now holds no mount, so the tmpfs needs no
  // look in mountinfo (which a burst of pods, each reading the whole table while the others mount, makes slow).
  const made = await mkdir(dir, { recursive: true });
  if (memory !== undefined) await mountTmpfs(dir, memory.sizeBytes, { fresh: made !== undefined });
  await chmod(dir, 0o777);
  return dir;
}
