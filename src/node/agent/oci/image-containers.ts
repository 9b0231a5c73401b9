// Containers from images: an overlay root file system over the image's layers (upper and work directories per
// container under the pod's directory), an OCI spec from the resolved container and the image's config, run by
// runc under conmon. What it returns is a RunningContainer, as the host sandbox's handle is.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { mountOverlay, unmountOverlay } from '../../images/layers/overlay.ts';
import type { LocalImage, ImageService } from '../../images/types.ts';
import { containerId, type ContainerRecord, type OciContainer, type OciExit, type OciRuntime } from '../../oci-runtime/oci-runtime.ts';
import { buildRuntimeSpec, type BindMount } from '../../oci-runtime/runtime-spec.ts';
import { boundingSet } from '../../sandbox/capabilities.ts';
import { terminalResizer, type ContainerExit, type ExecOptions } from '../../sandbox/container-handle.ts';
import { findHostTools } from '../../sandbox/host-tools.ts';
import { ContainerNotRunningError, SandboxSpecError } from '../../sandbox/errors.ts';
import { limitsFor } from '../../sandbox/resource-limits.ts';
import type { StartRequest } from '../../sandbox/types.ts';
import type { ContainerRuntime, RunningContainer } from '../container-runtime.ts';
import { resolveImageUser } from './image-user.ts';
import { attachToLog } from './log-attach.ts';
import { tracePodStart } from '../../pod-start-trace.ts';

const DEFAULT_PATH = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** CAP_CHECKPOINT_RESTORE: the highest capability runc 1.1 knows. */
const LAST_CAP = 40;

/** The image's Env with the container's variables over it (by name), PATH defaulted as containerd does. */
export function mergeEnv(imageEnv: string[], containerEnv: { name: string; value: string }[]): string[] {
  const merged = new Map<string, string>();
  for (const entry of imageEnv) {
    const eq = entry.indexOf('=');
    merged.set(eq === -1 ? entry : entry.slice(0, eq), eq === -1 ? '' : entry.slice(eq + 1));
  }
  for (const v of containerEnv) merged.set(v.name, v.value);
  if (!merged.has('PATH')) merged.set('PATH', DEFAULT_PATH.slice('PATH='.length));
  return [...merged].map(([k, v]) => `${k}=${v}`);
}

function toContainerExit(exit: OciExit): ContainerExit {
  return { exitCode: exit.exitCode, signal: null, reason: exit.reason, finishedAt: exit.finishedAt, ...(exit.startedAt ? { startedAt: exit.startedAt } : {}) };
}

export interface ImageContainersOptions {
  runtime: OciRuntime;
  images: ImageService;
  /** The cgroupfs parent of every pod's containers (e.g. /bosun-oci-ab12). */
  cgroupParent: string;
  /**
   * Where the containers' root file systems are mounted: a directory every host user may pass through (0711), as
   * root in a user namespace must, unlike the data dir (0700), where the rest of a container's files live.
   */
  rootfsDir: string;
  /** Resolves once the containers an earlier agent left are adopted or removed: no new container starts before. */
  leftoversHandled: Promise<void>;
}

export class ImageContainers {
  constructor(private readonly options: ImageContainersOptions) {}

  /** A runtime that starts the given run of a container from image. */
  runtimeFor(image: LocalImage, attempt: number): ContainerRuntime {
    return { start: (request) => this.start(request, image, attempt) };
  }

  /** A container found after an agent restart, as the agent drives it: it holds its image until it is removed. */
  adopt(container: OciContainer): RunningContainer {
    const release = container.record.image ? this.options.images.use(container.record.image.imageID) : () => undefined;
    return this.wrap(container, () => this.cleanup(container.id, container.record, release));
  }

  /** Kills and removes a container an earlier agent left that no pod claims. */
  async discard(container: OciContainer): Promise<void> {
    if (container.isRunning) await container.stop(0);
    await this.cleanup(container.id, container.record, () => undefined);
  }

  private async cleanup(id: string, record: Pick<ContainerRecord, 'image'>, release: () => void): Promise<void> {
    release();
    await this.options.runtime.remove(id);
    if (record.image === undefined) return;
    await unmountOverlay(record.image.rootfs);
    await Promise.all([rm(record.image.rootfs, { recursive: true, force: true }), rm(record.image.scratchDir, { recursive: true, force: true })]);
  }

