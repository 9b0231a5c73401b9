// The data directory: created on first start, locked against a second instance, checked for readability.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, accessSync, constants } from 'node:fs';
import { join } from 'node:path';

export class DataDirError extends Error {
  override readonly name = 'DataDirError' as const;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the data dir's lock file; returns its release function. A stale lock (dead pid) is taken over. */
export function lockDataDir(dir: string): () => void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.R_OK | constants.W_OK);
  } catch (error) {
    throw new DataDirError(`data dir ${dir} is not usable: ${(error as Error).message}`);
  }
  const lock = join(dir, 'bosun.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new DataDirError(`cannot lock data dir ${dir}: ${(error as Error).message}`);
      const pid = Number(existsSync(lock) ? readFileSync(lock, 'utf8') : 0);
      if (pid > 0 && pid !== process.pid && alive(pid)) {
        throw new DataDirError(`another bosun (pid ${pid}) is already using data dir ${dir}`);
      }
      rmSync(lock, { force: true });
    }
  }
  throw new DataDirError(`cannot lock data dir ${dir}`);
}
