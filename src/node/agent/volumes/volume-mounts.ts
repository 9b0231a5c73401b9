// A container's volumeMounts as the sandbox's bindings, kubelet's makeMounts: the volume's host path (or the
// subPath inside it), read-only when the mount or the volume says so. subPathExpr expands $(VAR) from the
// container's environment. mountPropagation is ignored: every volume is a private bind in the container.
import { chmod, lstat, mkdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { SandboxSpecError } from '../../sandbox/errors.ts';
import type { VolumeBinding } from '../../sandbox/types.ts';
import { expandReferences } from '../container-argv.ts';
import type { VolumeMount } from '../../../apimachinery/api/index.ts';
import type { MaterialisedVolume } from './types.ts';

function configError(message: string): SandboxSpecError {
  return new SandboxSpecError('CreateContainerConfigError', message);
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The subPath's real host path. Missing directories are created one component at a time (with the volume's mode,
 * as kubelet does), and every existing component is resolved and must stay inside the volume, so a symbolic link
 * that a container left in an emptyDir cannot point a mount, or a new directory, at the host.
 */
async function subPathOnHost(volumeRoot: string, subPath: string, describe: string): Promise<string> {
  const root = await realpath(volumeRoot);
  const mode = (await stat(root)).mode & 0o7777;
  let current = root;
  for (const part of subPath.split('/').filter((p) => p !== '' && p !== '.')) {
    const next = join(current, part);
    const exists = await lstat(next).then(() => true, () => false);
    if (!exists) {
      // chmod: the volume's mode, whatever the agent's umask.
      await mkdir(next)
        .then(() => chmod(next, mode))
        .catch(() => {
          throw configError(`failed to create subPath directory for ${describe}`);
        });
    }
    current = await realpath(next);
    if (!isInside(root, current)) throw configError(`failed to prepare subPath for ${describe}`);
  }
  return current;
}

function subPathOf(mount: VolumeMount, env: ReadonlyMap<string, string>): string | undefined {
  if (mount.subPathExpr !== undefined && mount.subPathExpr !== '') return expandReferences(mount.subPathExpr, env);
  return mount.subPath === '' ? undefined : mount.subPath;
}

/** Bindings for one container; env is its resolved environment (for subPathExpr). */
export async function volumeBindings(
  containerName: string,
  mounts: readonly VolumeMount[],
  volumes: ReadonlyMap<string, MaterialisedVolume>,
  env: ReadonlyMap<string, string>,
): Promise<VolumeBinding[]> {
  const bindings: VolumeBinding[] = [];
  for (const mount of mounts) {
    const volume = volumes.get(mount.name);
    if (volume === undefined) throw configError(`cannot find volume "${mount.name}" to mount into container "${containerName}"`);
    const subPath = subPathOf(mount, env);
    let hostPath = volume.hostPath;
    if (subPath !== undefined) {
      if (isAbsolute(subPath)) throw configError(`error SubPath \`${subPath}\` must not be an absolute path`);
      if (subPath.split('/').includes('..')) throw configError(`unable to provision SubPath \`${subPath}\`: must not contain '..'`);
      hostPath = await subPathOnHost(volume.hostPath, subPath, `volumeMount "${mount.name}" of container "${containerName}"`);
    }
    bindings.push({ hostPath, mountPath: mount.mountPath, ...(mount.readOnly === true || volume.readOnly ? { readOnly: true } : {}) });
  }
  return bindings;
}
