// projected volumes: configMap, secret and downwardAPI sources merged into one directory, memory-backed as
// kubelet keeps them. A serviceAccountToken source is written as an EMPTY file at its path: the agent does not
// mint tokens (there is no TokenRequest here), and an empty token fails authentication plainly instead of
// pretending to be a credential.
import { writeApiDataVolume } from './api-data-volume.ts';
import type { Payload } from './atomic-writer.ts';
import { configMapPayload } from './config-map-volume.ts';
import { downwardApiPayload } from './downward-api-volume.ts';
import { secretPayload } from './secret-volume.ts';
import type { ProjectedVolumeSource, VolumeProjection } from '../../../apimachinery/api/index.ts';
import { DEFAULT_FILE_MODE, type MaterialisedVolume, type VolumeContext } from './types.ts';
import { volumeSetUpError } from './volume-errors.ts';

async function projectionPayload(context: VolumeContext, volumeName: string, projection: VolumeProjection, defaultMode: number): Promise<Payload> {
  if (projection.configMap !== undefined) return configMapPayload(context, volumeName, projection.configMap, defaultMode);
  if (projection.secret !== undefined) return secretPayload(context, volumeName, projection.secret, defaultMode);
  if (projection.downwardAPI !== undefined) return downwardApiPayload(context, volumeName, projection.downwardAPI.items ?? [], defaultMode);
  if (projection.serviceAccountToken !== undefined) return new Map([[projection.serviceAccountToken.path, { content: Buffer.alloc(0), mode: defaultMode }]]);
  throw volumeSetUpError(volumeName, 'a projected source names none of configMap, secret, downwardAPI or serviceAccountToken');
}

export async function projectedVolume(context: VolumeContext, name: string, source: ProjectedVolumeSource): Promise<MaterialisedVolume> {
  const defaultMode = source.defaultMode ?? DEFAULT_FILE_MODE;
  const payload: Payload = new Map();
  for (const projection of source.sources ?? []) {
    for (const [path, file] of await projectionPayload(context, name, projection, defaultMode)) payload.set(path, file);
  }
  return writeApiDataVolume(context, { plugin: 'kubernetes.io~projected', name, payload, memoryBacked: true });
}
