// HTTP(S) transport for a kubeconfig: client-node's KubeConfig supplies auth (tokens, token files,
// exec plugins, client certificates, in-cluster service account); we own the sockets: one keep-alive
// agent per cluster and TLS identity, shared process-wide (agent-pool.ts), for requests and watches.
import http from 'node:http';
import https from 'node:https';
import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import { NetworkError, clientTimeout } from './errors.ts';
import type { Transport, TransportRequest, TransportResponse, TransportStream } from './transport.ts';
import { acquireAgent, type AgentLease } from './agent-pool.ts';

export interface HttpTransportOptions {
  kubeConfig: KubeConfig;
  userAgent?: string;
  /** Deadline for unary requests that set none; default 60 s. */
  defaultTimeoutMs?: number;
  /** How long auth material (headers, TLS files) is reused before asking KubeConfig again; default 5 s. */
  authCacheMs?: number;
  /** Sockets per agent; default unlimited (each watch holds one). */
  maxSockets?: number;
}

type TlsOptions = Pick<https.AgentOptions, 'ca' | 'cert' | 'key' | 'pfx' | 'passphrase' | 'rejectUnauthorized' | 'servername'>;

interface AuthMaterial {
  headers: Record<string, string>;
  agent: http.Agent;
  fetchedAt: number;
}

const tlsKeys = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const;

export class HttpTransport implements Transport {
  readonly defaultNamespace: string | undefined;
  readonly server: URL;
  private readonly kc: KubeConfig;
  private readonly isHttps: boolean;
  private readonly userAgent: string;
  private readonly defaultTimeoutMs: number;
  private readonly authCacheMs: number;
  private readonly maxSockets: number;
  /** Keyed by a fingerprint of the TLS identity: exec plugins may rotate client certificates. */
  private readonly leases = new Map<string, AgentLease>();
  private auth: AuthMaterial | undefined;
  private authPending: Promise<AuthMaterial> | undefined;
  private readonly open = new Set<http.ClientRequest>();
  private closed = false;

