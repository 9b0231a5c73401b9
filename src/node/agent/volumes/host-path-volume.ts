// hostPath volumes: a path of the node bound as it is, after kubelet's type check. The agent never creates,
// changes or removes anything there except what DirectoryOrCreate and FileOrCreate ask for.
import { mkdir, open, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { Stats } from 'node:fs';
import type { HostPathVolumeSource } from '../../../apimachinery/api/index.ts';
import type { MaterialisedVolume } from './types.ts';
import { volumeSetUpError } from './volume-errors.ts';
import { messageOf } from '../../../apimachinery/error-message.ts';

type Check = { test: (stats: Stats) => boolean; is: string };

const CHECKS: Record<string, Check> = {
  Directory: { test: (s) => s.isDirectory(), is: 'a directory' },
  File: { test: (s) => s.isFile(), is: 'a file' },
  Socket: { test: (s) => s.isSocket(), is: 'a socket file' },
  CharDevice: { test: (s) => s.isCharacterDevice(), is: 'a character device' },
  BlockDevice: { test: (s) => s.isBlockDevice(), is: 'a block device' },
};

async function create(path: string, type: 'DirectoryOrCreate' | 'FileOrCreate'): Promise<void> {
  if (type === 'DirectoryOrCreate') await mkdir(path, { recursive: true, mode: 0o755 });
  else await (await open(path, 'a', 0o644)).close();
}

/** kubelet's checkType: the *OrCreate types create a missing path, every type then checks what is there. */
async function checkType(path: string, type: string): Promise<void> {
  if (type === '') return;
  const check = CHECKS[type.replace(/OrCreate$/, '')];
  if (check === undefined || (type.endsWith('OrCreate') && type !== 'DirectoryOrCreate' && type !== 'FileOrCreate')) {
    throw new Error(`${type} is an invalid volume type`);
  }
  const stats = await stat(path).catch(() => undefined);
  if (stats === undefined && (type === 'DirectoryOrCreate' || type === 'FileOrCreate')) return create(path, type);
  if (stats === undefined || !check.test(stats)) throw new Error(`hostPath type check failed: ${path} is not ${check.is}`);
}

export async function hostPathVolume(name: string, source: HostPathVolumeSource): Promise<MaterialisedVolume> {
  if (!isAbsolute(source.path)) throw volumeSetUpError(name, `hostPath ${JSON.stringify(source.path)} must be an absolute path`);
  try {
    await checkType(source.path, source.type ?? '');
  } catch (error) {
    throw volumeSetUpError(name, messageOf(error));
  }
  return { hostPath: source.path, readOnly: false };
}
