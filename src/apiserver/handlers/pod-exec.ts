// GET|POST pods/<name>/exec, attach and portforward: kube-apiserver's ExecREST, AttachREST and PortForwardREST.
// The request is an HTTP upgrade (WebSocket, or SPDY from kubectl before 1.30, and for port-forward kubectl
// 1.30 too); once the pod (and container) check out, the connection is handed to the node's
// kubelet API as it is, over TLS with the API server's kubelet client certificate and without the caller's
// Authorization, and from then on bytes flow both ways untouched, the upgrade answer (subprotocol included)
// being the kubelet's.
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:tls';
import type { Duplex } from 'node:stream';
import { errors, StatusError } from '../../apimachinery/status-error.ts';
import { admitRequest, type RequestAuth } from '../auth/request-auth.ts';
import { parseRequestPath, requestUrl } from '../http/request-info.ts';
import type { HandlerContext } from './context.ts';
import { kubeletTarget } from './kubelet-proxy.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** What a plain (not upgrading) request to pods/exec, attach or portforward gets, as from kube-apiserver. */
export function handleExec(): never {
  throw errors.badRequest('Upgrade request required');
}

/** Request headers that carry the upgrade; everything else (the caller's credentials) stays here. */
const UPGRADE_HEADERS = ['upgrade', 'connection', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-protocol', 'sec-websocket-extensions', 'x-stream-protocol-version', 'user-agent'];
const STREAMING: Record<string, { endpoint: 'exec' | 'attach' | 'portForward'; query: string[] }> = {
  exec: { endpoint: 'exec', query: ['command', 'stdin', 'stdout', 'stderr', 'tty'] },
  attach: { endpoint: 'attach', query: ['stdin', 'stdout', 'stderr', 'tty'] },
  portforward: { endpoint: 'portForward', query: ['ports'] },
};
const REASON_PHRASES: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed' };

function answerWithStatus(socket: Duplex, error: StatusError): void {
  const body = JSON.stringify(error.toStatus());
  const phrase = REASON_PHRASES[error.code] ?? 'Error';
  socket.end(`HTTP/1.1 ${error.code} ${phrase}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

function requestHead(req: IncomingMessage, path: string, host: string): string {
  const lines = [`${req.method ?? 'GET'} ${path} HTTP/1.1`, `Host: ${host}`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (UPGRADE_HEADERS.includes(name.toLowerCase())) lines.push(`${name}: ${req.rawHeaders[i + 1]!}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export interface UpgradeOptions {
  auth: RequestAuth;
  onError: (error: unknown) => void;
}

/** The server's 'upgrade' listener: pods/exec, attach and portforward are the paths that upgrade. */
export function createUpgradeHandler(ctx: HandlerContext, options: UpgradeOptions): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    socket.on('error', () => undefined);
    upgrade(ctx, options, req, socket, head).catch((error: unknown) => {
      if (error instanceof StatusError) answerWithStatus(socket, error);
      else {
        options.onError(error);
        answerWithStatus(socket, errors.internal(messageOf(error)));
      }
    });
  };
}

async function upgrade(ctx: HandlerContext, options: UpgradeOptions, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const url = requestUrl(req.url);
  const path = url.pathname.replace(/\/+$/, '');
  const info = parseRequestPath(req.method ?? 'GET', path, url.searchParams);
  await admitRequest(options.auth, req, info, path);
  const streaming = info && info.kind !== 'nonresource' && info.group === '' && info.resource === 'pods' ? STREAMING[info.subresource ?? ''] : undefined;
  if (!info || info.kind === 'nonresource' || !streaming || info.name === undefined || info.namespace === undefined) {
    throw errors.badRequest(`the path ${url.pathname} does not support an upgrade`);
  }
  if (info.verb !== 'get' && info.verb !== 'create') throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
  const scope = streaming.endpoint === 'portForward' ? 'pod' : 'container';
  const target = kubeletTarget(ctx, info.namespace, info.name, url.searchParams.get('container'), scope);
  if (target.unscheduled) throw errors.badRequest(`pod ${info.name} does not have a host assigned`);
  const query = new URLSearchParams();
  for (const key of streaming.query) for (const value of url.searchParams.getAll(key)) query.append(key, value);
  const kubelet = connect({ host: target.host, port: target.port, ...target.tls });
  kubelet.once('secureConnect', () => {
    kubelet.write(requestHead(req, `${target.path(streaming.endpoint)}?${query.toString()}`, `${target.host}:${target.port}`));
    if (head.length > 0) kubelet.write(head);
    kubelet.pipe(socket);
    socket.pipe(kubelet);
  });
  kubelet.once('error', (error) => {
    if (kubelet.bytesRead === 0 && !socket.destroyed) answerWithStatus(socket, new StatusError(503, 'ServiceUnavailable', `error trying to reach the kubelet of pod ${info.name}: ${error.message}`));
    else socket.destroy();
  });
  socket.once('close', () => kubelet.destroy());
}
