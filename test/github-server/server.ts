// The HTTP front: parses a request, serves /_meta (no faults, not counted), strips /api/v3 (GHES layout), injects
// faults, authenticates, routes, and answers JSON with GitHub's headers. Every API request lands in `onCall`.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Auth } from './auth.ts';
import type { FaultInjector, FaultKind } from './faults.ts';
import { HttpError, notFound, type ApiRequest, type ApiResponse } from './http.ts';
import { RateLimitCounter } from './rate-limit.ts';
import { pathSegments, type RouteAuth, type Router } from './router.ts';

export const GHES_PREFIX = '/api/v3';

export interface CallRecord {
  method: string;
  /** The API path without /api/v3 and without the query. */
  path: string;
  query: string;
  status: number;
  at: string;
  fault?: FaultKind;
}

export interface ServerParts {
  api: Router;
  /** The /_meta admin API; its requests skip auth and faults. */
  meta: Router;
  auth: Auth;
  faults: FaultInjector;
  onCall: (call: CallRecord) => void;
}

export interface ListeningServer {
  url: string;
  close(): Promise<void>;
}

export async function listen(parts: ServerParts, options: { port?: number; host?: string }): Promise<ListeningServer> {
  const rateLimit = new RateLimitCounter();
  /** Requests a 'timeout' fault holds, released (their connection dropped) by close(). */
  const held = new Set<() => void>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    const isMeta = url.pathname === '/_meta' || url.pathname.startsWith('/_meta/');
    const ghes = url.pathname === GHES_PREFIX || url.pathname.startsWith(`${GHES_PREFIX}/`);
    const path = ghes ? url.pathname.slice(GHES_PREFIX.length) || '/' : url.pathname;
    const apiBase = `${url.origin}${ghes ? GHES_PREFIX : ''}`;
    const at = new Date().toISOString();
    const method = req.method ?? 'GET';
    const rawBody = await readBody(req);

    if (isMeta) {
      send(res, await dispatch(parts.meta, method, path.slice('/_meta'.length), () => ({ method, url, apiBase: url.origin, headers: req.headers, body: parseJson(rawBody), identity: undefined })), {});
      return;
    }

    const fault = parts.faults.next();
    if (fault?.kind === 'timeout') {
      parts.onCall({ method, path, query: url.search, status: 0, at, fault: fault.kind });
      await new Promise<void>((resolve) => {
        const release = () => {
          clearTimeout(timer);
          held.delete(release);
          resolve();
        };
        const timer = setTimeout(release, fault.holdMs);
        held.add(release);
      });
      req.socket.destroy();
      return;
    }
    const response = fault?.response ?? (await dispatch(parts.api, method, path, (auth) => apiRequest(parts.auth, auth, { method, url, apiBase, headers: req.headers, rawBody })));
    parts.onCall({ method, path, query: url.search, status: response.status, at, ...(fault === undefined ? {} : { fault: fault.kind }) });
    send(res, response, rateLimit.take());
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, { status: 500, body: { message: `test server error: ${String(error)}` } }, {});
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    close: async () => {
      for (const release of [...held]) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function dispatch(router: Router, method: string, path: string, request: (auth: RouteAuth) => ApiRequest): Promise<ApiResponse> {
  try {
    const segments = pathSegments(path);
    const route = segments === undefined ? undefined : router.match(method, segments);
    if (route === undefined) throw notFound();
    return await route.handler(request(route.auth), route.params);
  } catch (error) {
    if (error instanceof HttpError) return error.toResponse();
    throw error;
  }
}

/** Authenticates for a route that needs `auth`, and parses the body (GitHub's 400 for bad JSON). */
function apiRequest(
  auth: Auth,
  routeAuth: RouteAuth,
  parts: Omit<ApiRequest, 'identity' | 'body'> & { rawBody: string },
): ApiRequest {
  const header = parts.headers.authorization;
  const identity = auth.authenticate(header);
  if (routeAuth === 'app' && identity.kind !== 'app') throw new HttpError(401, 'A JSON web token could not be decoded');
  if (routeAuth === 'token' && identity.kind === 'app') throw new HttpError(403, 'Resource not accessible by integration');
  const body = parseJson(parts.rawBody);
  return { method: parts.method, url: parts.url, apiBase: parts.apiBase, headers: parts.headers, body, identity };
}

function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new HttpError(400, 'Problems parsing JSON');
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, response: ApiResponse, rateLimitHeaders: Record<string, string>): void {
  const body = response.body === undefined ? '' : JSON.stringify(response.body);
  res.writeHead(response.status, {
    ...rateLimitHeaders,
    'content-type': 'application/json; charset=utf-8',
    'x-github-media-type': 'github.v3; format=json',
    'x-github-api-version-selected': '2022-11-28',
    'x-github-request-id': randomUUID(),
    ...response.headers,
  });
  res.end(body);
}
