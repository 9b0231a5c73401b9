// kubelet's AtomicWriter: a volume's files are written into a fresh timestamped directory, `..data` is switched
// to it by renaming a symlink (atomic), and each top-level name is a symlink through `..data`. A container
// therefore sees either the old or the new set of files, never a mix, and a rewrite (a changed ConfigMap,
// Secret or pod label) replaces the content in one step; an unchanged payload is not written again.
import { chmod, mkdir, mkdtemp, readFile, readdir, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SandboxSpecError } from '../../sandbox/errors.ts';

export interface ProjectedFile {
  content: Buffer;
  mode: number;
}

/** path relative to the volume → file. */
export type Payload = Map<string, ProjectedFile>;

const DATA_LINK = '..data';
const DATA_LINK_TMP = '..data_tmp';
/** The data directories this writer makes; only these are ever removed. */
const TIMESTAMPED_DIR = /^\.\.\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_\d{2}\.[^/]+$/;

/** kubelet's validatePath: relative, no `..` element, not starting with `..` (kubelet's own names). */
export function validatePayloadPath(path: string): void {
  const invalid =
    path === '' || path.startsWith('/') || path.startsWith('..') || path.split('/').some((part) => part === '..' || part.length > 255) || path.length > 4096;
  if (invalid) throw new SandboxSpecError('CreateContainerConfigError', `invalid path ${JSON.stringify(path)}: must be relative, must not contain '..' and must not start with '..'`);
}

function timestampPrefix(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `..${now.getUTCFullYear()}_${pad(now.getUTCMonth() + 1)}_${pad(now.getUTCDate())}_${pad(now.getUTCHours())}_${pad(now.getUTCMinutes())}_${pad(now.getUTCSeconds())}.`;
}

/** Creates dir/sub's missing directories 0755 whatever the agent's umask, so any container user can traverse them. */
async function makeDirs(dir: string, sub: string): Promise<void> {
  let current = dir;
  for (const part of sub === '.' ? [] : sub.split('/')) {
    current = join(current, part);
    if ((await mkdir(current).catch((error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? null : Promise.reject(error)))) !== null) await chmod(current, 0o755);
  }
}

/** Every file and directory under dir, relative to it. */
async function pathsUnder(dir: string): Promise<Set<string>> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return new Set(entries);
}

/** kubelet's shouldWritePayload and pathsToRemove: true when a file's content differs or a previous path goes. */
async function payloadDiffers(oldDir: string, payload: Payload): Promise<boolean> {
  const wanted = new Set<string>();
  for (const path of payload.keys()) for (let sub = path; sub !== '.' && sub !== ''; sub = dirname(sub)) wanted.add(sub);
  const files = [...payload];
  const [present, onDisk] = await Promise.all([pathsUnder(oldDir), Promise.all(files.map(([path]) => readFile(join(oldDir, path)).catch(() => undefined)))]);
  for (const path of present) if (!wanted.has(path)) return true;
  return files.some(([, file], i) => !onDisk[i]?.equals(file.content));
}

async function writePayloadFile(dataDir: string, path: string, file: ProjectedFile): Promise<void> {
  const target = join(dataDir, path);
  await makeDirs(dataDir, dirname(path));
  await writeFile(target, file.content, { mode: file.mode });
  // writeFile's mode is narrowed by the umask; the volume's mode is not.
  await chmod(target, file.mode);
}

/** A symbolic link at path unless something is there already (true when it was made). */
function linkUnlessPresent(target: string, path: string): Promise<boolean> {
  return symlink(target, path).then(
    () => true,
    (error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? false : Promise.reject(error)),
  );
}

/** Removes what targetDir holds of an earlier payload: its data directory (or a failed write's) and its names' links. */
async function removePrevious(targetDir: string, current: string, visible: Set<string>): Promise<void> {
  await Promise.all(
    (await readdir(targetDir)).map(async (name) => {
      if (TIMESTAMPED_DIR.test(name) && name !== current) await rm(join(targetDir, name), { recursive: true, force: true });
      if (name.startsWith('..') || visible.has(name)) return;
      const target = await readlink(join(targetDir, name)).catch(() => undefined);
      if (target?.startsWith(`${DATA_LINK}/`)) await rm(join(targetDir, name));
    }),
  );
}

/**
 * Writes payload into targetDir (which must exist) as kubelet's AtomicWriter lays it out; false, writing nothing,
 * when the volume already holds exactly that content (kubelet compares contents, not modes). Independent steps
 * run side by side: in a burst of pods each step waits its turn in the thread pool, so the number of steps one
 * after another is what a volume's set-up takes.
 */
export async function writeAtomically(targetDir: string, payload: Payload): Promise<boolean> {
  for (const path of payload.keys()) validatePayloadPath(path);
  const previous = await readlink(join(targetDir, DATA_LINK)).catch(() => undefined);
  if (previous !== undefined && !(await payloadDiffers(join(targetDir, previous), payload))) return false;
  const dataDir = await mkdtemp(join(targetDir, timestampPrefix(new Date())));
  await Promise.all([chmod(dataDir, 0o755), ...[...payload].map(([path, file]) => writePayloadFile(dataDir, path, file))]);
  const current = basename(dataDir);
  const tmpLink = join(targetDir, DATA_LINK_TMP);
  // A link left by a write that failed here is replaced.
  if (!(await linkUnlessPresent(current, tmpLink))) {
    await rm(tmpLink, { force: true });
    await symlink(current, tmpLink);
  }
  await rename(tmpLink, join(targetDir, DATA_LINK));

  const visible = new Set([...payload.keys()].map((path) => path.split('/')[0] ?? path));
  await Promise.all([...visible].map((name) => linkUnlessPresent(join(DATA_LINK, name), join(targetDir, name))));
  // Names of the previous payload that the new one lacks, then the previous data (and any a failed write left).
  await removePrevious(targetDir, current, visible);
  return true;
}