  constructor(options: HttpTransportOptions) {
    this.kc = options.kubeConfig;
    const cluster = this.kc.getCurrentCluster();
    if (!cluster) throw new Error(`kubeconfig: context "${this.kc.getCurrentContext()}" names no cluster`);
    this.server = new URL(cluster.server);
    this.isHttps = this.server.protocol === 'https:';
    if (!this.isHttps && this.server.protocol !== 'http:') throw new Error(`kubeconfig: unsupported server URL ${cluster.server}`);
    const context = this.kc.getContextObject(this.kc.getCurrentContext());
    this.defaultNamespace = context?.namespace || undefined;
    this.userAgent = options.userAgent ?? 'bosun/0.1.0';
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 60_000;
    this.authCacheMs = options.authCacheMs ?? 5_000;
    this.maxSockets = options.maxSockets ?? Infinity;
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
    const res = await this.send(req, false);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of res.message) chunks.push(chunk as Buffer);
    } catch (err) {
      if (res.failure) throw res.failure;
      throw toNetworkError(err, `${req.method} ${req.path}: connection broke while reading the response`);
    } finally {
      res.done();
    }
    return { status: res.message.statusCode ?? 0, headers: flatHeaders(res.message.headers), body: Buffer.concat(chunks).toString('utf8') };
  }

  async stream(req: TransportRequest): Promise<TransportStream> {
    const res = await this.send(req, true);
    let aborted = false;
    const message = res.message;
    async function* body(): AsyncGenerator<Buffer> {
      try {
        for await (const chunk of message) yield chunk as Buffer;
      } catch (err) {
        if (!aborted) throw toNetworkError(err, `${req.method} ${req.path}: stream broke`);
      } finally {
        res.done();
      }
      // A response cut short by the server without an error event still counts as a normal end.
    }
    return {
      status: message.statusCode ?? 0,
      headers: flatHeaders(message.headers),
      body: body(),
      abort: () => {
        aborted = true;
        res.abort();
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const r of this.open) r.destroy();
    this.open.clear();
    for (const lease of this.leases.values()) lease.release();
    this.leases.clear();
  }

  private async send(req: TransportRequest, streaming: boolean, retried = false): Promise<Sent> {
    if (this.closed) throw new NetworkError('transport is closed', { code: 'ECLOSED' });
    const auth = await this.authMaterial();
    let sent: Sent;
    try {
      sent = await this.sendOnce(req, auth, streaming);
    } catch (err) {
      // A pooled socket the server already closed: Node reports ECONNRESET on reuse. Safe to retry reads once.
      if (!retried && req.method === 'GET' && err instanceof NetworkError && err.reusedSocket && !req.signal?.aborted) {
        return this.send(req, streaming, true);
      }
      throw err;
    }
    // Rotated credentials (exec plugin, token file): refresh once and retry.
    if (sent.message.statusCode === 401 && !retried) {
      sent.message.resume();
      sent.done();
      this.auth = undefined;
      return this.send(req, streaming, true);
    }
    return sent;
  }

  private sendOnce(req: TransportRequest, auth: AuthMaterial, streaming: boolean): Promise<Sent> {
    const signal = req.signal;
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const basePath = this.server.pathname.replace(/\/+$/, '');
    const headers: Record<string, string> = { ...auth.headers, Accept: 'application/json', 'User-Agent': this.userAgent };
    if (req.body !== undefined) {
      headers['Content-Type'] = req.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(req.body));
    }
    const options: https.RequestOptions = {
      protocol: this.server.protocol,
      hostname: this.server.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: this.server.port || (this.isHttps ? 443 : 80),
      method: req.method,
      path: basePath + req.path,
      headers,
      agent: auth.agent,
    };
    return new Promise<Sent>((resolve, reject) => {
      const r = (this.isHttps ? https : http).request(options);
      this.open.add(r);
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      let failure: Error | undefined;
      const cleanup = (): void => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.open.delete(r);
      };
      const onAbort = (): void => {
        failure = signal?.reason instanceof Error ? signal.reason : new Error('aborted');
        r.destroy(failure);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const timeoutMs = streaming ? undefined : (req.timeoutMs ?? this.defaultTimeoutMs);
      if (timeoutMs !== undefined && timeoutMs > 0) {
        timer = setTimeout(() => {
          failure = clientTimeout(`${req.method} ${req.path}: no answer within ${timeoutMs} ms`);
          r.destroy(failure);
        }, timeoutMs);
      }
      r.on('error', (err) => {
        if (settled) return;
        settled = true;
        cleanup();
        if (failure) reject(failure);
        else reject(toNetworkError(err, `${req.method} ${req.path}: ${err.message}`, r.reusedSocket));
      });
      r.on('response', (message) => {
        if (settled) return;
        settled = true;
        resolve({
          message,
          get failure() {
            return failure;
          },
          // The deadline covers the body too; done() releases timer and abort listener.
          done: cleanup,
          abort: () => {
            cleanup();
            r.destroy();
          },
        });
      });
      r.end(req.body);
    });
  }

  /** Headers and agent from KubeConfig, cached briefly: applyToHTTPSOptions may read files or run exec plugins. */
  private async authMaterial(): Promise<AuthMaterial> {
    const cached = this.auth;
    if (cached && Date.now() - cached.fetchedAt < this.authCacheMs) return cached;
    this.authPending ??= this.loadAuth().finally(() => (this.authPending = undefined));
    return this.authPending;
  }

  private async loadAuth(): Promise<AuthMaterial> {
    const opts: https.RequestOptions = {};
    try {
      await this.kc.applyToHTTPSOptions(opts);
    } catch (err) {
      // client-node 1.4 refuses http:// servers without insecure-skip-tls-verify, but only after it has
      // filled in the auth headers; plain HTTP needs no TLS settings, so go on with those headers.
      const refusedHttp = !this.isHttps && err instanceof Error && /HTTP protocol is not allowed/.test(err.message);
      if (!refusedHttp) throw err;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) {
      if (typeof v === 'string' || typeof v === 'number') headers[k] = String(v);
      else if (Array.isArray(v)) headers[k] = v.join(', ');
    }
    if (opts.auth) headers.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
    const tls: TlsOptions = {};
    for (const k of tlsKeys) if (opts[k] !== undefined) (tls as Record<string, unknown>)[k] = opts[k];
    const clientNodeAgent = opts.agent instanceof http.Agent ? opts.agent : undefined;
    const material: AuthMaterial = { headers, agent: this.agentFor(tls, clientNodeAgent), fetchedAt: Date.now() };
    this.auth = material;
    return material;
  }

  private agentFor(tls: TlsOptions, clientNodeAgent: http.Agent | undefined): http.Agent {
    const cluster = this.kc.getCurrentCluster();
    const fingerprint = fingerprintOf(tls);
    const proxied = Boolean(cluster?.proxyUrl && clientNodeAgent);
    let lease = this.leases.get(fingerprint);
    if (!lease) {
      const key = `${this.server.origin}|${cluster?.proxyUrl ?? ''}|${this.maxSockets}|${fingerprint}`;
      lease = acquireAgent(key, () => {
        if (proxied && clientNodeAgent) {
          // Proxies (http/https/socks) are client-node's business; keep its agent but pool its sockets.
          (clientNodeAgent as http.Agent & { keepAlive: boolean }).keepAlive = true;
          return clientNodeAgent;
        }
        const common = { keepAlive: true, keepAliveMsecs: 30_000, maxSockets: this.maxSockets, scheduling: 'lifo' as const };
        return this.isHttps ? new https.Agent({ ...common, ...tls }) : new http.Agent(common);
      });
      this.leases.set(fingerprint, lease);
      // Rotations are rare; keep a few identities so in-flight watches on the old one survive.
      if (this.leases.size > 4) {
        const oldest = this.leases.keys().next().value;
        if (oldest !== undefined) {
          this.leases.get(oldest)?.release();
          this.leases.delete(oldest);
        }
      }
    }
    // client-node builds a fresh agent on every call (its FD leak, #2904); drop the ones we do not keep.
    if (clientNodeAgent && clientNodeAgent !== lease.agent) clientNodeAgent.destroy();
    return lease.agent;
  }
}

interface Sent {
  message: http.IncomingMessage;
  /** Why we destroyed the request ourselves (deadline or abort), if we did. */
  readonly failure: Error | undefined;
  done(): void;
  abort(): void;
}

function fingerprintOf(tls: TlsOptions): string {
  const h = createHash('sha256');
  for (const k of tlsKeys) {
    const v = tls[k];
    h.update(`${k}:`);
    if (v === undefined) h.update('-');
    else if (Array.isArray(v)) for (const item of v) h.update(typeof item === 'string' || Buffer.isBuffer(item) ? item : JSON.stringify(item));
    else if (typeof v === 'string' || Buffer.isBuffer(v)) h.update(v);
    else h.update(JSON.stringify(v));
    h.update('\n');
  }
  return h.digest('hex');
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function toNetworkError(err: unknown, message: string, reusedSocket = false): NetworkError {
  if (err instanceof NetworkError) return err;
  return new NetworkError(message, { cause: err, reusedSocket });
}
