// The GitHub webhook receiver (upstream's cmd/server): POST /webhook turns a signed push or pull_request
// delivery into a poke of the matching Repositories (see delivery-handler.ts), and GET /healthz and /readyz
// answer probes. Plain HTTP, as upstream: TLS belongs to whatever exposes it to GitHub (an Ingress, a tunnel).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { KubeClient } from '../../client/client.ts';
import { DeliveryHandler } from './delivery-handler.ts';
import { DeliveryLog } from './delivery-log.ts';
import { readBody } from './read-body.ts';
import { WebhookRequestError } from './request-error.ts';
import { SyncStamp } from './sync-stamp.ts';
import { WebhookMetrics } from './webhook-metrics.ts';

export const WEBHOOK_PATH = '/webhook';

export interface GitHubWebhookServerOptions {
  client: KubeClient;
  logger: Logger;
  /** The secret GitHub signs deliveries with (X-Hub-Signature-256). Required unless insecureSkipSignature. */
  secret?: string | undefined;
  /** Accept deliveries without checking their signature (tests, or a network nobody else reaches). */
  insecureSkipSignature?: boolean;
  /** Only poke Repositories in this namespace; default all namespaces, as upstream. */
  namespace?: string | undefined;
  /** Where the delivery counters go; none are kept without one. */
  registry?: Registry;
  /** Default 25 MiB: GitHub sends no payload larger, so none that GitHub sends is refused. */
  maxBodyBytes?: number;
  /** Delivery ids remembered for deduplication; default 10 000. */
  deliveryLogSize?: number;
  /** Default 8 s: the Kubernetes part of a delivery, inside GitHub's 10 s. */
  writeTimeoutMs?: number;
}

export class WebhookSecretMissingError extends Error {
  override readonly name = 'WebhookSecretMissingError' as const;
  constructor() {
    super('no webhook secret: set GITHUB_WEBHOOK_SECRET or give --secret-file (or --insecure-skip-signature to accept unsigned deliveries)');
  }
}

// Time limits that keep a slow or silent client from holding a connection: a delivery is small and sent at once.
const REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 10_000;
// How long close() lets deliveries in flight finish before cutting their connections.
const CLOSE_GRACE_MS = 10_000;

export class GitHubWebhookServer {
  private readonly handler: DeliveryHandler;
  private readonly metrics: WebhookMetrics;
  private readonly log: Logger;
  private readonly maxBodyBytes: number;
  private readonly insecure: boolean;
  private server: Server | undefined;
  private closing = false;

  constructor(options: GitHubWebhookServerOptions) {
    const secret = options.secret === '' ? undefined : options.secret;
    this.insecure = options.insecureSkipSignature === true;
    if (secret === undefined && !this.insecure) throw new WebhookSecretMissingError();
    this.log = options.logger;
    this.maxBodyBytes = options.maxBodyBytes ?? 25 * 1024 * 1024;
    this.metrics = new WebhookMetrics(options.registry);
    this.handler = new DeliveryHandler({
      client: options.client,
      logger: options.logger,
      secret: this.insecure ? undefined : secret,
      namespace: options.namespace,
      deliveries: new DeliveryLog(options.deliveryLogSize ?? 10_000),
      metrics: this.metrics,
      stamp: new SyncStamp(),
      writeTimeoutMs: options.writeTimeoutMs ?? 8_000,
    });
  }

  /** The address served (port resolved when 0 was asked for); undefined when not listening. */
  get address(): AddressInfo | undefined {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address : undefined;
  }

  /** Where GitHub delivers: http://HOST:PORT/webhook. */
  get url(): string {
    const address = this.address;
    if (!address) throw new Error('the webhook server is not listening');
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}${WEBHOOK_PATH}`;
  }

  get ready(): boolean {
    return this.server?.listening === true && !this.closing;
  }

  listen(port: number, host: string): Promise<void> {
    const server = createServer({ requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS }, (request, response) => {
      this.serve(request, response).catch((err: unknown) => {
        this.log.error({ err }, 'webhook server error');
        if (!response.headersSent) send(response, 500, { message: 'internal error' });
        else response.destroy();
      });
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        if (this.insecure) this.log.warn('signatures are not checked (--insecure-skip-signature): anyone who reaches this server can trigger Repository syncs');
        this.log.info({ url: this.url }, 'receiving GitHub webhook deliveries');
        resolve();
      });
    });
  }

  /** Stops accepting connections; deliveries in flight get CLOSE_GRACE_MS to finish. */
  close(): Promise<void> {
    const server = this.server;
    if (!server || this.closing) return Promise.resolve();
    this.closing = true;
    return new Promise((resolve) => {
      const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
      server.close(() => {
        clearTimeout(cut);
        resolve();
      });
      server.closeIdleConnections();
    });
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/healthz' || path === '/readyz') {
      if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, { message: 'use GET' }, { allow: 'GET, HEAD' });
      const ok = path === '/healthz' || this.ready;
      response.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(request.method === 'HEAD' ? undefined : ok ? 'ok\n' : 'shutting down\n');
      return;
    }
    if (path !== WEBHOOK_PATH) return send(response, 404, { message: `not found: GitHub deliveries go to POST ${WEBHOOK_PATH}` });
    const event = request.headers['x-github-event'];
    const eventName = typeof event === 'string' ? event : undefined;
    if (request.method !== 'POST') {
      this.metrics.delivered(eventName, 'rejected');
      return send(response, 405, { message: `method ${request.method} not allowed: GitHub deliveries are POSTed` }, { allow: 'POST' });
    }
    let body: Buffer;
    try {
      body = await readBody(request, this.maxBodyBytes);
    } catch (error) {
      if (!(error instanceof WebhookRequestError)) {
        // The request stream broke: the sender went away, and nobody is left to answer.
        this.log.debug({ err: error }, 'the connection closed before the body was read');
        response.destroy();
        return;
      }
      this.metrics.delivered(eventName, 'rejected');
      this.log.warn({ delivery: request.headers['x-github-delivery'], event: eventName, status: error.status }, error.message);
      return send(response, error.status, { message: error.message }, { connection: 'close' });
    }
    const answer = await this.handler.handle(request.headers, body, request.socket.remoteAddress);
    send(response, answer.status, { message: answer.message });
  }
}

function send(response: ServerResponse, status: number, body: { message: string }, headers: Record<string, string> = {}): void {
  const text = `${JSON.stringify(body)}\n`;
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}
