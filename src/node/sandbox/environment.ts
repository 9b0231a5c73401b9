// The container's environment: what an image and the runtime would supply (PATH, HOSTNAME, HOME), then the
// container's own variables, later ones winning as kubelet dedupes them.
import type { EnvVar } from './types.ts';

export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export function containerEnvironment(env: EnvVar[] | undefined, hostname: string, home: string): Record<string, string> {
  const result: Record<string, string> = { PATH: DEFAULT_PATH, HOSTNAME: hostname, HOME: home };
  for (const { name, value } of env ?? []) result[name] = value;
  return result;
}
