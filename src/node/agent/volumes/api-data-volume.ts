// What configMap, secret, downwardAPI and projected volumes share: their files are computed from the API
// (a payload), written atomically into the volume's directory, group-owned by the pod's fsGroup, and mounted
// read-only into every container (kubelet's ReadOnlyAPIDataVolumes).
import { writeAtomically, type Payload } from './atomic-writer.ts';
import { applyFsGroup } from './fs-group.ts';
import type { MaterialisedVolume, VolumeContext } from './types.ts';
import { makeVolumeDir, type VolumePlugin } from './volume-dir.ts';

export interface ApiDataVolume {
  plugin: VolumePlugin;
  name: string;
  payload: Payload;
  /** Secrets and projected volumes (which may hold tokens and secrets) stay off the disk. */
  memoryBacked: boolean;
}

export async function writeApiDataVolume(context: VolumeContext, volume: ApiDataVolume): Promise<MaterialisedVolume> {
  const dir = await makeVolumeDir(context.podDir, volume.plugin, volume.name, volume.memoryBacked ? { sizeBytes: undefined } : undefined);
  const written = await writeAtomically(dir, volume.payload);
  const fsGroup = context.pod.spec.securityContext?.fsGroup;
  if (written && fsGroup !== undefined) await applyFsGroup(dir, fsGroup, true);
  return { hostPath: dir, readOnly: true };
}
