// Running a document's shell blocks as a user would: bash in a directory whose .bosun/kubeconfig is the test's
// server, `bosun` being bin/bosun.js (as `npm link` or `npx` resolve it), a fresh HOME for kubectl's cache.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const root = join(import.meta.dirname, '..', '..');

/** The ```sh blocks of a Markdown file (a path below the repository), in order. */
export function shellBlocks(file: string): string[] {
  return [...readFileSync(join(root, file), 'utf8').matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)].map((m) => m[2]!.replace(new RegExp(`^${m[1]!}`, 'gm'), ''));
}

export interface Shell {
  /** Runs the script with `set -euo pipefail`; resolves with its stdout, rejects with its exit and output. */
  run(script: string): Promise<string>;
}

export function shellIn(dir: string, kubeconfig: string): Shell {
  const prelude = `set -euo pipefail\nbosun() { "${process.execPath}" "${join(root, 'bin', 'bosun.js')}" "$@"; }\nnpx() { "$@"; }\n`;
  return {
    run: (script) =>
      new Promise((resolve, reject) => {
        const child = spawn('bash', ['-c', prelude + script], { cwd: dir, env: { ...process.env, HOME: dir, KUBECONFIG: kubeconfig } });
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}:\n${script}\nstdout: ${out}\nstderr: ${err}`))));
      }),
  };
}

/** Drops starting Bosun (the test runs it) and the KUBECONFIG export (set already); --watch would never end. */
export const runnable = (block: string): string =>
  block.split('\n').filter((l) => !/^(npx bosun up|bosun up|export KUBECONFIG=)/.test(l)).map((l) => l.replace(' --watch', '')).join('\n');
