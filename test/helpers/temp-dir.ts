// A temporary directory that goes when the test process exits: helpers that hand out a directory without a close
// of their own (kubectl's cache, a kubeconfig) left ~200 MB in /tmp per full run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dirs = new Set<string>();

process.once('exit', () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

export function tempDirRemovedAtExit(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}
