// emptyDir volumes: a directory in the pod shared by its containers and removed with it; medium Memory is a
// tmpfs of sizeLimit bytes (the kernel's default, half of RAM, without one). On disk, sizeLimit is enforced by
// eviction, as kubelet does (pods/local-storage.ts).
import { parseBytes } from '../../sandbox/quantity.ts';
import { applyFsGroup } from './fs-group.ts';
import type { EmptyDirVolumeSource } from '../../../apimachinery/api/index.ts';
import type { MaterialisedVolume, VolumeContext } from './types.ts';
import { makeVolumeDir } from './volume-dir.ts';
import { volumeSetUpError } from './volume-errors.ts';

export async function emptyDirVolume(context: VolumeContext, name: string, source: EmptyDirVolumeSource): Promise<MaterialisedVolume> {
  const medium = source.medium ?? '';
  if (medium !== '' && medium !== 'Memory') throw volumeSetUpError(name, `emptyDir medium ${JSON.stringify(medium)} is not supported on this node (use "" or "Memory")`);
  const memory = medium === 'Memory' ? { sizeBytes: source.sizeLimit === undefined ? undefined : parseBytes(`volume ${name} sizeLimit`, source.sizeLimit) } : undefined;
  const dir = await makeVolumeDir(context.podDir, 'kubernetes.io~empty-dir', name, memory);
  const fsGroup = context.pod.spec.securityContext?.fsGroup;
  if (fsGroup !== undefined) await applyFsGroup(dir, fsGroup, false);
  return { hostPath: dir, readOnly: false };
}
