// --container-runtime: whether this node runs images (runc under conmon on overlayfs) or only the host sandbox.
// auto runs images when runc, conmon and overlayfs are there; oci insists (an error naming the Debian packages).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ImageStore } from '../../images/image-store.ts';
import { unmountOverlay } from '../../images/layers/overlay.ts';
import { ImagePuller } from '../../images/pull/puller.ts';
import { formatReference, parseImageReference } from '../../images/pull/reference.ts';
import { loadRegistriesConfig } from '../../images/pull/registry-config.ts';
import { OciRuntimeUnavailableError } from '../../oci-runtime/errors.ts';
import { OciRuntime } from '../../oci-runtime/oci-runtime.ts';
import { OCI_PACKAGES } from '../container-runtime.ts';
import { ImageContainers } from './image-containers.ts';
import type { ImageService } from '../../images/types.ts';

export type ContainerRuntimeMode = 'auto' | 'oci' | 'host';

export interface ImageRuntime {
  images: ImageService;
  containers: ImageContainers;
  runtime: OciRuntime;
  /** The node's images changed (a pull): Node.status.images is written again. */
  changed(): void;
  /** After a pod is removed: kubelet's image GC (85%/80%), then Node.status.images. */
  collect(): void;
}

async function overlayAvailable(): Promise<boolean> {
  const filesystems = await readFile('/proc/filesystems', 'utf8').catch(() => '');
  // Not listed until the module loads: modprobe-less hosts that have it built in list it.
  return /\toverlay$/m.test(filesystems) || (await readFile('/sys/module/overlay/initstate', 'utf8').catch(() => '')) !== '';
}

/**
 * Containers an earlier agent left (it was killed, or stopped without killPods) are killed, as the host sandbox's
 * leftovers are: the agent does not adopt them yet, and their pods start again per restartPolicy.
 */
async function killLeftovers(runtime: OciRuntime, dataDir: string, onError: (err: unknown) => void): Promise<void> {
  for (const container of await runtime.list()) {
    try {
      if (container.isRunning) await container.stop(0);
      await container.remove();
      await unmountOverlay(join(dataDir, 'pods', container.record.podUid, 'oci', container.id, 'rootfs'));
    } catch (err) {
      onError(err);
    }
  }
}

export async function openImageRuntime(options: { mode: ContainerRuntimeMode; dataDir: string; cgroupParent: string; registryConfig?: string; publish: (images: ImageService) => Promise<void>; onError: (err: unknown) => void }): Promise<ImageRuntime | undefined> {
  if (options.mode === 'host') return undefined;
  let runtime: OciRuntime;
  try {
    if (!(await overlayAvailable())) throw new OciRuntimeUnavailableError('overlayfs is not available: running images needs it (modprobe overlay)');
    runtime = await OciRuntime.open({ stateDir: join(options.dataDir, 'oci') });
  } catch (error) {
    if (options.mode === 'auto' && error instanceof OciRuntimeUnavailableError) return undefined;
    if (error instanceof OciRuntimeUnavailableError) throw new OciRuntimeUnavailableError(`--container-runtime oci: ${error.message} (Debian: apt-get install ${OCI_PACKAGES.join(' ')})`);
    throw error;
  }
  await killLeftovers(runtime, options.dataDir, options.onError);
  const registries = options.registryConfig !== undefined ? loadRegistriesConfig(options.registryConfig) : undefined;
  const puller = new ImagePuller({ root: join(options.dataDir, 'images'), ...(registries ? { registries } : {}) });
  const images = await ImageStore.open({ root: join(options.dataDir, 'images'), pull: (reference, pullOptions) => puller.pull(reference, pullOptions), normalizeReference: (reference) => formatReference(parseImageReference(reference)) });
  // One write at a time, each after the change that asked for it.
  let writes: Promise<void> = Promise.resolve();
  const after = (step: () => Promise<unknown>) => {
    writes = writes.then(step).then(() => options.publish(images)).catch(options.onError);
  };
  return {
    images,
    runtime,
    containers: new ImageContainers({ runtime, images, cgroupParent: options.cgroupParent }),
    changed: () => after(() => Promise.resolve()),
    collect: () => after(() => images.collectGarbage()),
  };
}
