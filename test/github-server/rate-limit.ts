// The x-ratelimit-* headers GitHub puts on every answer: 5000 requests an hour, counted here across all callers.
const LIMIT = 5000;
const WINDOW_MS = 60 * 60 * 1000;

export class RateLimitCounter {
  private windowStart = Date.now();
  private used = 0;

  /** Counts one request and gives its headers. */
  take(): Record<string, string> {
    const now = Date.now();
    if (now - this.windowStart >= WINDOW_MS) {
      this.windowStart = now;
      this.used = 0;
    }
    this.used++;
    return {
      'x-ratelimit-limit': String(LIMIT),
      'x-ratelimit-remaining': String(Math.max(0, LIMIT - this.used)),
      'x-ratelimit-reset': String(Math.ceil((this.windowStart + WINDOW_MS) / 1000)),
      'x-ratelimit-used': String(this.used),
      'x-ratelimit-resource': 'core',
    };
  }
}
