// The node runtime API (src/client/node-runtime/protocol.ts): plain HTTP on a unix socket under the host's
// /run, for the privileged pods of trusted namespaces (chaos injectors) that mount it. Whoever reaches the
// socket is root on the node already, so there is no authentication; what it may write through the agent is
// limited to the agent's own node and pods, and what it reads for them to a Service and its ready endpoints.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { unlink } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { KubeClient } from '../../client/client.ts';
import type { NodeFailureRequest, PodReplacementRequest, RuntimeErrorBody, RuntimeNode } from '../../client/node-runtime/protocol.ts';
import type { ContainerRegistry } from '../agent/pods/container-registry.ts';
import type { CgroupLayout } from '../sandbox/cgroup-layout.ts';
import { findPod, podContainers, watchPodContainers } from './container-watch.ts';
import { badRequest, notFound, RuntimeApiError } from './errors.ts';
import { removeOwnPodFinalizer } from './finalizer-removal.ts';
import { replacePod } from './pod-replacement.ts';
import { describeContainer } from './runtime-container.ts';
import { serveService } from './service-watch.ts';
import { prepareSocketPath } from './socket-path.ts';

export interface RuntimeApiOptions {
  socketPath: string;
  nodeName: string;
  /** The agent's client: the node's credentials. */
  client: KubeClient;
  registry: ContainerRegistry;
  cgroupLayout: CgroupLayout;
  /** Takes the node down as a crash (shutdown false) or a shutdown; called after the 202 is sent. */
  failNode(request: NodeFailureRequest): void;
  logger: Logger;
}

export interface RuntimeApi {
  readonly socketPath: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw badRequest('request body too large');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('request body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('request body must be a JSON object');
  return body as Record<string, unknown>;
}

function optionalBoolean(body: Record<string, unknown>, field: string): boolean {
  const value = body[field];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw badRequest(`${field} must be a boolean`);
  return value;
}

function replacementRequest(body: Record<string, unknown>): PodReplacementRequest {
  const grace = body['gracePeriodSeconds'];
  if (grace !== undefined && (typeof grace !== 'number' || !Number.isInteger(grace) || grace < 0)) throw badRequest('gracePeriodSeconds must be a non-negative integer');
  return { deleteStorage: optionalBoolean(body, 'deleteStorage'), force: optionalBoolean(body, 'force'), ...(grace !== undefined ? { gracePeriodSeconds: grace } : {}) };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

const CONTAINER_ROUTE = /^\/v1\/containers\/([^/]+)$/;
const SERVICE_ROUTE = /^\/v1\/services\/([^/]+)\/([^/]+)$/;
const POD_ROUTE = /^\/v1\/pods\/([^/]+)\/([^/]+)\/(containers|finalizers\/remove|replace)$/;

export async function startRuntimeApi(options: RuntimeApiOptions): Promise<RuntimeApi> {
  const { client, nodeName, registry } = options;

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://node');
    const method = req.method ?? 'GET';
    if (url.pathname === '/v1/node' && method === 'GET') return sendJson(res, 200, { name: nodeName, pid: process.pid } satisfies RuntimeNode);
    const container = CONTAINER_ROUTE.exec(url.pathname);
    if (container && method === 'GET') {
      const found = registry.container(decodeURIComponent(container[1] ?? ''));
      if (found === undefined) throw notFound(`container ${container[1] ?? ''} is not known on this node`);
      return sendJson(res, 200, await describeContainer(found, options.cgroupLayout));
    }
    const service = SERVICE_ROUTE.exec(url.pathname);
    if (service && method === 'GET') {
      const target = { client, namespace: decodeURIComponent(service[1] ?? ''), name: decodeURIComponent(service[2] ?? ''), logger: options.logger };
      return serveService(target, url.searchParams.get('watch') === 'true', res);
    }
    const pod = POD_ROUTE.exec(url.pathname);
    if (pod) {
      const namespace = decodeURIComponent(pod[1] ?? '');
      const name = decodeURIComponent(pod[2] ?? '');
      const action = pod[3];
      if (action === 'containers' && method === 'GET') {
        const registered = findPod(registry, namespace, name);
        if (url.searchParams.get('watch') === 'true') return watchPodContainers(registry, registered, res);
        return sendJson(res, 200, podContainers(registered));
      }
      if (action === 'finalizers/remove' && method === 'POST') {
        const finalizer = (await readJson(req))['finalizer'];
        if (typeof finalizer !== 'string' || finalizer === '') throw badRequest('finalizer must be a non-empty string');
        await removeOwnPodFinalizer(client, nodeName, namespace, name, finalizer);
        return sendEmpty(res, 204);
      }
      if (action === 'replace' && method === 'POST') {
        await replacePod(client, nodeName, namespace, name, replacementRequest(await readJson(req)));
        return sendEmpty(res, 204);
      }
    }
    if (url.pathname === '/v1/node/failure' && method === 'POST') {
      const shutdown = optionalBoolean(await readJson(req), 'shutdown');
      // The answer goes out before the node goes dark: the caller's own pod is among those killed.
      res.once('finish', () => options.failNode({ shutdown }));
      return sendJson(res, 202, { shutdown });
    }
    throw notFound(`no route for ${method} ${url.pathname}`);
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      const status = error instanceof RuntimeApiError ? error.status : 500;
      if (status === 500) options.logger.warn({ err: error, url: req.url }, 'node runtime API request failed');
      const body: RuntimeErrorBody = { message: (error as Error).message };
      if (res.headersSent) res.destroy();
      else sendJson(res, status, body);
    });
  });
  await prepareSocketPath(options.socketPath);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    socketPath: options.socketPath,
    async close() {
      // Open watches would hold close() for ever.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await unlink(options.socketPath).catch(() => undefined);
    },
  };
}
