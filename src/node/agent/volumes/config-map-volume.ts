// configMap volumes: the ConfigMap's data and binaryData keys as files. A missing ConfigMap fails the pod's
// start unless the volume is optional, which then is empty.
import { configMapEntries, notFoundMessage } from '../pod-api-objects.ts';
import { writeApiDataVolume } from './api-data-volume.ts';
import type { Payload } from './atomic-writer.ts';
import { keyedPayload } from './key-projection.ts';
import type { ConfigMapVolumeSource } from '../../../apimachinery/api/index.ts';
import { DEFAULT_FILE_MODE, type MaterialisedVolume, type VolumeContext } from './types.ts';
import { volumeSetUpError } from './volume-errors.ts';

export async function configMapPayload(context: VolumeContext, volumeName: string, source: Omit<ConfigMapVolumeSource, 'defaultMode'>, defaultMode: number): Promise<Payload> {
  const configMap = await context.objects.configMap(source.name);
  if (configMap === undefined) {
    if (source.optional === true) return new Map();
    throw volumeSetUpError(volumeName, notFoundMessage('configmap', source.name));
  }
  return keyedPayload({
    volumeName,
    missingKey: 'configmap references non-existent config key',
    entries: configMapEntries(configMap),
    items: source.items,
    defaultMode,
    optional: source.optional === true,
  });
}

export async function configMapVolume(context: VolumeContext, name: string, source: ConfigMapVolumeSource): Promise<MaterialisedVolume> {
  const payload = await configMapPayload(context, name, source, source.defaultMode ?? DEFAULT_FILE_MODE);
  return writeApiDataVolume(context, { plugin: 'kubernetes.io~configmap', name, payload, memoryBacked: false });
}
