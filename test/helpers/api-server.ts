// Starts a real embedded API server on a free loopback port for a test, with a request log.
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { startApiServer, type ApiServerOptions, type RunningApiServer } from '../../src/apiserver/index.ts';
import type { RequestLogEntry } from '../../src/apiserver/router.ts';
import { tempDirRemovedAtExit } from './temp-dir.ts';

export interface TestServer extends RunningApiServer {
  readonly requests: RequestLogEntry[];
  /** A kubeconfig file for kubectl. */
  readonly kubeconfigFile: string;
  /** A fetch-like call against the server, over https with its CA and the bearer token. */
  api(path: string, init?: ApiInit): Promise<Response>;
  /** api() + JSON body; throws with the body when the status is not `expect` (default 200). */
  json<T = Record<string, any>>(path: string, init?: ApiInit & { expect?: number }): Promise<T>;
  /** The current end of the request log, for since(). */
  mark(): number;
  /** The requests logged since `mark`. */
  since(mark: number): RequestLogEntry[];
}

export interface ApiInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export async function startTestServer(options: ApiServerOptions = {}): Promise<TestServer> {
  const requests: RequestLogEntry[] = [];
  const server = await startApiServer({ inMemory: options.dataDir === undefined, port: 0, ...options, onRequest: (e) => requests.push(e) });
  const dir = tempDirRemovedAtExit('bosun-test-');
  const kubeconfigFile = join(dir, 'kubeconfig');
  writeFileSync(kubeconfigFile, server.kubeconfig, { mode: 0o600 });
  const agent = new Agent({ ca: server.caCert, keepAlive: true });
  const api: TestServer['api'] = (path, init = {}) =>
    new Promise((resolve, reject) => {
      const req = request(
        `${server.url}${path}`,
        {
          method: init.method ?? 'GET',
          agent,
          // Node sends a DELETE or GET body unframed unless its length is given.
          headers: { authorization: `Bearer ${server.token}`, ...(init.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(init.body)) }), ...init.headers },
        },
        (res) => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) for (const value of [v ?? []].flat()) headers.append(k, value);
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              res.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
              res.on('end', () => controller.close());
              res.on('error', (error) => controller.error(error));
            },
            cancel() {
              res.destroy();
            },
          });
          resolve(new Response(stream, { status: res.statusCode ?? 0, headers }));
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });
  return {
    ...server,
    requests,
    kubeconfigFile,
    api,
    async json<T>(path: string, init: ApiInit & { expect?: number } = {}): Promise<T> {
      const { expect = 200, ...rest } = init;
      const res = await api(path, rest);
      const text = await res.text();
      if (res.status !== expect) throw new Error(`${init.method ?? 'GET'} ${path}: expected ${expect}, got ${res.status}: ${text}`);
      return JSON.parse(text) as T;
    },
    mark: () => requests.length,
    since: (mark: number) => requests.slice(mark),
  };
}

/** Polls `check` until it returns something other than undefined/false; fails after `timeoutMs`. */
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

/** A request with a JSON body (when given) whose answer is read as JSON: the status and the body. */
export async function send(server: TestServer, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: Record<string, any> }> {
  const res = await server.api(path, { method, headers: { 'content-type': contentType }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
