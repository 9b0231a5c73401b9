// Starts a real embedded API server on a free loopback port for a test, with a request log.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type ApiServerOptions, type RunningApiServer } from '../../src/apiserver/index.ts';
import type { RequestLogEntry } from '../../src/apiserver/http/router.ts';

export interface TestServer extends RunningApiServer {
  readonly requests: RequestLogEntry[];
  /** A kubeconfig file for kubectl. */
  readonly kubeconfigFile: string;
  /** fetch against the server with the bearer token. */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** fetch + JSON body; throws with the body when the status is not the expected one. */
  json<T = Record<string, any>>(path: string, init?: RequestInit & { expect?: number }): Promise<T>;
  /** The requests logged since `mark` (an index from `mark()`). */
  since(mark: number): RequestLogEntry[];
  /** The current end of the request log. */
  mark(): number;
}

export async function startTestServer(options: ApiServerOptions = {}): Promise<TestServer> {
  const requests: RequestLogEntry[] = [];
  const server = await startApiServer({ inMemory: options.dataDir === undefined, port: 0, ...options, onRequest: (e) => requests.push(e) });
  const dir = mkdtempSync(join(tmpdir(), 'bosun-test-'));
  const kubeconfigFile = join(dir, 'kubeconfig');
  writeFileSync(kubeconfigFile, server.kubeconfig, { mode: 0o600 });
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${server.token}`, ...(init.headers as Record<string, string> | undefined) } });
  return {
    ...server,
    requests,
    kubeconfigFile,
    api,
    async json<T>(path: string, init: RequestInit & { expect?: number } = {}): Promise<T> {
      const { expect = 200, ...rest } = init;
      const res = await api(path, rest);
      const text = await res.text();
      if (res.status !== expect) throw new Error(`${init.method ?? 'GET'} ${path}: expected ${expect}, got ${res.status}: ${text}`);
      return JSON.parse(text) as T;
    },
    since: (mark: number) => requests.slice(mark),
    mark: () => requests.length,
  };
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
