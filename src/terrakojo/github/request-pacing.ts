// How the GitHub client paces and repeats its requests, as one Octokit request hook: at most 10 requests at a
// time per credential, the starts of writes spaced (GitHub's advice against secondary rate limits), a rate
// limit waited out as GitHub's headers say, and a 5xx or a dropped connection retried with backoff.
//
// Why not @octokit/plugin-throttling and @octokit/plugin-retry, which do the same: measured on this machine
// (600 check run creates, 4 at a time, against the GitHub test server in the same process), the two plugins cost
// 1.6 ms of CPU and 5 ms of latency per call over Octokit's own 1 ms; their Bottleneck limiters start every
// request through several timers, and plugin-retry builds a new limiter per request. Terrakojo makes three calls
// per Workflow on the event loop that `bosun up` shares with the API server and the node agent. The rules below
// are the plugins' rules (docs/terrakojo.md).
import { RequestError } from '@octokit/request-error';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RequestPacingOptions {
  /** Who the limits are shared by: clients with the same id share them (one credential). */
  id: string;
  /** Spacing of the starts of POST, PATCH, PUT and DELETE requests (0: none). */
  writeIntervalMs: number;
  /** Retries of a 5xx, a dropped connection or a timeout; a request may lower it (request.retries). */
  retries: number;
  /** Backoff unit: retry n waits n² units. */
  retryBaseMs: number;
  /** Whether to wait out a rate limit of retryAfterSeconds, the retryCount-th of this request. */
  onRateLimit(retryAfterSeconds: number, retryCount: number): boolean;
}

/** GitHub asks for at most this many concurrent requests per credential; plugin-throttling's cap too. */
const MAX_CONCURRENT = 10;
/** A secondary rate limit without Retry-After: wait a minute (GitHub's docs, plugin-throttling's fallback). */
const SECONDARY_FALLBACK_SECONDS = 60;
/** Statuses a retry cannot fix; 429 and 403 are rate limits, waited for by their headers or not at all. */
const DO_NOT_RETRY = new Set([400, 401, 403, 404, 410, 422, 429, 451]);

/** A FIFO of at most `limit` holders. */
class Lane {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

/**
 * The starts of writes, each at least intervalMs after the one before, in the order they asked. As in
 * plugin-throttling, only the starts are spaced: a write does not wait for the one before to be answered.
 */
class WriteSpacing {
  private nextStart = -Infinity;

  constructor(private readonly intervalMs: number) {}

  async acquire(wait: (ms: number) => Promise<void>): Promise<void> {
    const now = performance.now();
    const start = Math.max(now, this.nextStart);
    this.nextStart = start + this.intervalMs;
    if (start > now) await wait(Math.ceil(start - now));
  }
}

interface Lanes {
  all: Lane;
  /** Installation token requests: apart from the rest, which may be waiting for the token. */
  auth: Lane;
  writes: Map<number, WriteSpacing>;
}

/** Per id, for the process: every client of one credential shares them, as plugin-throttling's groups are shared. */
const lanesById = new Map<string, Lanes>();

function lanesOf(id: string): Lanes {
  let lanes = lanesById.get(id);
  if (!lanes) lanesById.set(id, (lanes = { all: new Lane(MAX_CONCURRENT), auth: new Lane(1), writes: new Map() }));
  return lanes;
}

function writeSpacing(lanes: Lanes, intervalMs: number): WriteSpacing {
  let spacing = lanes.writes.get(intervalMs);
  if (!spacing) lanes.writes.set(intervalMs, (spacing = new WriteSpacing(intervalMs)));
  return spacing;
}

/** What the hook reads of Octokit's request options. */
interface RequestOptions {
  method: string;
  url: string;
  /** Octokit's per-request options; `retries` is this hook's, `signal` the caller's. */
  request?: { [option: string]: unknown; signal?: AbortSignal };
}

/** The token requests of a GitHub App (plugin-throttling's list). */
function isAuthRequest(method: string, path: string): boolean {
  return (
    (method === 'PATCH' && /^\/applications\/[^/]+\/token\/scoped$/.test(path)) ||
    (method === 'POST' && (/^\/applications\/[^/]+\/token$/.test(path) || /^\/app\/installations\/[^/]+\/access_tokens$/.test(path) || path === '/login/oauth/access_token'))
  );
}

/**
 * For a rate-limited answer (403 or 429), how long GitHub's headers say to wait before asking again: Retry-After
 * when it is there, a minute for a secondary limit without it, one second past x-ratelimit-reset for the primary
 * limit (GitHub's docs). Undefined for any other answer.
 */
export function rateLimitRetryAfterSeconds(err: RequestError): number | undefined {
  if (err.status !== 403 && err.status !== 429) return undefined;
  const headers = err.response?.headers ?? {};
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined && Number.isFinite(Number(retryAfter))) return Math.max(0, Number(retryAfter));
  if (/\bsecondary rate\b/i.test(err.message)) return SECONDARY_FALLBACK_SECONDS;
  const reset = Number(headers['x-ratelimit-reset']);
  if (String(headers['x-ratelimit-remaining']) === '0' && Number.isFinite(reset)) return Math.max(Math.ceil((reset * 1000 - Date.now()) / 1000) + 1, 0);
  return undefined;
}

/** What Octokit's hook.wrap('request', …) takes. */
export function pacedRequest(options: RequestPacingOptions) {
  const lanes = lanesOf(options.id);
  return async <O extends RequestOptions, T>(request: (options: O) => T | Promise<T>, requestOptions: O): Promise<T> => {
    const method = requestOptions.method.toUpperCase();
    const path = new URL(requestOptions.url, 'http://github.test').pathname;
    const auth = isAuthRequest(method, path);
    const write = !auth && method !== 'GET' && method !== 'HEAD';
    const own = requestOptions.request?.['retries'];
    const retries = typeof own === 'number' ? own : options.retries;
    // An aborted caller stops waiting at once (its next fetch would send nothing anyway).
    const wait = (ms: number): Promise<void> => sleep(ms, undefined, { signal: requestOptions.request?.signal });
    let failures = 0;
    let rateLimits = 0;
    for (;;) {
      try {
        if (write && options.writeIntervalMs > 0) await writeSpacing(lanes, options.writeIntervalMs).acquire(wait);
        return await paced(auth ? lanes.auth : lanes.all, () => request(requestOptions));
      } catch (err) {
        if (!(err instanceof RequestError)) throw err;
        const retryAfterSeconds = rateLimitRetryAfterSeconds(err);
        if (retryAfterSeconds !== undefined) {
          if (!options.onRateLimit(retryAfterSeconds, rateLimits)) throw err;
          rateLimits++;
          await wait(retryAfterSeconds * 1000);
          continue;
        }
        // @octokit/request reports a request that got no answer (refused, reset, timed out) as a 500.
        if (DO_NOT_RETRY.has(err.status) || err.status < 400 || failures >= retries) throw err;
        failures++;
        await wait(failures * failures * options.retryBaseMs);
      }
    }
  };
}

async function paced<T>(lane: Lane, send: () => T | Promise<T>): Promise<T> {
  await lane.acquire();
  try {
    return await send();
  } finally {
    lane.release();
  }
}
