// A watch stream writes at most once per window. With many watchers and small commits, a socket write per
// event per watcher (a TLS record and a system call each) costs more than the events themselves: 100
// watchers at 1,000 events/s kept the event loop busy encrypting and fell seconds behind. The first event
// after a quiet window goes out at once; what follows within the window goes out together at its end.

/** How long events may wait for the ones after them: small beside the latency a watcher notices. */
export const WATCH_WRITE_WINDOW_MS = 10;

export class WatchWindow {
  private pending = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly send: (chunk: string) => void) {}

  write(line: string): void {
    if (this.timer) {
      this.pending += line;
      return;
    }
    this.send(line);
    this.timer = setTimeout(() => this.close(), WATCH_WRITE_WINDOW_MS);
  }

  /** What is still waiting, now, and no more windows (the stream is ending). */
  drain(): string {
    clearTimeout(this.timer);
    const rest = this.pending;
    this.pending = '';
    return rest;
  }

  private close(): void {
    this.timer = undefined;
    if (this.pending === '') return;
    const chunk = this.pending;
    this.pending = '';
    this.write(chunk);
  }
}
