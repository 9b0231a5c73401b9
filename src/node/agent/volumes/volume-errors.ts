// A volume that cannot be set up keeps the pod from starting: kubelet reports it as
// `MountVolume.SetUp failed for volume "NAME" : DETAIL`.
import { SandboxSpecError } from '../../sandbox/errors.ts';

export function volumeSetUpError(volumeName: string, detail: string): SandboxSpecError {
  return new SandboxSpecError('CreateContainerConfigError', `MountVolume.SetUp failed for volume "${volumeName}" : ${detail}`);
}
