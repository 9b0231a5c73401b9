// The web dashboard's HTTP server: loopback only, every page behind a session (sessions.ts), the page and its
// script as static files, the views' live data as Server-Sent Events (live-views.ts).
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeClient } from '../client/client.ts';
import type { DashboardView } from '../runtime/view/dashboard-view.ts';
import { messageOf } from '../apimachinery/error-message.ts';
import { ActionError, parseActionRequest, runAction } from './actions.ts';
import { followEvents } from './events-feed.ts';
import { LiveViews } from './live-views.ts';
import { sessionCookie, Sessions } from './sessions.ts';

export interface DashboardOptions {
  client: KubeClient;
  views: readonly DashboardView[];
  /** The token the login page accepts: the API token of the credentials the dashboard reads with. */
  apiToken: string | undefined;
  /** Loopback only (default 127.0.0.1): there is no TLS, and the session cookie must not cross a network. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  onError?: (error: unknown) => void;
}

export interface RunningDashboard {
  /** http://host:port/ */
  readonly url: string;
  /** A login URL good for one use. */
  loginUrl(): string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

const WEB = new URL('./web/', import.meta.url);
const asset = (name: string) => readFileSync(new URL(name, WEB), 'utf8');
const ASSETS: Record<string, { type: string; file: string }> = {
  '/': { type: 'text/html; charset=utf-8', file: 'index.html' },
  '/app.js': { type: 'text/javascript; charset=utf-8', file: 'app.js' },
  '/style.css': { type: 'text/css; charset=utf-8', file: 'style.css' },
};

// No page of the dashboard may be framed, sniffed or reach anything but its own origin.
const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'self'; frame-ancestors 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

export async function startDashboard(options: DashboardOptions): Promise<RunningDashboard> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) throw new Error(`the dashboard serves on loopback only (it has no TLS): ${host} is refused`);
  const onError = options.onError ?? (() => undefined);
  const sessions = new Sessions(options.apiToken);
  const live = new LiveViews(options.client, options.views, onError);
  const server: Server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      onError(error);
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error\n');
    }
  });

  function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, ...headers });
    res.end(body);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://dashboard');
    const login = /^\/login\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (req.method === 'GET' && login) {
      const session = sessions.redeemLoginSecret(login[1]!);
      if (!session) return send(res, 403, 'text/html; charset=utf-8', loginPage('This login link was already used or is not known. Sign in with the API token.'));
      // Redirected to a URL without the secret, so it stays out of history and Referer headers.
      return send(res, 303, 'text/plain; charset=utf-8', '', { Location: '/', 'Set-Cookie': sessionCookie(session, false) });
    }
    if (url.pathname === '/login') {
      if (req.method === 'GET') return send(res, 200, 'text/html; charset=utf-8', loginPage(''));
      if (req.method === 'POST') return void readForm(req).then((form) => {
        const session = sessions.loginWithToken(form.get('token') ?? '');
        if (!session) return send(res, 401, 'text/html; charset=utf-8', loginPage('That is not the API token.'));
        send(res, 303, 'text/plain; charset=utf-8', '', { Location: '/', 'Set-Cookie': sessionCookie(session, false) });
      }, (error: unknown) => {
        onError(error);
        send(res, 400, 'text/plain; charset=utf-8', 'bad form\n');
      });
    }
    // The login page's own look is not a secret.
    if (req.method === 'GET' && url.pathname === '/style.css') return send(res, 200, ASSETS['/style.css']!.type, asset('style.css'));
    if (!sessions.authenticated(req.headers.cookie)) {
      if (req.method === 'GET' && url.pathname === '/') return send(res, 303, 'text/plain; charset=utf-8', '', { Location: '/login' });
      return send(res, 401, 'text/plain; charset=utf-8', 'sign in first: /login\n');
    }
    const action = /^\/api\/views\/([a-z0-9-]+)\/actions$/.exec(url.pathname);
    if (action && req.method === 'POST') return void act(req, res, action[1]!);
    if (req.method !== 'GET') return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
    const file = ASSETS[url.pathname];
    if (file) return send(res, 200, file.type, asset(file.file));
    if (url.pathname === '/api/views') {
      return send(res, 200, 'application/json', JSON.stringify(options.views.map((view) => ({ name: view.name, title: view.title }))));
    }
    const stream = /^\/api\/views\/([a-z0-9-]+)\/events$/.exec(url.pathname);
    if (stream) {
      const view = live.view(stream[1]!);
      if (!view) return send(res, 404, 'text/plain; charset=utf-8', `no view ${stream[1]}\n`);
      return live.subscribe(view, url.searchParams.get('namespace') || 'default', res);
    }
    if (url.pathname === '/api/logs') return void followLog(url.searchParams, res);
    if (url.pathname === '/api/events') {
      const of = { namespace: url.searchParams.get('namespace') ?? '', kind: url.searchParams.get('kind') ?? '', name: url.searchParams.get('name') ?? '' };
      // The selector's values are the object's kind and name: nothing that could add another selector term.
      if (!/^[A-Za-z]+$/.test(of.kind) || !/^[a-z0-9.-]+$/.test(of.name)) return send(res, 400, 'text/plain; charset=utf-8', 'kind and name are required\n');
      return followEvents(options.client, of, res, SECURITY_HEADERS, onError);
    }
    send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  }

  // A pod's log as it is written, as Server-Sent Events, read with the dashboard's credentials (the cluster
  // decides whether they may). Ends when the container does or the page closes the panel.
  async function followLog(params: URLSearchParams, res: ServerResponse): Promise<void> {
    const namespace = params.get('namespace') ?? '';
    const pod = params.get('pod') ?? '';
    const container = params.get('container') ?? undefined;
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    try {
      const log = await options.client.followPodLog(pod, { namespace, tailLines: 200, signal: abort.signal, ...(container ? { container } : {}) });
      res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
      res.write(': log\n\n');
      for await (const chunk of log) res.write(`event: log\ndata: ${JSON.stringify(chunk)}\n\n`);
      res.end('event: end\ndata: "the container ended"\n\n');
    } catch (error) {
      if (abort.signal.aborted) return;
      if (!res.headersSent) return send(res, 502, 'text/plain; charset=utf-8', `${messageOf(error)}\n`);
      res.end(`event: end\ndata: ${JSON.stringify(messageOf(error))}\n\n`);
    }
  }

  // A write: besides the SameSite=Strict cookie, a header no other origin can send without a CORS preflight
  // (which this server never allows).
  async function act(req: IncomingMessage, res: ServerResponse, viewName: string): Promise<void> {
    try {
      if (req.headers['x-bosun-dashboard'] !== 'action') throw new ActionError(403, 'actions come from the dashboard page only');
      const view = live.view(viewName);
      if (!view) throw new ActionError(404, `no view ${viewName}`);
      const request = parseActionRequest(JSON.parse(await readBody(req)) as unknown);
      const done = await runAction(options.client, view, request);
      send(res, 200, 'application/json', JSON.stringify({ message: done }));
    } catch (error) {
      if (error instanceof ActionError) return send(res, error.status, 'application/json', JSON.stringify({ message: error.message }));
      if (error instanceof SyntaxError) return send(res, 400, 'application/json', JSON.stringify({ message: `not JSON: ${error.message}` }));
      // The cluster's answer (Forbidden, NotFound, a conflict): said to the page as it is.
      send(res, 502, 'application/json', JSON.stringify({ message: messageOf(error) }));
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  return {
    url,
    loginUrl: () => `${url}login/${sessions.newLoginSecret()}`,
    close: async () => {
      await live.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 16_384) throw new ActionError(413, 'request body too large');
  }
  return body;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams(await readBody(req));
}

function loginPage(problem: string): string {
  const escaped = problem.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bosun dashboard: sign in</title><link rel="stylesheet" href="/style.css"></head>
<body class="login"><main><h1>Bosun</h1>${escaped ? `<p class="problem">${escaped}</p>` : ''}
<form method="post" action="/login"><label>API token <input type="password" name="token" autocomplete="off" autofocus></label><button type="submit">Sign in</button></form>
<p class="hint">The ready line of <code>bosun up</code> prints a one-time login link; the token is in the data dir's <code>token</code> file.</p></main></body></html>`;
}
