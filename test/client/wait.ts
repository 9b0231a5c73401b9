// Waiting in tests without sleeping blindly: re-check a condition whenever something signals a change.
export class Changes {
  private waiters = new Set<() => void>();

  /** Call whenever observed state may have changed. */
  notify = (): void => {
    for (const w of [...this.waiters]) w();
  };

  /** Resolves when check() is true (checked now and on every notify), rejects after timeoutMs. */
  until(check: () => boolean, timeoutMs: number, what = 'condition'): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter = (): void => {
        if (!check()) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }
}
