// --container-runtime: whether this node runs images (runc under conmon on overlayfs) or only the host sandbox.
// auto runs images when runc, conmon and overlayfs are there; oci insists (an error naming the Debian packages).
import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ImageStore } from '../../images/image-store.ts';
import { ImagePuller } from '../../images/pull/puller.ts';
import { formatReference, parseImageReference } from '../../../client/oci/reference.ts';
import { loadRegistriesConfig } from '../../../client/oci/registry-config.ts';
import { OciRuntimeUnavailableError } from '../../oci-runtime/errors.ts';
import { OciRuntime, type OciContainer } from '../../oci-runtime/oci-runtime.ts';
import type { RunningContainer } from '../container-runtime.ts';
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
  /**
   * Whether an earlier agent left the container of this containerID (bosun-oci://<id>); if so it is the caller's
   * (a pod worker's, as it starts) to adopt, and removeUnclaimed spares it.
   */
  claim(containerID: string): boolean;
  /** Takes over the claimed container of this containerID, once; undefined if there is none. */
  adopt(containerID: string): RunningContainer | undefined;
  /** Kills and removes the containers no pod adopted; containers start only after it. */
  removeUnclaimed(): Promise<void>;
  /** Stops watching exits: the containers run on without this agent. */
  close(): void;
}

export const OCI_CONTAINER_ID_SCHEME = 'bosun-oci://';

/** Where the root file systems go: /run is root's and not the data dir, which no container user may enter. */
const ROOTFS_BASE = '/run/bosun-rootfs';

async function overlayAvailable(): Promise<boolean> {
  const filesystems = await readFile('/proc/filesystems', 'utf8').catch(() => '');
  // Not listed until the module loads: modprobe-less hosts that have it built in list it.
  return /\toverlay$/m.test(filesystems) || (await readFile('/sys/module/overlay/initstate', 'utf8').catch(() => '')) !== '';
}

export async function openImageRuntime(options: { mode: ContainerRuntimeMode; dataDir: string; cgroupParent: string; registryConfig?: string; publish: (images: ImageService) => Promise<void>; onError: (err: unknown) => void }): Promise<ImageRuntime | undefined> {
  if (options.mode === 'host') return undefined;
  let runtime: OciRuntime;
  try {
    if (!(await overlayAvailable())) throw new OciRuntimeUnavailableError('overlayfs is not available: running images needs it (modprobe overlay)');
    runtime = await OciRuntime.open({ stateDir: join(options.dataDir, 'oci') });
  } catch (error) {
    if (options.mode === 'auto' && error instanceof OciRuntimeUnavailableError) return undefined;
    // Its message names what is missing and, for a program, the Debian package.
    if (error instanceof OciRuntimeUnavailableError) throw new OciRuntimeUnavailableError(`--container-runtime oci: ${error.message}`);
    throw error;
  }
  const rootfsDir = join(ROOTFS_BASE, createHash('sha256').update(options.dataDir).digest('hex').slice(0, 12));
  for (const dir of [ROOTFS_BASE, rootfsDir]) {
    await mkdir(dir, { recursive: true, mode: 0o711 });
    await chmod(dir, 0o711);
  }
  // What an earlier agent on this data dir left running (or exited since): pod workers adopt what their pods' status names.
  const leftovers = new Map((await runtime.list()).map((container) => [`${OCI_CONTAINER_ID_SCHEME}${container.id}`, container]));
  // Claimed by a pod worker when it starts (before removeUnclaimed), adopted once its pod is set up again.
  const claimed = new Map<string, OciContainer>();
  let handled!: () => void;
  const leftoversHandled = new Promise<void>((resolve) => (handled = resolve));
  const registries = options.registryConfig !== undefined ? loadRegistriesConfig(options.registryConfig) : undefined;
  const puller = new ImagePuller({ root: join(options.dataDir, 'images'), ...(registries ? { registries } : {}) });
  const images = await ImageStore.open({ root: join(options.dataDir, 'images'), pull: (reference, pullOptions) => puller.pull(reference, pullOptions), normalizeReference: (reference) => formatReference(parseImageReference(reference)) });
  const containers = new ImageContainers({ runtime, images, cgroupParent: options.cgroupParent, rootfsDir, leftoversHandled });
  // One write at a time, each after the change that asked for it.
  let writes: Promise<void> = Promise.resolve();
  const after = (step: () => Promise<unknown>) => {
    writes = writes.then(step).then(() => options.publish(images)).catch(options.onError);
  };
  return {
    images,
    runtime,
    containers,
    changed: () => after(() => Promise.resolve()),
    collect: () => after(() => images.collectGarbage()),
    claim: (containerID) => {
      const container = leftovers.get(containerID);
      if (container === undefined) return false;
      leftovers.delete(containerID);
      claimed.set(containerID, container);
      return true;
    },
    adopt: (containerID) => {
      const container = claimed.get(containerID);
      if (container === undefined) return undefined;
      claimed.delete(containerID);
      return containers.adopt(container);
    },
    removeUnclaimed: async () => {
      const unclaimed = [...leftovers.values()];
      leftovers.clear();
      for (const container of unclaimed) await containers.discard(container).catch(options.onError);
      handled();
    },
    close: () => runtime.close(),
  };
}
