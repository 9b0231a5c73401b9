// The kubectl versions the dispatcher on PATH bundles. The dispatcher (google-cloud-sdk's `kubectl`) picks one
// by the server's minor version; the versions sit beside it as `kubectl.1.NN`, and running one directly forces it.
import { execFileSync } from 'node:child_process';
import { readdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface BundledKubectl {
  readonly minor: number;
  readonly path: string;
}

export const expectedMinors = [27, 28, 29, 30, 31, 32, 33] as const;

export function bundledKubectls(): BundledKubectl[] {
  let dispatcher: string;
  try {
    dispatcher = realpathSync(execFileSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim());
  } catch {
    throw new Error('kubectl is not on PATH: the conformance matrix needs the google-cloud-sdk kubectl dispatcher with its bundled kubectl.1.NN');
  }
  const dir = dirname(dispatcher);
  return readdirSync(dir)
    .map((name) => /^kubectl\.1\.(\d+)$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ minor: Number(m[1]), path: join(dir, m[0]) }))
    .sort((a, b) => a.minor - b.minor);
}
