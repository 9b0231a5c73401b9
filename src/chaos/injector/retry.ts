// Upstream cleans (and removes its finalizer) through backoff.WithMaxRetries(exponential, 3): 3 retries, so up
// to 4 attempts, waiting longer each time.

export interface RetryOptions {
  retries: number;
  /** The first wait; each next one doubles. */
  initialDelayMs: number;
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

export async function withRetries<T>(action: () => Promise<T>, options: RetryOptions): Promise<T> {
  let delay = options.initialDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (error) {
      if (attempt > options.retries) throw error;
      options.onRetry?.(error, attempt, delay);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 2;
    }
  }
}
