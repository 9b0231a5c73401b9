// downwardAPI volumes: one file per item, holding a pod field (name, namespace, uid, labels, annotations) or a
// container's resource (limits/requests, divided by the divisor).
import { SandboxSpecError } from '../../sandbox/errors.ts';
import { namedContainer, resolveFieldRef, resolveResourceFieldRef } from '../downward-api.ts';
import { writeApiDataVolume } from './api-data-volume.ts';
import type { Payload } from './atomic-writer.ts';
import type { DownwardAPIVolumeFile, DownwardAPIVolumeSource } from '../../../apimachinery/api/index.ts';
import { DEFAULT_FILE_MODE, type MaterialisedVolume, type VolumeContext } from './types.ts';
import { volumeSetUpError } from './volume-errors.ts';

function itemValue(context: VolumeContext, item: DownwardAPIVolumeFile): string {
  if (item.fieldRef !== undefined) return resolveFieldRef(item.fieldRef, context, 'volume');
  if (item.resourceFieldRef !== undefined) {
    return resolveResourceFieldRef(item.resourceFieldRef, namedContainer(context, item.resourceFieldRef.containerName), context);
  }
  throw new SandboxSpecError('CreateContainerConfigError', `item ${JSON.stringify(item.path)} names neither fieldRef nor resourceFieldRef`);
}

export function downwardApiPayload(context: VolumeContext, volumeName: string, items: readonly DownwardAPIVolumeFile[], defaultMode: number): Payload {
  const payload: Payload = new Map();
  for (const item of items) {
    try {
      payload.set(item.path, { content: Buffer.from(itemValue(context, item), 'utf8'), mode: item.mode ?? defaultMode });
    } catch (error) {
      if (error instanceof SandboxSpecError) throw volumeSetUpError(volumeName, error.message);
      throw error;
    }
  }
  return payload;
}

export async function downwardApiVolume(context: VolumeContext, name: string, source: DownwardAPIVolumeSource): Promise<MaterialisedVolume> {
  const payload = downwardApiPayload(context, name, source.items ?? [], source.defaultMode ?? DEFAULT_FILE_MODE);
  return writeApiDataVolume(context, { plugin: 'kubernetes.io~downward-api', name, payload, memoryBacked: false });
}
