// persistentVolumeClaim volumes: one directory per claim on the node, <dataDir>/volumes/pvc/<namespace>/<claim>,
// kept after the pod (the claim's data outlives it, so a workspace claim is shared by a Job's successive pods).
// The claim must exist; its phase is not checked (nothing binds claims here) and its requested capacity is
// not enforced: the directory takes whatever disk the node has.
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { notFoundMessage } from '../pod-api-objects.ts';
import type { MaterialisedVolume, VolumeContext } from './types.ts';
import { volumeSetUpError } from './volume-errors.ts';

export function claimDir(dataDir: string, namespace: string, claimName: string): string {
  return join(dataDir, 'volumes', 'pvc', namespace, claimName);
}

export async function persistentVolumeClaimVolume(context: VolumeContext, name: string, source: { claimName: string; readOnly?: boolean }): Promise<MaterialisedVolume> {
  const { claimName } = source;
  // API names cannot hold these, but the path is built from them: refuse rather than trust.
  if (claimName === '' || claimName.includes('/') || claimName.startsWith('.')) throw volumeSetUpError(name, `invalid claimName ${JSON.stringify(claimName)}`);
  if ((await context.objects.persistentVolumeClaim(claimName)) === undefined) throw volumeSetUpError(name, notFoundMessage('persistentvolumeclaim', claimName));
  const dir = claimDir(context.dataDir, context.objects.namespace, claimName);
  // Writable by any user, as a local-path provisioner makes it; only on creation, so a later chmod by a pod stays.
  if ((await mkdir(dir, { recursive: true })) !== undefined) await chmod(dir, 0o777);
  return { hostPath: dir, readOnly: source.readOnly === true };
}
