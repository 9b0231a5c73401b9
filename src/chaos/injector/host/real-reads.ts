// HostReads on the real host (used in dry-run too: reading changes nothing).
import { access, readFile } from 'node:fs/promises';
import type { HostReads } from './host-reads.ts';
import { runCommand } from './real-writes.ts';

export function createRealReads(): HostReads {
  return {
    readFile: (path) => readFile(path, 'utf8'),
    exists: async (path) => {
      try {
        await access(path);
        return true;
      } catch {
        return false;
      }
    },
    run: runCommand,
  };
}
