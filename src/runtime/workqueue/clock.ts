// Time as the work queue and rate limiters see it: injectable so tests measure backoff without sleeping.

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds on a monotonic-enough scale; only differences matter. */
  now(): number;
  /** Runs fn once after ms; the handle cancels it. */
  schedule(fn: () => void, ms: number): TimerHandle;
}

export const realClock: Clock = {
  now: () => performance.now(),
  schedule(fn, ms) {
    const timer = setTimeout(fn, Math.max(0, ms));
    // Timers alone must not keep a process alive: a stopped manager exits.
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};
