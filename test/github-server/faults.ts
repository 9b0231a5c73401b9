// Fault injection: a seeded PRNG picks which requests fail and how, so a failing test replays exactly.
// '500' answers 500 or 502; 'rate-limit' answers GitHub's primary limit (403, x-ratelimit-remaining 0, a reset
// a second or two ahead) or its secondary limit (429 with Retry-After); 'timeout' holds the request unanswered.
// As on GitHub, a rate limit lasts: until the reset (or for Retry-After) every request gets the same answer, so a
// client that does not wait is seen failing again.
import type { ApiResponse } from './http.ts';

export type FaultKind = '500' | 'rate-limit' | 'timeout';
const FAULT_KINDS: readonly FaultKind[] = ['500', 'rate-limit', 'timeout'];

export interface FaultOptions {
  /** The share of API requests that fail, 0 to 1. */
  rate: number;
  kinds: FaultKind[];
  seed?: number;
  /** How long a 'timeout' holds its request before dropping the connection; default 30 s. */
  timeoutMs?: number;
}

export type Fault = { kind: '500' | 'rate-limit'; response: ApiResponse } | { kind: 'timeout'; holdMs: number };

const RATE_LIMIT_DOCS = 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api';

export class FaultInjector {
  /** Faults injected so far, by kind. */
  readonly injected: Record<FaultKind, number> = { '500': 0, 'rate-limit': 0, timeout: 0 };
  private options: FaultOptions | undefined;
  private random: () => number = Math.random;
  /** The rate limit in force: its answer and when it lifts (ms since the epoch). */
  private limited: { until: number; response: ApiResponse } | undefined;

  set(options: FaultOptions | undefined): void {
    if (options !== undefined) {
      if (!(options.rate >= 0 && options.rate <= 1)) throw new RangeError(`fault rate must be within [0, 1], got ${options.rate}`);
      const unknown = options.kinds.filter((kind) => !FAULT_KINDS.includes(kind));
      if (unknown.length > 0) throw new RangeError(`unknown fault kinds: ${unknown.join(', ')} (known: ${FAULT_KINDS.join(', ')})`);
      this.random = mulberry32(options.seed ?? 1);
    }
    this.options = options;
    this.limited = undefined;
  }

  get total(): number {
    return this.injected['500'] + this.injected['rate-limit'] + this.injected.timeout;
  }

  /** The fault for the next request, if it gets one. Requests while a rate limit lasts do not draw from the PRNG. */
  next(): Fault | undefined {
    if (this.limited !== undefined && Date.now() < this.limited.until) {
      this.injected['rate-limit']++;
      return { kind: 'rate-limit', response: this.limited.response };
    }
    const options = this.options;
    if (options === undefined || options.kinds.length === 0 || this.random() >= options.rate) return undefined;
    const kind = options.kinds[Math.floor(this.random() * options.kinds.length)] as FaultKind;
    this.injected[kind]++;
    if (kind === 'timeout') return { kind, holdMs: options.timeoutMs ?? 30_000 };
    if (kind === '500') {
      const status = this.random() < 0.5 ? 500 : 502;
      return { kind, response: { status, body: { message: status === 500 ? 'Server Error' : 'Bad Gateway' } } };
    }
    this.limited = this.random() < 0.5 ? primaryRateLimit() : secondaryRateLimit();
    return { kind, response: this.limited.response };
  }
}

function primaryRateLimit(): { until: number; response: ApiResponse } {
  const reset = Math.floor(Date.now() / 1000) + 2;
  return {
    until: reset * 1000,
    response: {
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
      body: { message: 'API rate limit exceeded for user ID 1.', documentation_url: RATE_LIMIT_DOCS },
    },
  };
}

function secondaryRateLimit(): { until: number; response: ApiResponse } {
  return {
    until: Date.now() + 1000,
    response: {
      status: 429,
      headers: { 'retry-after': '1' },
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: RATE_LIMIT_DOCS },
    },
  };
}

/** A small, fast, seedable PRNG (public domain); good enough to spread faults. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
