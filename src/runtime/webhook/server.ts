// The admission webhook server (controller-runtime's webhook.Server): HTTPS, handlers by path, AdmissionReview
// v1 in and out. It binds to loopback by default and makes its own CA and serving certificate unless it is
// given one; `caBundle` is what a webhook configuration must carry. A handler that throws is a denial with
// code 500, never a crash, and a malformed body is a 400.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createLogger } from '../logger.ts';
import { AdmissionReviewError, admissionReviewOf, decodeAdmissionReview, encodeAdmissionReview, type AdmissionRequest, type AdmissionResponse } from './admission-review.ts';
import { generateWebhookCertificates, type WebhookCertificates } from './certificates.ts';
import { denied } from './responses.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

export type AdmissionHandler = (request: AdmissionRequest) => AdmissionResponse | Promise<AdmissionResponse>;

export interface WebhookServerOptions {
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /**
   * The base URL the API server calls (paths are appended). Default https://HOST:PORT, which cannot be
   * derived when HOST is a wildcard address.
   */
  url?: string;
  /** A serving certificate to use instead of a generated one (replicas behind one URL must share it). */
  tls?: { cert: string; key: string; caBundle?: string };
  logger?: Logger;
  /** Largest accepted request body; default 8 MiB (an object and its old version, each up to 3 MiB, plus the review). */
  maxBodyBytes?: number;
}

export class WebhookServerError extends Error {
  override readonly name = 'WebhookServerError' as const;
}

const WILDCARD = new Set(['0.0.0.0', '::', '']);

