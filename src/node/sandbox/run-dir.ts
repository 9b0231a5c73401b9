// The host-side files of a pod and of one container run:
//   <podDir>/etc/{hosts,hostname,resolv.conf}        bound into every container of the pod
//   <podDir>/containers/<name>/                       recreated at each start, removed at exit
//     rootfs/ skeleton/                               empty mount points for the new root and the skeleton tmpfs
//     scratch/{tmp,var-tmp,run,dev,root}/             the writable layer (/dev holds mount points for devices)
//     fstab  stdout  stderr                           the mount table and the output FIFOs
import { chmod, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxHostError } from './errors.ts';
import { DEVICE_NODES } from './mount-plan.ts';
import type { PodFacts } from './types.ts';

export interface PodFiles {
  hosts: string;
  hostname: string;
  resolvConf: string;
}

export interface RunDir {
  path: string;
  stagingRoot: string;
  skeleton: string;
  scratch: { tmp: string; varTmp: string; run: string; dev: string; root: string };
  fstab: string;
  stdoutFifo: string;
  stderrFifo: string;
}

const DEV_SYMLINKS: [string, string][] = [
  ['fd', '/proc/self/fd'],
  ['stdin', '/proc/self/fd/0'],
  ['stdout', '/proc/self/fd/1'],
  ['stderr', '/proc/self/fd/2'],
  ['ptmx', 'pts/ptmx'],
];

/**
 * Each container of a pod starts with these, while its siblings may already read them: a file is replaced
 * by rename (never truncated in place) and only when its content changes.
 */
async function replaceFile(path: string, content: string): Promise<void> {
  if ((await readFile(path, 'utf8').catch(() => undefined)) === content) return;
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(temporary, content, { mode: 0o644 });
  await rename(temporary, path);
}

export async function writePodFiles(pod: PodFacts): Promise<PodFiles> {
  const dir = join(pod.podDir, 'etc');
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const files = { hosts: join(dir, 'hosts'), hostname: join(dir, 'hostname'), resolvConf: join(dir, 'resolv.conf') };
  await Promise.all([replaceFile(files.hosts, pod.etcHosts), replaceFile(files.hostname, `${pod.hostname}\n`), replaceFile(files.resolvConf, pod.resolvConf)]);
  return files;
}

/** Where a container's runs live on the host: its writable layer (scratch/) is what ephemeral storage counts. */
export function containerRunPath(podDir: string, containerName: string): string {
  return join(podDir, 'containers', containerName);
}

export async function prepareRunDir(podDir: string, containerName: string): Promise<RunDir> {
  const path = containerRunPath(podDir, containerName);
  // The overlay's lowerdir option cannot quote these.
  if (/[,:\\\s]/.test(path)) throw new SandboxHostError(`the pod directory ${podDir} must not contain commas, colons, backslashes or whitespace`);
  await rm(path, { recursive: true, force: true });
  const run: RunDir = {
    path,
    stagingRoot: join(path, 'rootfs'),
    skeleton: join(path, 'skeleton'),
    scratch: { tmp: join(path, 'scratch', 'tmp'), varTmp: join(path, 'scratch', 'var-tmp'), run: join(path, 'scratch', 'run'), dev: join(path, 'scratch', 'dev'), root: join(path, 'scratch', 'root') },
    fstab: join(path, 'fstab'),
    stdoutFifo: join(path, 'stdout'),
    stderrFifo: join(path, 'stderr'),
  };
  await mkdir(path, { recursive: true, mode: 0o700 });
  await Promise.all([run.stagingRoot, run.skeleton, run.scratch.run, run.scratch.dev].map((dir) => mkdir(dir, { recursive: true, mode: 0o755 })));
  await mkdir(run.scratch.root, { mode: 0o700 });
  // mkdir's mode passes through the umask; the sticky world-writable bit must be exact.
  await Promise.all([run.scratch.tmp, run.scratch.varTmp].map(async (dir) => {
    await mkdir(dir, { recursive: true });
    await chmod(dir, 0o1777);
  }));
  await Promise.all([
    ...DEVICE_NODES.map((node) => writeFile(join(run.scratch.dev, node), '', { mode: 0o644 })),
    ...['pts', 'shm', 'mqueue'].map((dir) => mkdir(join(run.scratch.dev, dir), { mode: 0o755 })),
    ...DEV_SYMLINKS.map(([name, target]) => symlink(target, join(run.scratch.dev, name))),
  ]);
  return run;
}

export function removeRunDir(run: RunDir): Promise<void> {
  return rm(run.path, { recursive: true, force: true });
}