  private async start(request: StartRequest, image: LocalImage, attempt: number): Promise<RunningContainer> {
    await this.options.leftoversHandled;
    const { pod, container } = request;
    const id = containerId(pod.uid, container.name, attempt);
    const scratchDir = join(pod.podDir, 'oci', id);
    const rootfs = join(this.options.rootfsDir, id);
    const record = { image: { imageID: image.imageID, rootfs, scratchDir } };
    await Promise.all([
      ...['upper', 'work', 'etc'].map((d) => mkdir(join(scratchDir, d), { recursive: true, mode: 0o755 })),
      mkdir(rootfs, { recursive: true, mode: 0o755 }),
      mkdir(dirname(request.logPath), { recursive: true, mode: 0o755 }),
    ]);
    tracePodStart(pod.uid, 'dirs');
    await mountOverlay({ layerDirs: image.layerDirs, upperDir: join(scratchDir, 'upper'), workDir: join(scratchDir, 'work') }, rootfs);
    tracePodStart(pod.uid, 'overlay');
    const release = this.options.images.use(image.imageID);
    try {
      const spec = await this.spec(request, image, rootfs, scratchDir);
      tracePodStart(pod.uid, 'spec');
      const started = await this.options.runtime.start(spec, { podUid: pod.uid, containerName: container.name, attempt, logPath: request.logPath, ...record, ...(image.config.stopSignal ? { stopSignal: image.config.stopSignal } : {}) });
      return this.wrap(started, () => this.cleanup(id, record, release), container.stdin?.once === true);
    } catch (error) {
      await this.cleanup(id, record, release);
      throw error;
    }
  }

  private async spec(request: StartRequest, image: LocalImage, rootfs: string, dir: string) {
    const { pod, container } = request;
    const sc = container.securityContext ?? {};
    const fromImage = await resolveImageUser(rootfs, image.config.user);
    const uid = sc.runAsUser ?? fromImage.uid;
    const gid = sc.runAsGroup ?? (sc.runAsUser !== undefined ? 0 : fromImage.gid);
    if (sc.runAsNonRoot === true && uid === 0) {
      throw new SandboxSpecError('CreateContainerConfigError', sc.runAsUser === undefined ? 'container has runAsNonRoot and image will run as root' : 'container\'s runAsUser breaks non-root policy');
    }
    const etc = join(dir, 'etc');
    await Promise.all([writeFile(join(etc, 'hosts'), pod.etcHosts), writeFile(join(etc, 'hostname'), `${pod.hostname}\n`), writeFile(join(etc, 'resolv.conf'), pod.resolvConf)]);
    const mounts: BindMount[] = [
      ...['hosts', 'hostname', 'resolv.conf'].map((file) => ({ source: join(etc, file), destination: `/etc/${file}`, readOnly: sc.readOnlyRootFilesystem === true })),
      ...(container.volumeMounts ?? []).map((v) => ({ source: v.hostPath, destination: v.mountPath, readOnly: v.readOnly === true })),
    ];
    const limits = limitsFor(container);
    const cwd = container.workingDir ?? (image.config.workingDir || '/');
    return buildRuntimeSpec({
      process: {
        argv: container.argv,
        env: mergeEnv(image.config.env ?? [], container.env ?? []),
        cwd,
        uid,
        gid,
        ...(pod.supplementalGroups?.length ? { additionalGids: pod.supplementalGroups } : {}),
        capabilities: boundingSet(sc.capabilities, LAST_CAP),
        noNewPrivileges: sc.allowPrivilegeEscalation === false,
      },
      hostname: pod.hostname,
      rootfs,
      readonlyRootfs: sc.readOnlyRootFilesystem === true,
      mounts,
      network: pod.network.kind === 'namespace' ? { path: pod.network.path } : 'host',
      pidNamespace: pod.hostPID !== true,
      // By the container's name, as the host sandbox's: the Summary API reports containers by their cgroup's name.
      cgroupsPath: `${this.options.cgroupParent}/pod${pod.uid}/${container.name}`,
      limits: {
        ...(limits.memoryBytes !== undefined ? { memoryBytes: limits.memoryBytes } : {}),
        ...(limits.cpuQuotaUs !== undefined ? { cpuQuota: limits.cpuQuotaUs, cpuPeriod: 100_000 } : {}),
        ...(limits.cpuShares !== undefined ? { cpuShares: limits.cpuShares } : {}),
      },
      privileged: sc.privileged === true,
    });
  }

  /** forOneAttacher: stdinOnce (kubectl run -i): the first attach follows the log from its start, not its end. */
  private wrap(container: OciContainer, cleanup: () => Promise<void>, forOneAttacher = false): RunningContainer {
    let replayForAttach = forOneAttacher;
    const exited = container.exited.then(async (exit) => {
      await cleanup().catch(() => undefined);
      return toContainerExit(exit);
    });
    return {
      pid: container.pid,
      exited,
      get isRunning() {
        return container.isRunning;
      },
      stop: async (graceMs: number) => {
        await container.stop(graceMs);
        return exited;
      },
      exec: async (argv: string[], options?: ExecOptions) => {
        const process = await container.exec(argv, options);
        // runc exec -t copies its own terminal (script's) to the container's and passes its size on at SIGWINCH.
        if (options?.tty === true && process.pid !== undefined) process.resize = terminalResizer(await findHostTools(), process.pid, process.stdout);
        return process;
      },
      attach: () => {
        if (!container.isRunning) throw new ContainerNotRunningError('the container is not running');
        const fromStart = replayForAttach;
        replayForAttach = false;
        return attachToLog(container.record.logPath, container.pid, container.exited, fromStart);
      },
      commandPid: () => Promise.resolve(container.isRunning ? container.pid : undefined),
      cgroup: undefined,
    };
  }
}
