// The container sandbox: runs a container spec as a process in its own mount, PID, UTS, IPC and cgroup
// namespaces, as the container's user, in a per-container cgroup under its pod's, with its output in a CRI
// log. `docs/node.md` says what this isolates and what it does not.
import { chown, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { detectCgroupLayout, type CgroupLayout, type CgroupPlacement } from './cgroup-layout.ts';
import { CgroupTree, type ContainerCgroup, type PodProcesses } from './cgroup-tree.ts';
import { ContainerHandle, finalCommand, onTerminal } from './container-handle.ts';
import { identityCommand, resolveCredentials, type IdentityPolicy } from './credentials.ts';
import { containerEnvironment, DEFAULT_PATH } from './environment.ts';
import { ExecStartError, SandboxSpecError } from './errors.ts';
import { renderFstab } from './fstab.ts';
import { findHostTools, type HostTools } from './host-tools.ts';
import { planMounts, probeProtectedPaths, type MountPlan, type ProtectedPaths } from './mount-plan.ts';
import { readMountInfo } from './mountinfo.ts';
import { readPasswd } from './passwd.ts';
import { resolvePrivateDirs } from './private-dirs.ts';
import { limitsFor } from './resource-limits.ts';
import { prepareRunDir, removeRunDir, writePodFiles, type RunDir } from './run-dir.ts';
import { CONTAINER_SETUP } from './scripts.ts';
import type { StartRequest } from './types.ts';
import { tracePodStart } from '../pod-start-trace.ts';

export interface SandboxOptions {
  /** Where the pods' cgroups go; a node agent uses { placement: 'top', name: 'bosun' }. */
  cgroup: CgroupPlacement;
  /** Containers that set no runAsUser run as root (default: as defaultUser). */
  allowRootByDefault?: boolean;
  /** Who containers that set no runAsUser run as: nobody/nogroup unless said otherwise. */
  defaultUser?: { uid: number; gid: number };
  /** pids.max of each pod (kubelet's podPidsLimit). */
  podPidsLimit?: number;
  /**
   * pids.max of the root cgroup, every pod together: kubelet's pid_max minus --system-reserved pid. Default: the
   * kernel's pid_max less a quarter of it (at least 1024) kept for the host, so that pods cannot exhaust it.
   */
  nodePidsLimit?: number;
  /**
   * How long a container's setup may take to start its command; a setup still blocked then is killed and
   * start rejects with SandboxStartTimeoutError. Default: 2 minutes, kubelet's runtime request timeout.
   */
  startTimeoutMs?: number;
  /**
   * Host directories no container sees: each is an empty read-only directory in the container, and no host
   * mount at or below it is shown. A node agent names its data directory, so that no pod reads another's
   * volumes or logs. A container's own volumes may live inside one: they are bound by host path. Each must
   * exist; / is refused.
   */
  privateDirs?: string[];
}

const DEFAULT_USER = { uid: 65534, gid: 65534 };
const DEFAULT_POD_PIDS_LIMIT = 4096;
const DEFAULT_START_TIMEOUT_MS = 2 * 60_000;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const POD_UID = /^[A-Za-z0-9-]{1,64}$/;
const HOSTNAME = /^[A-Za-z0-9]([-A-Za-z0-9.]{0,62})$/;

/** pid_max less the host's reserve: a quarter of it, at least 1024. */
export function defaultNodePidsLimit(pidMax: number): number {
  return pidMax - Math.max(1024, Math.floor(pidMax / 4));
}

function validate(request: StartRequest): void {
  const { pod, container } = request;
  const invalid = (message: string) => new SandboxSpecError('CreateContainerConfigError', message);
  if (!POD_UID.test(pod.uid)) throw invalid(`metadata.uid: Invalid value: "${pod.uid}"`);
  if (!DNS_LABEL.test(container.name)) throw invalid(`name: Invalid value: "${container.name}": must be a DNS-1123 label`);
  if (!HOSTNAME.test(pod.hostname)) throw invalid(`hostname: Invalid value: "${pod.hostname}": must be a hostname of at most 64 characters`);
  if (container.argv.length === 0) throw new SandboxSpecError('CreateContainerError', 'no command specified');
  // env(1) takes a first word with "=" for a variable.
  if (container.argv[0]?.includes('=')) throw new SandboxSpecError('CreateContainerError', `the sandbox cannot run a command whose name contains "=": ${container.argv[0]}`);
  if (container.argv.some((arg) => arg.includes('\0'))) throw invalid('command: Invalid value: arguments must not contain NUL bytes');
  for (const { name, value } of container.env ?? []) {
    if (name === '' || /[=\0]/.test(name) || value.includes('\0')) throw invalid(`env: Invalid value: "${name}": a variable name must be non-empty without "=" and neither name nor value may contain NUL`);
  }
  const paths = [container.workingDir ?? '/', ...(container.volumeMounts ?? []).flatMap((v) => [v.mountPath, v.hostPath])];
  if (paths.some((path) => /[\n\0]/.test(path))) throw invalid('paths must not contain newlines or NUL bytes');
}

export class Sandbox {
  private constructor(
    private readonly tools: HostTools,
    private readonly cgroups: CgroupTree,
    private readonly protectedPaths: ProtectedPaths,
    private readonly lastCap: number,
    private readonly identity: IdentityPolicy,
    private readonly startTimeoutMs: number,
    private readonly privateDirs: string[],
  ) {}

  /** Checks the host (tools, cgroups) and creates the root cgroup. */
  static async open(options: SandboxOptions): Promise<Sandbox> {
    const [tools, mounts, protectedPaths, lastCapText, privateDirs, pidMaxText] = await Promise.all([
      findHostTools(),
      readMountInfo(),
      probeProtectedPaths(),
      readFile('/proc/sys/kernel/cap_last_cap', 'utf8'),
      resolvePrivateDirs(options.privateDirs ?? []),
      readFile('/proc/sys/kernel/pid_max', 'utf8'),
    ]);
    const pids = { pod: options.podPidsLimit ?? DEFAULT_POD_PIDS_LIMIT, node: options.nodePidsLimit ?? defaultNodePidsLimit(Number(pidMaxText)) };
    const cgroups = new CgroupTree(await detectCgroupLayout(mounts, options.cgroup), pids);
    await cgroups.ensureRoot();
    const identity = { allowRootByDefault: options.allowRootByDefault ?? false, defaultUser: options.defaultUser ?? DEFAULT_USER };
    return new Sandbox(tools, cgroups, protectedPaths, Number(lastCapText), identity, options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS, privateDirs);
  }

  get cgroupLayout(): CgroupLayout {
    return this.cgroups.layout;
  }

  /**
   * Starts a container. Resolves once its command runs, or with a handle whose exit is a StartError when the
   * command cannot start; rejects with SandboxSpecError for a spec that cannot be run as given, and with
   * SandboxStartTimeoutError when the setup blocks for longer than startTimeoutMs.
   */
  async start(request: StartRequest): Promise<ContainerHandle> {
    validate(request);
    const { pod, container, logPath } = request;
    tracePodStart(pod.uid, 'sandbox');
    const limits = limitsFor(container);
    const credentials = resolveCredentials(pod, container, this.identity, await readPasswd(), this.lastCap);
    const privileged = container.securityContext?.privileged === true;
    const [podFiles, run] = await Promise.all([writePodFiles(pod), prepareRunDir(pod.podDir, container.name)]);
    // The container's /root belongs to its user, as the host sees it.
    await chown(run.scratch.root, credentials.userNamespace?.hostUid ?? credentials.uid, credentials.userNamespace?.hostGid ?? credentials.gid);
    let cgroup: ContainerCgroup | undefined;
    tracePodStart(pod.uid, 'sandbox-files');
    try {
      const created = await this.cgroups.createContainer(pod.uid, container.name, limits, !privileged);
      tracePodStart(pod.uid, 'sandbox-cgroups');
      cgroup = created;
      const plan = await planMounts({
        hostMounts: await readMountInfo(),
        protectedPaths: this.protectedPaths,
        skeletonDir: run.skeleton,
        scratch: run.scratch,
        podFiles,
        cgroups: { version: this.cgroups.layout.version, dirs: created.placements },
        volumes: container.volumeMounts ?? [],
        privateDirs: this.privateDirs,
        workingDir: container.workingDir ?? '/',
        privileged,
        readOnlyRootFilesystem: container.securityContext?.readOnlyRootFilesystem === true,
      });
      const env = containerEnvironment(container.env, pod.hostname, credentials.home);
      try {
        await plan.view.lookPath(container.argv[0] ?? '', env.PATH ?? DEFAULT_PATH, plan.workingDir);
      } catch (error) {
        if (!(error instanceof ExecStartError)) throw error;
        await Promise.all([created.destroy(), removeRunDir(run)]);
        return ContainerHandle.startError(error.message);
      }
      await Promise.all([writeFile(run.fstab, renderFstab(plan.mounts, run.stagingRoot)), mkdir(dirname(logPath), { recursive: true })]);
      tracePodStart(pod.uid, 'sandbox-launch');
      const pidNamespace = !(pod.hostPID === true || privileged);
      const identity = identityCommand(this.tools, credentials);
      return await ContainerHandle.launch({
        tools: this.tools,
        stage0Args: this.stage0Args(request, run, created, plan, pidNamespace, identity, env),
        run,
        logPath,
        startTimeoutMs: this.startTimeoutMs,
        ...(container.stdin ? { stdin: container.stdin } : {}),
        ...(container.tty ? { tty: true } : {}),
        cgroup: created,
        view: plan.view,
        namespaces: ['-m', '-u', '-i', '-C', ...(pidNamespace ? ['-p'] : []), ...(pod.network.kind === 'namespace' ? ['-n'] : [])],
        workingDir: plan.workingDir,
        identity,
        env,
      });
    } catch (error) {
      await Promise.all([cgroup?.destroy(), removeRunDir(run)]);
      throw error;
    }
  }

  /** CONTAINER_STAGE0's arguments: the whole process chain of scripts.ts as one command line. */
  private stage0Args(request: StartRequest, run: RunDir, cgroup: ContainerCgroup, plan: MountPlan, pidNamespace: boolean, identity: string[], env: Record<string, string>): string[] {
    const t = this.tools;
    const { network } = request.pod;
    const joinNetwork = network.kind === 'namespace' ? [t.nsenter, `--net=${network.path}`, '--'] : [];
    const unshare = [t.unshare, '--mount', '--uts', '--ipc', '--cgroup', ...(pidNamespace ? ['--pid'] : []), '--propagation', 'private', '--'];
    const skeletonList = (paths: Set<string>) => [...paths].sort().map((p) => join(run.skeleton, p)).join('\n');
    const setup = [t.sh, '-c', CONTAINER_SETUP, 'bosun-sandbox', request.pod.hostname, run.skeleton, skeletonList(plan.view.skeletonDirs), skeletonList(plan.view.skeletonFiles), run.fstab, run.stagingRoot, plan.workingDir, t.mount, t.umount, t.pivot_root, t.mkdir, request.container.stdin ? '1' : ''];
    const argv = request.container.tty ? onTerminal(t, request.container.argv) : request.container.argv;
    return [t.mkfifo, run.stdoutFifo, run.stderrFifo, ...cgroup.procsFiles, '--', ...joinNetwork, ...unshare, t.timeout, '--foreground', '0', ...setup, ...finalCommand(t, identity, env, argv)];
  }

  /** The pods whose cgroups exist, with their live processes: what an agent adopts or kills after a restart. */
  listPods(): Promise<PodProcesses[]> {
    return this.cgroups.listPods();
  }

  /** Kills every process of a pod and removes its cgroups. */
  destroyPod(podUid: string): Promise<void> {
    return this.cgroups.destroyPod(podUid);
  }

  /** Removes the sandbox's root cgroups if no pod is left in them (an agent that stopped its pods). */
  close(): Promise<void> {
    return this.cgroups.removeRoot();
  }
}
