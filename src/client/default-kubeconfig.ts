// Which kubeconfig file a Bosun command reads when it is given none: the one kubectl would read ($KUBECONFIG,
// else ~/.kube/config), and when that file does not exist, the one `bosun up` wrote into ./.bosun (so that
// `bosun tree` works beside a running `bosun up` on a machine without a kubeconfig).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface DefaultKubeconfig {
  path: string;
  /** True when kubectl's file does not exist and the local `bosun up`'s is used instead. */
  localBosunUp: boolean;
}

export function defaultKubeconfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): DefaultKubeconfig {
  // KUBECONFIG may list several files; like kubectl's loader, the first one names the primary.
  const fromEnv = env['KUBECONFIG']?.split(process.platform === 'win32' ? ';' : ':').find((p) => p !== '');
  const path = fromEnv ? resolve(cwd, fromEnv) : join(homedir(), '.kube', 'config');
  if (existsSync(path)) return { path, localBosunUp: false };
  const bosun = join(cwd, '.bosun', 'kubeconfig');
  return existsSync(bosun) ? { path: bosun, localBosunUp: true } : { path, localBosunUp: false };
}
