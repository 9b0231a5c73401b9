// The container's file tree as the sandbox assembles it: a stack of layers (the host's root, its other
// mounts, volumes, scratch directories, /proc …), each mapping a container path to where it lives on the
// host. Paths are resolved the way the kernel will resolve them inside the container, symbolic links
// included, so that every mount target the sandbox hands to mount(8) is free of links and lands where the
// container will look; missing mount points are created where the container would see them.
import { lstat, mkdir, readlink, stat, writeFile } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, isAbsolute, join, posix } from 'node:path';
import { ExecStartError, SandboxSpecError } from './errors.ts';

export interface Layer {
  /** Where the layer is mounted, canonical. */
  containerPath: string;
  /** The host path shown at containerPath; undefined when the host has no equivalent (a fresh /proc). */
  source: string | undefined;
  /** Where missing mount points go: the skeleton tmpfs under the root, the source itself, or nowhere. */
  create: 'skeleton' | 'source' | 'never';
  /** What the layer is, for error messages. */
  description: string;
}

interface Resolved {
  /** Canonical container path. */
  path: string;
  layer: Layer;
  exists: boolean;
}

const MAX_SYMLINKS = 40;

/** Whether path is ancestor or lies below it (both canonical). */
export function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || ancestor === '/' || path.startsWith(`${ancestor}/`);
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

export class ContainerView {
  private readonly layers: Layer[] = [];
  /** Directories and empty files the skeleton tmpfs must hold (container paths). */
  readonly skeletonDirs = new Set<string>();
  readonly skeletonFiles = new Set<string>();

  constructor(root: Layer) {
    this.layers.push(root);
  }

  addLayer(layer: Layer): void {
    this.layers.push(layer);
  }

  /** The topmost layer covering path: later layers are mounted over earlier ones. */
  private layerAt(path: string): Layer {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const layer = this.layers[i] as Layer;
      if (isWithin(path, layer.containerPath)) return layer;
    }
    throw new Error(`no layer covers ${path}`);
  }

  private hostPathOf(path: string, layer: Layer): string | undefined {
    if (layer.source === undefined) return undefined;
    return join(layer.source, path.slice(layer.containerPath === '/' ? 0 : layer.containerPath.length));
  }

  /** Resolves path component by component inside the container's view, following symbolic links there. */
  async resolve(path: string): Promise<Resolved> {
    let pending = posix.normalize(path).split('/').filter((p) => p !== '');
    let current = '/';
    let links = 0;
    while (pending.length > 0) {
      const part = pending.shift() as string;
      if (part === '.') continue;
      if (part === '..') {
        current = dirname(current);
        continue;
      }
      const next = join(current, part);
      const layer = this.layerAt(next);
      // A layer's own mount point exists by construction.
      if (layer.containerPath === next) {
        current = next;
        continue;
      }
      const host = this.hostPathOf(next, layer);
      const stats = host === undefined ? undefined : await lstatOrUndefined(host);
      if (stats?.isSymbolicLink()) {
        if (++links > MAX_SYMLINKS) throw new SandboxSpecError('CreateContainerError', `${path}: too many levels of symbolic links`);
        const target = await readlink(host as string);
        pending = [...target.split('/').filter((p) => p !== ''), ...pending];
        if (isAbsolute(target)) current = '/';
        continue;
      }
      if (stats === undefined && !this.skeletonDirs.has(next)) {
        const missing = join(next, ...pending);
        return { path: missing, layer: this.layerAt(missing), exists: false };
      }
      current = next;
    }
    return { path: current, layer: this.layerAt(current), exists: true };
  }

  /** The canonical path of a mount target, created (in the skeleton or the layer's source) when missing. */
  async ensureMountPoint(path: string, type: 'dir' | 'file'): Promise<string> {
    const resolved = await this.resolve(path);
    if (resolved.exists) return resolved.path;
    const { layer } = resolved;
    if (layer.create === 'never') {
      throw new SandboxSpecError('CreateContainerError', `cannot create the mount point ${path}: it lies in ${layer.description}, which the sandbox does not let containers add to`);
    }
    if (layer.create === 'skeleton') {
      for (let dir = type === 'dir' ? resolved.path : dirname(resolved.path); dir !== '/'; dir = dirname(dir)) this.skeletonDirs.add(dir);
      if (type === 'file') this.skeletonFiles.add(resolved.path);
      return resolved.path;
    }
    const host = this.hostPathOf(resolved.path, layer) as string;
    await mkdir(type === 'dir' ? host : dirname(host), { recursive: true });
    if (type === 'file') await writeFile(host, '', { flag: 'a' });
    return resolved.path;
  }

  private async isExecutable(path: string): Promise<'yes' | 'missing' | 'denied'> {
    const resolved = await this.resolve(path);
    const host = this.hostPathOf(resolved.path, resolved.layer);
    if (!resolved.exists || host === undefined) return 'missing';
    const stats = await stat(host).catch(() => undefined);
    if (stats === undefined) return 'missing';
    return stats.isFile() && (stats.mode & 0o111) !== 0 ? 'yes' : 'denied';
  }

  /**
   * Go's exec.LookPath inside the container, with runc's messages: throws ExecStartError unless command names
   * an executable file there (env(1) later finds the same one through the same PATH).
   */
  async lookPath(command: string, pathVariable: string, workingDir: string): Promise<void> {
    if (command.includes('/')) {
      const verdict = await this.isExecutable(isAbsolute(command) ? command : join(workingDir, command));
      if (verdict === 'missing') throw new ExecStartError(`exec: "${command}": stat ${command}: no such file or directory`);
      if (verdict === 'denied') throw new ExecStartError(`exec: "${command}": permission denied`);
      return;
    }
    for (const entry of pathVariable.split(':')) {
      const dir = entry === '' ? '.' : entry;
      const candidate = isAbsolute(dir) ? join(dir, command) : join(workingDir, dir, command);
      if ((await this.isExecutable(candidate)) === 'yes') return;
    }
    throw new ExecStartError(`exec: "${command}": executable file not found in $PATH`);
  }
}
