// Runs `bosun helm ARGS` in this process from a directory, capturing what it writes.
import { helmCommand } from '../../../src/cli/commands/helm.ts';

export interface HelmRun {
  stdout: string;
  stderr: string;
  /** Both, in the order written (as a golden file of cmd/helm records them). */
  combined: string;
}

export async function runBosunHelm(args: string[], cwd: string): Promise<HelmRun> {
  const run: HelmRun = { stdout: '', stderr: '', combined: '' };
  const writer = (stream: 'stdout' | 'stderr') => (chunk: string | Uint8Array): boolean => {
    run[stream] += chunk.toString();
    run.combined += chunk.toString();
    return true;
  };
  const before = process.cwd();
  const [out, err] = [process.stdout.write, process.stderr.write];
  process.stdout.write = writer('stdout') as typeof process.stdout.write;
  process.stderr.write = writer('stderr') as typeof process.stderr.write;
  process.chdir(cwd);
  try {
    await helmCommand().exitOverride().parseAsync(args, { from: 'user' });
  } finally {
    process.chdir(before);
    process.stdout.write = out;
    process.stderr.write = err;
    process.exitCode = 0;
  }
  return run;
}
