// Running a document's shell blocks as a user would: bash in a directory whose .bosun/kubeconfig is the test's
// server, `bosun` being bin/bosun.js (as `npm link` or `npx` resolve it), a fresh HOME for kubectl's cache.
import assert from 'node:assert/strict';
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

/** Starting Bosun, with or without environment variables before it (the test runs it). */
export const startsBosun = (line: string): boolean => /^([A-Z_]+=\S*\s+)*(npx bosun up|bosun up)\b/.test(line);

/** Drops starting Bosun (the test runs it) and the KUBECONFIG export (set already); --watch would never end. */
export const runnable = (block: string): string =>
  block.split('\n').filter((l) => !startsBosun(l) && !/^export KUBECONFIG=/.test(l)).map((l) => l.replace(' --watch', '')).join('\n');

/** The commands of a README's ```sh blocks that a test runs, one per line (continuations joined). */
export function readmeLines(file: string): string[] {
  return shellBlocks(file)
    .map(runnable)
    .join('\n')
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((l) => l.trim() !== '');
}

/** What a line's trailing comment says it prints, for a jsonpath read: `… -o jsonpath='{.data}'   # hello-a-b-c`. */
function expectedOutput(line: string): string | undefined {
  return /-o jsonpath=('[^']*'|\S+)\s+#\s+(.+)$/.exec(line)?.[2]?.trim();
}

/** The output has the expected text as whole words ("Injected" is not in "NotInjected"). */
function printsWords(out: string, expected: string): boolean {
  return new RegExp(`(^|\\s)${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`).test(out);
}

/**
 * Runs one README line as a user would: a `kubectl get` line is read again until it succeeds, as a user reads
 * again while a job runs, and a `-o jsonpath` line with a trailing `# text` comment must print that text (60 s).
 */
export async function runLine(sh: Shell, line: string): Promise<void> {
  const command = line.replace(/\s+#.*$/, '');
  if (!/^kubectl get\b/.test(command)) {
    await sh.run(command);
    return;
  }
  const expected = expectedOutput(line);
  const deadline = Date.now() + 60_000;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    const result = await sh.run(command).then(
      (out) => ({ out, error: undefined }),
      (error: unknown) => ({ out: '', error }),
    );
    if (result.error === undefined && (expected === undefined || printsWords(result.out, expected))) return;
    if (Date.now() > deadline) {
      if (result.error) throw result.error;
      assert.fail(`${command}: printed ${JSON.stringify(result.out)}, the README says ${JSON.stringify(expected)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
