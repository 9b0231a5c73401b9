// The host-side ip commands of pods attaching (or detaching) at once, run by one `ip -force -batch` process
// instead of one process each: starting a process is most of an attach's cost, and a hundred pods start at once.
// A command waits only while an earlier batch runs; -force runs every line, and ip names each failing line.
import { HostCommandError, ipBatchScript, runHostCommand } from './host-command.ts';

interface Queued {
  words: readonly string[];
  resolve: () => void;
  reject: (error: HostCommandError) => void;
}

export class IpBatcher {
  private queue: Queued[] = [];
  private running = false;

  /** Runs one ip command (argv without the leading `ip`). */
  run(words: readonly string[]): Promise<void> {
    // Checked here so that one bad command fails alone instead of its whole batch.
    ipBatchScript([words]);
    return new Promise((resolve, reject) => {
      this.queue.push({ words, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      const failures = await runBatch(batch.map((queued) => queued.words));
      batch.forEach((queued, i) => {
        const failure = failures.get(i + 1);
        if (failure === undefined) queued.resolve();
        else queued.reject(new HostCommandError(['ip', ...queued.words], failure.stderr, failure.spawnCode));
      });
    }
    this.running = false;
  }
}

/** Runs the commands; the failed ones by line number (from 1) with ip's words about them. */
async function runBatch(commands: readonly (readonly string[])[]): Promise<Map<number, { stderr: string; spawnCode?: string }>> {
  const failures = new Map<number, { stderr: string; spawnCode?: string }>();
  try {
    await runHostCommand(['ip', '-force', '-batch', '-'], ipBatchScript(commands));
    return failures;
  } catch (error) {
    const stderr = error instanceof HostCommandError ? error.stderr : String(error);
    const spawnCode = error instanceof HostCommandError ? error.spawnCode : undefined;
    let said: string[] = [];
    for (const line of stderr.split('\n')) {
      const failed = /^Command failed -:(\d+)$/.exec(line);
      if (failed) {
        failures.set(Number(failed[1]), { stderr: said.join('\n') });
        said = [];
      } else if (line !== '') {
        said.push(line);
      }
    }
    // ip did not start, or died without naming a line: every command failed.
    if (failures.size === 0) commands.forEach((_, i) => failures.set(i + 1, { stderr, ...(spawnCode === undefined ? {} : { spawnCode }) }));
    return failures;
  }
}
