// The host programs the sandbox is built from, found once by absolute path. All of them are in Debian's
// Essential set (util-linux, mount, coreutils, bsdutils, dash, bash), so a fresh machine has them; absolute paths keep the
// container's own PATH out of the sandbox's setup.
import { access, constants } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxHostError } from './errors.ts';

const SEARCH_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

const TOOL_PACKAGES = {
  sh: 'dash',
  bash: 'bash',
  unshare: 'util-linux',
  nsenter: 'util-linux',
  setpriv: 'util-linux',
  pivot_root: 'util-linux',
  mount: 'mount',
  umount: 'mount',
  timeout: 'coreutils',
  env: 'coreutils',
  mkdir: 'coreutils',
  mkfifo: 'coreutils',
  stty: 'coreutils',
  // A terminal for `kubectl exec -t`: script runs the command on a new pseudo-terminal.
  script: 'bsdutils',
} as const;

export type HostTools = Record<keyof typeof TOOL_PACKAGES, string>;

async function findTool(name: string): Promise<string | undefined> {
  for (const dir of SEARCH_PATH) {
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

export async function findHostTools(): Promise<HostTools> {
  const names = Object.keys(TOOL_PACKAGES) as (keyof typeof TOOL_PACKAGES)[];
  const found = await Promise.all(names.map(findTool));
  const missing = names.filter((_, i) => found[i] === undefined);
  if (missing.length > 0) {
    const packages = [...new Set(missing.map((name) => TOOL_PACKAGES[name]))].join(' ');
    throw new SandboxHostError(`the sandbox needs ${missing.join(', ')} on the host; install the Debian packages: ${packages}`);
  }
  return Object.fromEntries(names.map((name, i) => [name, found[i]])) as HostTools;
}
