// kubelet's image manager for one node: the pull policy, the Pulling/Pulled/Failed/BackOff Events with kubelet's
// wording, ErrImagePull then ImagePullBackOff, the pod's imagePullSecrets as credentials.
import type { Container, Pod } from '../../../apimachinery/api/index.ts';
import type { EventRecorder } from '../../../runtime/index.ts';
import { credentialsFromPullSecrets } from '../../../client/oci/pull-secrets.ts';
import { RegistryError } from '../../../client/oci/registry-error.ts';
import type { ImageService, LocalImage } from '../../images/types.ts';
import { SandboxSpecError } from '../../sandbox/errors.ts';
import type { PodApiObjects } from '../pod-api-objects.ts';

/** kubelet's default: Always for :latest or no tag (and no digest), else IfNotPresent. */
export function pullPolicy(container: Pick<Container, 'image' | 'imagePullPolicy'>): 'Always' | 'IfNotPresent' | 'Never' {
  if (container.imagePullPolicy !== undefined) return container.imagePullPolicy as 'Always' | 'IfNotPresent' | 'Never';
  const image = container.image ?? '';
  if (image.includes('@')) return 'IfNotPresent';
  const last = image.split('/').pop() ?? '';
  const tag = last.includes(':') ? last.slice(last.indexOf(':') + 1) : 'latest';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(3).replace(/\.?0+$/, '')}s`;
}

/** An image pull failed: the container waits with ErrImagePull (kubelet then reports ImagePullBackOff). */
export class ImagePullFailedError extends SandboxSpecError {
  constructor(
    readonly image: string,
    message: string,
  ) {
    super('ErrImagePull', message);
  }
}

export async function ensureImage(pod: Pod, container: Container, images: ImageService, objects: PodApiObjects, recorder: EventRecorder): Promise<LocalImage> {
  const image = container.image ?? '';
  if (image === '') throw new SandboxSpecError('InvalidImageName', `container ${container.name}: no image`);
  const policy = pullPolicy(container);
  if (policy !== 'Always') {
    const local = await images.local(image);
    if (local) {
      void recorder.normal(pod, 'Pulled', `Container image "${image}" already present on machine`);
      return local;
    }
    if (policy === 'Never') {
      const message = `Container image "${image}" is not present with pull policy of Never`;
      void recorder.warning(pod, 'ErrImageNeverPull', message);
      throw new SandboxSpecError('ErrImageNeverPull', message);
    }
  }
  void recorder.normal(pod, 'Pulling', `Pulling image "${image}"`);
  const started = Date.now();
  try {
    const secrets = [];
    for (const ref of pod.spec.imagePullSecrets ?? []) {
      const secret = ref.name === undefined ? undefined : await objects.secret(ref.name);
      if (secret) secrets.push(secret);
    }
    const pulled = await images.pull(image, { credentials: credentialsFromPullSecrets(secrets) });
    const took = seconds(Date.now() - started);
    void recorder.normal(pod, 'Pulled', `Successfully pulled image "${image}" in ${took} (${took} including waiting). Image size: ${pulled.sizeBytes} bytes.`);
    return pulled;
  } catch (error) {
    const message = error instanceof RegistryError ? error.message : `failed to pull and unpack image "${image}": ${(error as Error).message}`;
    void recorder.warning(pod, 'Failed', `Failed to pull image "${image}": ${message}`);
    void recorder.warning(pod, 'Failed', 'Error: ErrImagePull');
    throw new ImagePullFailedError(image, message);
  }
}
