// Which kubeconfig file a Bosun command reads when it is given none: $KUBECONFIG, else the one `bosun up`
// wrote into ./.bosun, else ~/.kube/config (so `bosun tree` works right after `bosun up`).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function defaultKubeconfigPath(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  // KUBECONFIG may list several files; like kubectl's loader, the first one names the primary.
  const fromEnv = env['KUBECONFIG']?.split(process.platform === 'win32' ? ';' : ':').find((p) => p !== '');
  if (fromEnv) return resolve(cwd, fromEnv);
  const bosun = join(cwd, '.bosun', 'kubeconfig');
  if (existsSync(bosun)) return bosun;
  return join(homedir(), '.kube', 'config');
}
