// Waiting in tests on what watches report rather than on a timer: notify() is called on every change a test's
// informers see; until() probes again after each one (or after maxWaitMs at the most, for what no watch shows).
export class ChangeWaiter {
  private wake: () => void = () => {};

  constructor(
    private readonly defaultTimeoutMs: number,
    private readonly maxWaitMs = Number.POSITIVE_INFINITY,
  ) {}

  readonly notify = (): void => this.wake();

  /** The probe's value once cond holds; throws with the last value after the timeout. */
  readonly until = async <T>(what: string, probe: () => Promise<T> | T, cond: (v: T) => boolean, timeoutMs = this.defaultTimeoutMs): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const changed = new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      const value = await probe();
      if (cond(value)) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${JSON.stringify(value)?.slice(0, 3000)}`);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([changed, new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(left, this.maxWaitMs))))]);
      clearTimeout(timer);
    }
  };
}