class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError' as const;
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so that the 413 still reaches the client.
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => (size > limit ? reject(new BodyTooLargeError(`request body exceeds ${limit} bytes`)) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export class WebhookServer {
  readonly log: Logger;
  private readonly o: WebhookServerOptions;
  private readonly handlers = new Map<string, AdmissionHandler>();
  private server: Server | undefined;
  private certs: WebhookCertificates | undefined;
  /** Certificates given by useCertificates (kept in a Secret and shared by the replicas). */
  private suppliedCerts = false;

  constructor(options: WebhookServerOptions = {}) {
    this.o = options;
    this.log = (options.logger ?? createLogger()).child({ component: 'webhook-server' });
    if (options.url !== undefined) {
      const parsed = new URL(options.url);
      if (parsed.protocol !== 'https:') throw new WebhookServerError(`webhook url ${options.url} must be https`);
    }
  }

  /** Serves `handler` at `path` (e.g. /webhook/validate/installations); may be called after start. */
  register(path: string, handler: AdmissionHandler): void {
    if (!path.startsWith('/')) throw new WebhookServerError(`webhook path ${JSON.stringify(path)} must start with "/"`);
    if (this.handlers.has(path)) throw new WebhookServerError(`a handler is already registered at ${path}`);
    this.handlers.set(path, handler);
  }

  get paths(): string[] {
    return [...this.handlers.keys()];
  }

  get listening(): boolean {
    return this.server?.listening === true;
  }

  get address(): AddressInfo | undefined {
    const a = this.server?.address();
    return a && typeof a === 'object' ? a : undefined;
  }

  /** PEM of the CA the API server must trust (the caBundle); known once started. */
  get caBundle(): string {
    if (!this.certs) throw new WebhookServerError('the webhook server has not started: no certificate yet');
    return this.certs.caBundle;
  }

  /** True when the certificate was made by this process, so no other process can serve under it. */
  get generatedCertificate(): boolean {
    return this.o.tls === undefined && !this.suppliedCerts;
  }

  /** Serves these certificates from now on (before start, or a rotation while serving: new connections get them). */
  useCertificates(certs: WebhookCertificates): void {
    this.certs = { cert: certs.cert, key: certs.key, caBundle: certs.caBundle };
    this.suppliedCerts = true;
    this.server?.setSecureContext({ cert: certs.cert, key: certs.key });
  }

  /** The base URL the API server calls, without a trailing slash. */
  get url(): string {
    if (this.o.url !== undefined) return this.o.url.replace(/\/+$/, '');
    const address = this.address;
    if (!address) throw new WebhookServerError('the webhook server is not listening: its url is not known yet');
    const host = this.o.host ?? '127.0.0.1';
    if (WILDCARD.has(host)) throw new WebhookServerError(`the webhook server listens on ${host || 'all addresses'}: give it the url the API server reaches it at`);
    return `https://${hostForUrl(host)}:${address.port}`;
  }

  /** The URL of one handler. */
  urlFor(path: string): string {
    return `${this.url}${path}`;
  }

  async start(): Promise<void> {
    if (this.server) throw new WebhookServerError('the webhook server was already started');
    const host = this.o.host ?? '127.0.0.1';
    if (this.o.tls) {
      this.certs = { cert: this.o.tls.cert, key: this.o.tls.key, caBundle: this.o.tls.caBundle ?? this.o.tls.cert };
    } else if (!this.suppliedCerts || !this.certs) {
      const hosts = [host];
      if (this.o.url !== undefined) hosts.push(new URL(this.o.url).hostname.replace(/^\[|\]$/g, ''));
      this.certs = await generateWebhookCertificates(hosts);
    }
    const certs = this.certs;
    const server = createServer({ cert: certs.cert, key: certs.key }, (req, res) => {
      void this.serve(req, res);
    });
    // A broken TLS handshake or a reset socket is the client's problem; keep serving.
    server.on('clientError', (err, socket) => {
      this.log.debug({ err }, 'webhook client error');
      socket.destroy();
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.o.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.log.info({ address: this.address, paths: this.paths }, 'webhook server listening');
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    this.log.info('webhook server stopped');
  }

  /**
   * The answer to a review POSTed to `url`, computed in this process without the HTTPS round trip, for an API
   * server that runs in the same process; undefined when `url` is not one of this server's handlers.
   */
  answerInProcess(url: URL, body: string): Promise<unknown> | undefined {
    const address = this.address;
    if (!address || url.protocol !== 'https:') return undefined;
    const served = new URL(this.url);
    if (url.host !== served.host) return undefined;
    const path = url.pathname;
    const handler = this.handlers.get(path);
    if (!handler) return undefined;
    return (async () => {
      const request = decodeAdmissionReview(body);
      return admissionReviewOf(request.uid, await this.run(handler, request, path));
    })();
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    try {
      if (req.method === 'GET' && (path === '/healthz' || path === '/readyz')) return this.reply(res, 200, 'text/plain', 'ok\n');
      const handler = this.handlers.get(path);
      if (!handler) return this.reply(res, 404, 'text/plain', `no webhook at ${path}\n`);
      if (req.method !== 'POST') return this.reply(res, 405, 'text/plain', 'only POST is allowed\n', { allow: 'POST' });
      const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
      if (type !== 'application/json') return this.badRequest(res, `content type ${JSON.stringify(type)} is not application/json`);
      let request: AdmissionRequest;
      try {
        request = decodeAdmissionReview(await readBody(req, this.o.maxBodyBytes ?? 8 * 1024 * 1024));
      } catch (err) {
        if (err instanceof AdmissionReviewError) return this.badRequest(res, err.message);
        if (err instanceof BodyTooLargeError) return this.reply(res, 413, 'text/plain', `${err.message}\n`);
        throw err;
      }
      const response = await this.run(handler, request, path);
      this.reply(res, 200, 'application/json', encodeAdmissionReview(request.uid, response));
    } catch (err) {
      this.log.error({ err, path }, 'webhook request failed');
      if (!res.headersSent) this.reply(res, 500, 'text/plain', 'internal error\n');
      else res.destroy();
    }
  }

  private async run(handler: AdmissionHandler, request: AdmissionRequest, path: string): Promise<AdmissionResponse> {
    const where = { path, uid: request.uid, operation: request.operation, kind: request.kind.kind, name: request.name ?? request.object?.metadata.name, namespace: request.namespace };
    let response: AdmissionResponse;
    try {
      response = await handler(request);
    } catch (err) {
      // A bug in one handler must not take the server (or the API server's writes) down with it.
      this.log.error({ err, ...where }, 'webhook handler threw');
      return denied(`internal error in webhook ${path}: ${messageOf(err)}`, 500);
    }
    if (response.allowed) this.log.debug({ ...where, patched: (response.patch?.length ?? 0) > 0 }, 'admission allowed');
    else this.log.info({ ...where, reason: response.result?.message }, 'admission denied');
    return response;
  }

  /** 400 with an AdmissionReview body, so that a caller that reads reviews sees the reason too. */
  private badRequest(res: ServerResponse, message: string): void {
    this.reply(res, 400, 'application/json', encodeAdmissionReview('', denied(`malformed AdmissionReview: ${message}`, 400)));
  }

  private reply(res: ServerResponse, code: number, type: string, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(code, { 'content-type': type, ...headers });
    res.end(body);
  }
}
