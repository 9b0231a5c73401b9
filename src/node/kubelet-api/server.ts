// The node agent's kubelet API: the two kubelet paths the API server proxies `kubectl logs` and `kubectl
// exec` to. Loopback only by default, over TLS; only clients with a certificate of the kubelet CA (the API
// server's, kubelet-pki.ts) are served, as kubelet's x509 authentication; plain text errors as kubelet writes
// them. Exec speaks WebSocket (v5/v4.channel.k8s.io); SPDY, the only protocol of kubectl before 1.30, is
// refused with a Status that says so.
import { open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { WebSocketServer } from 'ws';
import type { ContainerRef, RunningContainers } from '../agent/running-containers.ts';
import { KubeletRequestError } from './errors.ts';
import { parseExecOptions } from './exec-options.ts';
import { CHANNEL_PROTOCOLS, runExecSession } from './exec-session.ts';
import { parseLogOptions } from './log-options.ts';
import { streamLog } from './log-stream.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

export interface KubeletApiOptions {
  containers: RunningContainers;
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

export const SPDY_REFUSAL = 'Bosun supports exec over WebSocket (v5.channel.k8s.io, kubectl 1.30+)';

const PATH = /^\/(containerLogs|exec)\/([^/]+)\/([^/]+)\/([^/]+)$/;

interface Route {
  endpoint: 'containerLogs' | 'exec';
  ref: ContainerRef;
  query: URLSearchParams;
}

function route(req: IncomingMessage): Route {
  const url = new URL(req.url ?? '/', 'http://kubelet');
  const match = PATH.exec(url.pathname);
  if (!match) throw new KubeletRequestError(404, '404 page not found');
  const [, endpoint, namespace, pod, container] = match.map((part) => decodeURIComponent(part));
  return { endpoint: endpoint as Route['endpoint'], ref: { namespace: namespace!, pod: pod!, container: container! }, query: url.searchParams };
}

function statusJson(code: number, reason: string, message: string): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

/** An answer on a connection that asked for an upgrade: a plain HTTP response, then the connection ends. */
function answerUpgrade(socket: Duplex, code: number, body: string, contentType: string): void {
  const reason = code === 400 ? 'Bad Request' : code === 401 ? 'Unauthorized' : code === 404 ? 'Not Found' : 'Error';
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
      const found = route(req);
      if (found.endpoint === 'exec') throw new KubeletRequestError(400, 'Upgrade request required');
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

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    try {
      if (!authenticated(req)) throw new KubeletRequestError(401, 'Unauthorized');
      const { endpoint, ref, query } = route(req);
      if (endpoint !== 'exec') throw new KubeletRequestError(400, `${endpoint} does not upgrade`);
      const execOptions = parseExecOptions(query);
      const handle = containers.running(ref);
      if (!handle) throw new KubeletRequestError(404, `container not found ("${ref.container}")`);
      if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
        answerUpgrade(socket, 400, statusJson(400, 'BadRequest', SPDY_REFUSAL), 'application/json');
        return;
      }
      const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
      if (!CHANNEL_PROTOCOLS.some((protocol) => offered.includes(protocol))) {
        throw new KubeletRequestError(400, `unable to upgrade: none of the offered subprotocols is supported; supported: ${CHANNEL_PROTOCOLS.join(', ')}`);
      }
      sockets.handleUpgrade(req, socket, head, (ws) => {
        runExecSession(ws, handle, execOptions).catch((error: unknown) => {
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
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
