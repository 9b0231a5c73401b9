// secret volumes: the Secret's keys as files, base64-decoded, on a tmpfs so that they never reach the node's
// disk. A missing Secret fails the pod's start unless the volume is optional, which then is empty.
import { notFoundMessage, secretEntries } from '../pod-api-objects.ts';
import { writeApiDataVolume } from './api-data-volume.ts';
import type { Payload } from './atomic-writer.ts';
import { keyedPayload } from './key-projection.ts';
import type { SecretProjection, SecretVolumeSource } from '../../../apimachinery/api/index.ts';
import { DEFAULT_FILE_MODE, type MaterialisedVolume, type VolumeContext } from './types.ts';
import { volumeSetUpError } from './volume-errors.ts';

export async function secretPayload(context: VolumeContext, volumeName: string, source: SecretProjection, defaultMode: number): Promise<Payload> {
  const secret = await context.objects.secret(source.name);
  if (secret === undefined) {
    if (source.optional === true) return new Map();
    throw volumeSetUpError(volumeName, notFoundMessage('secret', source.name));
  }
  return keyedPayload({
    volumeName,
    missingKey: 'references non-existent secret key',
    entries: secretEntries(secret),
    items: source.items,
    defaultMode,
    optional: source.optional === true,
  });
}

export async function secretVolume(context: VolumeContext, name: string, source: SecretVolumeSource): Promise<MaterialisedVolume> {
  const reference = { name: source.secretName, ...(source.items ? { items: source.items } : {}), ...(source.optional !== undefined ? { optional: source.optional } : {}) };
  const payload = await secretPayload(context, name, reference, source.defaultMode ?? DEFAULT_FILE_MODE);
  return writeApiDataVolume(context, { plugin: 'kubernetes.io~secret', name, payload, memoryBacked: true });
}
