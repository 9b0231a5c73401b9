// The host-side ip commands of pods attaching (or detaching) at once, run by one `ip -force -batch` process:
// -force runs every line, and ip names each line that failed.
import { BatchQueue } from '../host-commands/batch-queue.ts';
import { HostCommandError, ipBatchScript, runHostCommand } from './host-command.ts';

export class IpBatcher {
  private readonly queue = new BatchQueue<readonly string[]>(runIpBatch);

  /** Runs one ip command (argv without the leading `ip`). */
  run(words: readonly string[]): Promise<void> {
    // Checked here so that one bad command fails alone instead of its whole batch.
    ipBatchScript([words]);
    return this.queue.run(words);
  }
}

/** Runs commands in one `ip -force -batch`; resolves with each one's failure (undefined where it succeeded). */
export async function runIpBatch(commands: readonly (readonly string[])[]): Promise<(Error | undefined)[]> {
  const failed = (i: number, stderr: string, spawnCode?: string) => new HostCommandError(['ip', ...(commands[i] ?? [])], stderr, spawnCode);
  try {
    await runHostCommand(['ip', '-force', '-batch', '-'], ipBatchScript(commands));
    return commands.map(() => undefined);
  } catch (error) {
    const stderr = error instanceof HostCommandError ? error.stderr : String(error);
    const results: (Error | undefined)[] = commands.map(() => undefined);
    let said: string[] = [];
    let named = false;
    for (const line of stderr.split('\n')) {
      const failure = /^Command failed -:(\d+)$/.exec(line);
      if (failure) {
        const i = Number(failure[1]) - 1;
        results[i] = failed(i, said.join('\n'));
        said = [];
        named = true;
      } else if (line !== '') {
        said.push(line);
      }
    }
    // ip did not start, or died without naming a line: every command failed.
    if (!named) return commands.map((_, i) => failed(i, stderr, error instanceof HostCommandError ? error.spawnCode : undefined));
    return results;
  }
}
