// A tiny deduplicating queue for the server's own controllers: keys are processed on the next turn of the
// event loop (never inside a store listener), and a failing key retries with exponential backoff.

export class KeyQueue {
  private readonly pending = new Set<string>();
  private readonly failures = new Map<string, number>();
  private scheduled = false;
  private stopped = false;

  private readonly process: (key: string) => void;
  private readonly onError: (key: string, error: unknown) => void;

  constructor(process: (key: string) => void, onError: (key: string, error: unknown) => void) {
    this.process = process;
    this.onError = onError;
  }

  add(key: string): void {
    if (this.stopped) return;
    this.pending.add(key);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  private drain(): void {
    this.scheduled = false;
    const keys = [...this.pending];
    this.pending.clear();
    for (const key of keys) {
      if (this.stopped) return;
      try {
        this.process(key);
        this.failures.delete(key);
      } catch (error) {
        const attempt = (this.failures.get(key) ?? 0) + 1;
        this.failures.set(key, attempt);
        this.onError(key, error);
        setTimeout(() => this.add(key), Math.min(30_000, 10 * 2 ** attempt)).unref();
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.pending.clear();
  }
}
