// persistentVolumeClaim volumes: the claim's bound volume's directory, or one directory per claim on the node,
// <dataDir>/volumes/pvc/<namespace>/<claim>, which a local-path claim is provisioned into (local-path-provisioner.ts)
// and a claim without a class simply is. It is kept after the pod (the claim's data outlives it, so a workspace
// claim is shared by a Job's successive pods). The requested capacity is not enforced: the directory takes
// whatever disk the node has.
import { join } from 'node:path';
import type { PersistentVolumeClaim } from '../../../apimachinery/api/index.ts';
import { notFoundMessage } from '../pod-api-objects.ts';
import { claimVolumeDir } from './local-path-provisioner.ts';
import type { MaterialisedVolume, VolumeContext } from './types.ts';
import { volumeSetUpError } from './volume-errors.ts';

export function claimDir(dataDir: string, namespace: string, claimName: string): string {
  return join(dataDir, 'volumes', 'pvc', namespace, claimName);
}

export async function persistentVolumeClaimVolume(context: VolumeContext, name: string, source: { claimName: string; readOnly?: boolean }): Promise<MaterialisedVolume> {
  const { claimName } = source;
  // API names cannot hold these, but the path is built from them: refuse rather than trust.
  if (claimName === '' || claimName.includes('/') || claimName.startsWith('.')) throw volumeSetUpError(name, `invalid claimName ${JSON.stringify(claimName)}`);
  const claim = await context.objects.persistentVolumeClaim(claimName);
  if (claim === undefined) throw volumeSetUpError(name, notFoundMessage('persistentvolumeclaim', claimName));
  const dir = claimDir(context.dataDir, context.objects.namespace, claimName);
  const hostPath = await claimVolumeDir({ client: context.objects.client, nodeName: context.nodeName, dir }, name, claim as PersistentVolumeClaim);
  return { hostPath, readOnly: source.readOnly === true };
}
