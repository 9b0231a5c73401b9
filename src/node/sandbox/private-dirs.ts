// The host directories no container may see (the agent's data directory: every pod's volumes, logs and run
// directories). They are compared with mount points from /proc/self/mountinfo, which are canonical, so each
// is resolved once, when the sandbox opens.
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { isWithin } from './container-view.ts';
import { SandboxHostError } from './errors.ts';

/** Canonical, existing directories other than /, without any that lies inside another (its cover would be unreachable). */
export async function resolvePrivateDirs(dirs: readonly string[]): Promise<string[]> {
  const resolved = await Promise.all(dirs.map(async (dir) => {
    if (!isAbsolute(dir)) throw new SandboxHostError(`privateDirs: "${dir}" must be an absolute path`);
    const canonical = await realpath(dir).catch((error: NodeJS.ErrnoException) => {
      throw new SandboxHostError(`privateDirs: "${dir}" cannot be resolved: ${error.code ?? error.message}`);
    });
    if (!(await stat(canonical)).isDirectory()) throw new SandboxHostError(`privateDirs: "${dir}" is not a directory`);
    if (canonical === '/') throw new SandboxHostError(`privateDirs: "${dir}" is the root directory; containers could not see the host's programs`);
    return canonical;
  }));
  const unique = [...new Set(resolved)];
  return unique.filter((dir) => !unique.some((other) => other !== dir && isWithin(dir, other))).sort();
}
