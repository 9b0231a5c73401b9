// The node agent's kubelet API: the kubelet paths the API server proxies `kubectl logs`, `exec`, `attach`
// and `port-forward` to. Loopback only by default, over TLS; only clients with a certificate of the kubelet CA (the
// API server's, kubelet-pki.ts) are served, as kubelet's x509 authentication; plain text errors as kubelet
// writes them. Exec and attach speak WebSocket (v5/v4.channel.k8s.io); SPDY, their only protocol in kubectl
// before 1.30, is refused with a Status that says so. Port-forward speaks SPDY, raw or tunnelled in a WebSocket.
import { open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { createWebSocketStream, WebSocketServer } from 'ws';
import type { ContainerRef, RunningContainers } from '../agent/running-containers.ts';
import { KubeletRequestError } from './errors.ts';
import { parseExecOptions, parseStreamOptions } from './exec-options.ts';
import { CHANNEL_PROTOCOLS, runAttachSession, runExecSession } from './exec-session.ts';
import { parseLogOptions } from './log-options.ts';
import { PORT_FORWARD_PROTOCOL, PORT_FORWARD_TUNNEL_PROTOCOL, servePortForward } from './port-forward.ts';
import { streamLog } from './log-stream.ts';
import { messageOf } from '../../apimachinery/error-message.ts';
import type { Summary } from '../stats/stats-summary.ts';

export interface KubeletApiOptions {
  containers: RunningContainers;
  /** kubelet's Summary API (GET /stats/summary): the node's and its pods' CPU, memory and filesystem readings. */
  summary?: () => Promise<Summary>;
  /** The serving certificate and key, and the CA a client certificate must be signed by. */
  tls: { cert: string; key: string; clientCA: string };
  /** Default 127.0.0.1: Bosun's node traffic stays on this machine. */
  bind?: string;
  /** Default 0 (any free port); kubelet's own is 10250. */
  port?: number;
  onError?: (error: unknown) => void;
}

export interface RunningKubeletApi {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

export function spdyRefusal(endpoint: 'exec' | 'attach'): string {
  return `Bosun supports ${endpoint} over WebSocket (v5.channel.k8s.io, kubectl 1.30+)`;
}

export const SPDY_REFUSAL = spdyRefusal('exec');

const PATH = /^\/(containerLogs|exec|attach|portForward)\/([^/]+)\/([^/]+)(?:\/([^/]+))?$/;

interface Route {
  endpoint: 'containerLogs' | 'exec' | 'attach' | 'portForward';
  /** The container is empty for portForward, which names only the pod. */
  ref: ContainerRef;
  query: URLSearchParams;
}

function route(req: IncomingMessage): Route {
  const url = new URL(req.url ?? '/', 'http://kubelet');
  const match = PATH.exec(url.pathname);
  const [, endpoint, namespace, pod, container] = (match ?? []).map((part) => (part === undefined ? undefined : decodeURIComponent(part)));
  if (!match || (endpoint === 'portForward') !== (container === undefined)) throw new KubeletRequestError(404, '404 page not found');
  return { endpoint: endpoint as Route['endpoint'], ref: { namespace: namespace!, pod: pod!, container: container ?? '' }, query: url.searchParams };
}

function offeredProtocols(req: IncomingMessage): string[] {
  return (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
}

function statusJson(code: number, reason: string, message: string): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

/** An answer on a connection that asked for an upgrade: a plain HTTP response, then the connection ends. */
function answerUpgrade(socket: Duplex, code: number, body: string, contentType: string): void {
  const reason = code === 400 ? 'Bad Request' : code === 401 ? 'Unauthorized' : code === 403 ? 'Forbidden' : code === 404 ? 'Not Found' : 'Error';
  socket.end(`HTTP/1.1 ${code} ${reason}\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}

export async function startKubeletApi(options: KubeletApiOptions): Promise<RunningKubeletApi> {
  const { containers } = options;
  // kubelet answers 401 to a request without a valid client certificate; the handshake itself lets it through.
  const authenticated = (req: IncomingMessage) => (req.socket as TLSSocket).authorized;
  const onError = options.onError ?? ((error: unknown) => console.error('bosun kubelet api:', error));
  const sockets = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => CHANNEL_PROTOCOLS.find((protocol) => offered.has(protocol)) ?? false,
  });

  const tunnelRequests = new WeakSet<IncomingMessage>();
  // Upgraded connections leave the HTTP server's books (closeAllConnections) but not the TLS server's, whose
  // close waits for them: close() ends every one itself.
  const upgraded = new Set<Duplex>();
  sockets.on('headers', (headers: string[], req: IncomingMessage) => {
    if (tunnelRequests.has(req)) headers.push(`Sec-WebSocket-Protocol: ${PORT_FORWARD_TUNNEL_PROTOCOL}`);
  });

  const serveLogs = async (res: ServerResponse, { ref, query }: Route): Promise<void> => {
    const logOptions = parseLogOptions(query);
    const path = containers.logPath(ref, logOptions.previous);
    if (path === undefined) {
      if (logOptions.previous) throw new KubeletRequestError(400, `previous terminated container "${ref.container}" in pod "${ref.pod}" not found`);
      throw new KubeletRequestError(404, `container "${ref.container}" not found in pod "${ref.pod}"`);
    }
    const running = logOptions.previous ? undefined : containers.running(ref)?.exited;
    // Opened before the answer starts, so that a failure is still an answer and not a dropped connection.
    const file = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
    // A run that failed to start (StartError) wrote no log at all: its log is empty.
    if (file === undefined) return void res.end();
    const abort = new AbortController();
    res.once('close', () => abort.abort());
    await streamLog({ path, file, options: logOptions, running, sink: res, signal: abort.signal });
    res.end();
  };

  const tls = { cert: options.tls.cert, key: options.tls.key, ca: options.tls.clientCA, requestCert: true, rejectUnauthorized: false };
  const server: Server = createServer(tls, (req, res) => {
    const serve = async () => {
      if (!authenticated(req)) throw new KubeletRequestError(401, 'Unauthorized');
      if (new URL(req.url ?? '/', 'http://kubelet').pathname === '/stats/summary' && options.summary) {
        if (req.method !== 'GET') throw new KubeletRequestError(405, 'Method Not Allowed');
        const body = JSON.stringify(await options.summary());
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
        return void res.end(body);
      }
      const found = route(req);
      if (found.endpoint !== 'containerLogs') throw new KubeletRequestError(400, 'Upgrade request required');
      if (req.method !== 'GET') throw new KubeletRequestError(405, 'Method Not Allowed');
      await serveLogs(res, found);
    };
    serve().catch((error: unknown) => {
      if (res.headersSent) {
        if (!(error instanceof KubeletRequestError)) onError(error);
        res.destroy();
      } else if (error instanceof KubeletRequestError) sendText(res, error.code, error.message);
      else {
        onError(error);
        sendText(res, 500, messageOf(error));
      }
    });
  });

  /** kubectl 1.31+ tunnels SPDY in a WebSocket (1.30 behind KUBECTL_PORT_FORWARD_WEBSOCKETS); older ones upgrade to SPDY. */
  const upgradePortForward = (req: IncomingMessage, socket: Duplex, head: Buffer, ref: ContainerRef): void => {
    const target = containers.forwardTarget(ref);
    if (!target) throw new KubeletRequestError(404, `pod "${ref.pod}" not found`);
    const upgrade = (req.headers.upgrade ?? '').toLowerCase();
    if (upgrade === 'websocket') {
      if (!offeredProtocols(req).includes(PORT_FORWARD_TUNNEL_PROTOCOL)) {
        throw new KubeletRequestError(400, `unable to upgrade: none of the offered subprotocols is supported; supported: ${PORT_FORWARD_TUNNEL_PROTOCOL}`);
      }
      // ws refuses the offer as it stands ("/" is not allowed in a token, RFC 6455 §4.1); gorilla, which kubectl
      // and kube-apiserver use, accepts it. The offer is taken out of ws's sight and the answer added back.
      delete req.headers['sec-websocket-protocol'];
      tunnelRequests.add(req);
      sockets.handleUpgrade(req, socket, head, (ws) => void servePortForward(createWebSocketStream(ws), target));
      return;
    }
    if (upgrade !== 'spdy/3.1') throw new KubeletRequestError(400, 'unable to upgrade: missing upgrade headers in request');
    // kubelet's httpstream handshake: the client lists the versions it speaks, the server names the one chosen.
    const versions = (req.headers['x-stream-protocol-version'] ?? '').toString().split(',').map((v) => v.trim());
    if (!versions.includes(PORT_FORWARD_PROTOCOL)) throw new KubeletRequestError(403, `unable to upgrade: unable to negotiate protocol: client supports [${versions.join(' ')}], server supports [${PORT_FORWARD_PROTOCOL}]`);
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: ${PORT_FORWARD_PROTOCOL}\r\n\r\n`);
    servePortForward(socket, target, head);
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    try {
      if (!authenticated(req)) throw new KubeletRequestError(401, 'Unauthorized');
      const { endpoint, ref, query } = route(req);
      if (endpoint === 'portForward') return upgradePortForward(req, socket, head, ref);
      if (endpoint !== 'exec' && endpoint !== 'attach') throw new KubeletRequestError(400, `${endpoint} does not upgrade`);
      const execOptions = endpoint === 'exec' ? parseExecOptions(query) : undefined;
      const streamOptions = execOptions ?? parseStreamOptions(query);
      const handle = containers.running(ref);
      if (!handle) throw new KubeletRequestError(404, `container not found ("${ref.container}")`);
      if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
        answerUpgrade(socket, 400, statusJson(400, 'BadRequest', spdyRefusal(endpoint)), 'application/json');
        return;
      }
      const offered = offeredProtocols(req);
      if (!CHANNEL_PROTOCOLS.some((protocol) => offered.includes(protocol))) {
        throw new KubeletRequestError(400, `unable to upgrade: none of the offered subprotocols is supported; supported: ${CHANNEL_PROTOCOLS.join(', ')}`);
      }
      sockets.handleUpgrade(req, socket, head, (ws) => {
        const session = execOptions ? runExecSession(ws, handle, execOptions) : runAttachSession(ws, handle, streamOptions);
        session.catch((error: unknown) => {
          onError(error);
          ws.terminate();
        });
      });
    } catch (error) {
      if (error instanceof KubeletRequestError) answerUpgrade(socket, error.code, error.message, 'text/plain; charset=utf-8');
      else {
        onError(error);
        answerUpgrade(socket, 500, messageOf(error), 'text/plain; charset=utf-8');
      }
    }
  });

  const bind = options.bind ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bind, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = bind.includes(':') ? `[${bind}]` : bind;
  return {
    port,
    url: `https://${host}:${port}`,
    async close() {
      for (const client of sockets.clients) client.terminate();
      for (const socket of upgraded) socket.destroy();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
