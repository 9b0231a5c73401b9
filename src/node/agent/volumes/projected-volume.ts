// projected volumes: configMap, secret, downwardAPI and serviceAccountToken sources merged into one directory,
// memory-backed as kubelet keeps them. A token is the API server's, asked for bound to the pod and renewed before
// it expires (projected-tokens.ts).
import { writeApiDataVolume } from './api-data-volume.ts';
import type { Payload } from './atomic-writer.ts';
import { configMapPayload } from './config-map-volume.ts';
import { downwardApiPayload } from './downward-api-volume.ts';
import { secretPayload } from './secret-volume.ts';
import type { ProjectedVolumeSource, VolumeProjection } from '../../../apimachinery/api/index.ts';
import { DEFAULT_FILE_MODE, type MaterialisedVolume, type VolumeContext } from './types.ts';
import { volumeSetUpError } from './volume-errors.ts';

/** The API's default for a projected token's expirationSeconds. */
const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;

async function projectionPayload(context: VolumeContext, volumeName: string, projection: VolumeProjection, defaultMode: number): Promise<Payload> {
  if (projection.configMap !== undefined) return configMapPayload(context, volumeName, projection.configMap, defaultMode);
  if (projection.secret !== undefined) return secretPayload(context, volumeName, projection.secret, defaultMode);
  if (projection.downwardAPI !== undefined) return downwardApiPayload(context, volumeName, projection.downwardAPI.items ?? [], defaultMode);
  const token = projection.serviceAccountToken;
  if (token !== undefined) {
    const wanted = { volumeName, pod: context.pod, audience: token.audience, expirationSeconds: token.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS };
    return new Map([[token.path, { content: Buffer.from(await context.objects.tokens.token(wanted)), mode: defaultMode }]]);
  }
  throw volumeSetUpError(volumeName, 'a projected source names none of configMap, secret, downwardAPI or serviceAccountToken');
}

export async function projectedVolume(context: VolumeContext, name: string, source: ProjectedVolumeSource): Promise<MaterialisedVolume> {
  const defaultMode = source.defaultMode ?? DEFAULT_FILE_MODE;
  // Read side by side (each is an API request); merged in order, a later source's file over an earlier one's,
  // and the first failing source in order is the one reported.
  const payloads = await Promise.allSettled((source.sources ?? []).map((projection) => projectionPayload(context, name, projection, defaultMode)));
  const payload: Payload = new Map();
  for (const result of payloads) {
    if (result.status === 'rejected') throw result.reason;
    for (const [path, file] of result.value) payload.set(path, file);
  }
  return writeApiDataVolume(context, { plugin: 'kubernetes.io~projected', name, payload, memoryBacked: true });
}
