// A pod's volumes as kubelet lays them out: each kind materialised on the host (src/node/agent/volumes/, one
// kind per file), then bound into containers by their volumeMounts, and removed with the pod. What lives
// outside the pod's directory (hostPath, persistentVolumeClaim data) is never removed.
import { rm } from 'node:fs/promises';
import { SandboxSpecError } from '../sandbox/errors.ts';
import { configMapVolume } from './volumes/config-map-volume.ts';
import { downwardApiVolume } from './volumes/downward-api-volume.ts';
import { emptyDirVolume } from './volumes/empty-dir-volume.ts';
import { hostPathVolume } from './volumes/host-path-volume.ts';
import { persistentVolumeClaimVolume } from './volumes/persistent-volume-claim-volume.ts';
import { projectedVolume } from './volumes/projected-volume.ts';
import { secretVolume } from './volumes/secret-volume.ts';
import { mountsUnder, unmount } from './volumes/tmpfs.ts';
import type { Volume } from '../../apimachinery/api/index.ts';
import type { MaterialisedVolume, VolumeContext } from './volumes/types.ts';
import { podVolumesDir } from './volumes/volume-dir.ts';

export type { MaterialisedVolume, VolumeContext } from './volumes/types.ts';
export { volumeBindings } from './volumes/volume-mounts.ts';

/** API validation's rule for volume names (a DNS-1123 label); the name becomes a path on the node. */
const VOLUME_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

function materialise(context: VolumeContext, volume: Volume): Promise<MaterialisedVolume> {
  const { name } = volume;
  if (!VOLUME_NAME.test(name)) {
    throw new SandboxSpecError('CreateContainerConfigError', `volume ${JSON.stringify(name)}: a volume name must be a lowercase RFC 1123 label (a-z, 0-9 and '-', at most 63 characters)`);
  }
  if (volume.emptyDir !== undefined) return emptyDirVolume(context, name, volume.emptyDir);
  if (volume.configMap !== undefined) return configMapVolume(context, name, volume.configMap);
  if (volume.secret !== undefined) return secretVolume(context, name, volume.secret);
  if (volume.downwardAPI !== undefined) return downwardApiVolume(context, name, volume.downwardAPI);
  if (volume.projected !== undefined) return projectedVolume(context, name, volume.projected);
  if (volume.hostPath !== undefined) return hostPathVolume(name, volume.hostPath);
  if (volume.persistentVolumeClaim !== undefined) return persistentVolumeClaimVolume(context, name, volume.persistentVolumeClaim);
  const kinds = Object.keys(volume).filter((key) => key !== 'name');
  const supported = 'emptyDir, configMap, secret, downwardAPI, projected, hostPath and persistentVolumeClaim are';
  throw new SandboxSpecError(
    'CreateContainerConfigError',
    kinds.length === 0 ? `volume ${name}: no volume source is set (${supported} supported)` : `volume ${name}: ${kinds.join(', ')} volumes are not supported on this node (${supported})`,
  );
}

/**
 * Sets up every volume of the pod (idempotent: an agent restart may call it again for a running pod) and returns
 * each by name. A missing ConfigMap, Secret or claim, a failed hostPath check or an unsupported kind is a
 * SandboxSpecError (CreateContainerConfigError) in kubelet's words; other errors are the host's or the API's.
 */
export async function materialiseVolumes(context: VolumeContext, volumes: readonly Volume[]): Promise<Map<string, MaterialisedVolume>> {
  const materialised = new Map<string, MaterialisedVolume>();
  for (const volume of volumes) materialised.set(volume.name, await materialise(context, volume));
  return materialised;
}

/**
 * Unmounts the pod's tmpfs volumes (Secrets, projected, memory emptyDirs) and keeps the directories: an agent that
 * stops and kills its pods leaves nothing mounted, so the data dir can be removed. The next agent mounts them again
 * when it restarts the pods, as after a node reboot.
 */
export async function unmountPodVolumes(podDir: string): Promise<void> {
  for (const mountPoint of await mountsUnder(podVolumesDir(podDir))) await unmount(mountPoint);
}

/**
 * Removes <podDir>/volumes: unmounts its tmpfs volumes, then deletes the directories. hostPath and claim data are
 * not in it (they are bound from where they are), and removal does not follow symbolic links; a mount that
 * cannot be unmounted stops the removal rather than deleting through it.
 */
export async function removePodVolumes(podDir: string): Promise<void> {
  const dir = podVolumesDir(podDir);
  for (const mountPoint of await mountsUnder(dir)) await unmount(mountPoint);
  const remaining = await mountsUnder(dir);
  if (remaining.length > 0) throw new Error(`cannot remove the volumes of ${podDir}: still mounted: ${remaining.join(', ')}`);
  await rm(dir, { recursive: true, force: true });
}
