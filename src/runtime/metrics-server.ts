// The manager's HTTP endpoint (controller-runtime's metrics and health probe servers in one): /metrics in
// Prometheus text, /healthz and /readyz with kube-apiserver's "[+]name ok" lines and 503 on a failed check.
// Secured (as controller-runtime's secure metrics serving): HTTPS, and /metrics only for a bearer token, since
// a pod on the host network reaches every loopback port; the probes stay open, as kubelet probes them.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { bearerMatches } from './bearer-token.ts';

export type HealthCheck = () => boolean | Promise<boolean>;

export interface MetricsSecurity {
  /** The bearer token /metrics requires. */
  token: string;
  /** The serving certificate and key (PEM). */
  tls: { cert: string; key: string };
}

export class MetricsServer {
  private readonly registry: Registry;
  private readonly log: Logger;
  private readonly healthChecks = new Map<string, HealthCheck>([['ping', () => true]]);
  private readonly readyChecks = new Map<string, HealthCheck>();
  private server: Server | undefined;

  constructor(registry: Registry, log: Logger) {
    this.registry = registry;
    this.log = log;
  }

  addHealthzCheck(name: string, check: HealthCheck): void {
    this.healthChecks.set(name, check);
  }

  addReadyzCheck(name: string, check: HealthCheck): void {
    this.readyChecks.set(name, check);
  }

  /** The address served (port resolved when 0 was asked for); undefined when not listening. */
  get address(): AddressInfo | undefined {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address : undefined;
  }

  listen(port: number, host: string, security?: MetricsSecurity): Promise<void> {
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      void this.serve(req.url ?? '/', security === undefined || bearerMatches(req.headers.authorization, security.token)).then(
        ({ code, type, body }) => {
          res.writeHead(code, { 'content-type': type });
          res.end(body);
        },
        (err: unknown) => {
          this.log.error({ err }, 'metrics server error');
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end('internal error\n');
        },
      );
    };
    const server = security === undefined ? createServer(handle) : createHttpsServer(security.tls, handle);
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        this.log.info({ address: this.address }, 'serving /metrics, /healthz and /readyz');
        resolve();
      });
    });
  }

  close(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    this.server = undefined;
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async serve(url: string, authenticated: boolean): Promise<{ code: number; type: string; body: string }> {
    const path = url.split('?')[0];
    if (path === '/metrics' && !authenticated) return { code: 401, type: 'text/plain', body: 'Unauthorized\n' };
    if (path === '/metrics') return { code: 200, type: this.registry.contentType, body: await this.registry.metrics() };
    if (path === '/healthz' || path === '/readyz') {
      const checks = new Map(this.healthChecks);
      if (path === '/readyz') for (const [name, check] of this.readyChecks) checks.set(name, check);
      const lines: string[] = [];
      let ok = true;
      for (const [name, check] of checks) {
        const passed = await Promise.resolve()
          .then(check)
          .catch(() => false);
        ok &&= passed;
        lines.push(`[${passed ? '+' : '-'}]${name} ${passed ? 'ok' : 'failed'}`);
      }
      lines.push(ok ? `${path.slice(1)} check passed` : `${path.slice(1)} check failed`);
      return { code: ok ? 200 : 503, type: 'text/plain; charset=utf-8', body: `${lines.join('\n')}\n` };
    }
    return { code: 404, type: 'text/plain', body: 'not found\n' };
  }
}
