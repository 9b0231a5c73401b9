// Reads the setup channel: the two markers the setup script prints, and whatever the tools it runs
// (unshare, mount, pivot_root …) say when they fail, which becomes the StartError message.
import { EXEC_MARKER, PID_MARKER } from './scripts.ts';

export interface SetupEvents {
  /** The container's pid on the host (pid 1 in its own namespace). */
  pid(pid: number): void;
  /** The setup is done; the container's command is being executed. */
  exec(): void;
}

export class SetupReport {
  private pending = '';
  private readonly diagnostics: string[] = [];

  constructor(private readonly events: SetupEvents) {}

  write(chunk: string): void {
    const lines = (this.pending + chunk).split('\n');
    this.pending = lines.pop() ?? '';
    lines.forEach((line) => this.line(line));
  }

  end(): void {
    if (this.pending !== '') this.line(this.pending);
    this.pending = '';
  }

  /** What the setup's tools printed, for a StartError. */
  get message(): string {
    return this.diagnostics.join('\n').trim();
  }

  private line(line: string): void {
    if (line.startsWith(PID_MARKER)) this.events.pid(Number(line.slice(PID_MARKER.length)));
    else if (line === EXEC_MARKER) this.events.exec();
    else if (line.trim() !== '') this.diagnostics.push(line);
  }
}
