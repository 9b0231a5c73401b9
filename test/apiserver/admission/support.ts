// Shared pieces of the admission tests: a tiny https webhook server (self-signed certificate, programmable
// answers per path, a log of every AdmissionReview it received) and helpers that write webhook configurations.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer } from 'node:net';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { loadOrCreateServingCert } from '../../../src/apiserver/auth/serving-cert.ts';
import { after, before } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';

export interface ReceivedReview {
  /** The path the review was posted to, e.g. `/validate`. */
  path: string;
  /** The query string kube-apiserver adds (`timeout=10s`). */
  query: string;
  contentType: string | undefined;
  review: Record<string, any>;
  request: Record<string, any>;
}

/** What a handler answers: the `response` fields besides uid, or a whole body, or nothing (hang). */
export type Answer =
  | { response: Record<string, unknown> }
  | { body: string; status?: number; contentType?: string }
  | { hang: true };

export type Handler = (request: Record<string, any>, received: ReceivedReview) => Answer | Promise<Answer>;

export interface WebhookServer {
  readonly port: number;
  /** The serving certificate (PEM). */
  readonly cert: string;
  /** The certificate as clientConfig.caBundle wants it (base64 of the PEM). */
  readonly caBundle: string;
  readonly received: ReceivedReview[];
  url(path: string): string;
  on(path: string, handler: Handler): void;
  /** Reviews received on `path` since `mark`. */
  receivedOn(path: string, mark?: number): ReceivedReview[];
  mark(): number;
  close(): Promise<void>;
}

export const allow = (extra: Record<string, unknown> = {}): Answer => ({ response: { allowed: true, ...extra } });
export const deny = (status: Record<string, unknown>, extra: Record<string, unknown> = {}): Answer => ({ response: { allowed: false, status, ...extra } });
export const patch = (ops: unknown[], extra: Record<string, unknown> = {}): Answer => ({
  response: { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64'), ...extra },
});

export async function startWebhookServer(): Promise<WebhookServer> {
  const { cert, key } = await loadOrCreateServingCert(undefined, '127.0.0.1');
  const handlers = new Map<string, Handler>();
  const received: ReceivedReview[] = [];
  const hanging = new Set<() => void>();
  const server: Server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'https://localhost');
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
        const entry: ReceivedReview = { path: url.pathname, query: url.search.slice(1), contentType: req.headers['content-type'], review, request: review['request'] };
        received.push(entry);
        const handler = handlers.get(url.pathname) ?? (() => allow());
        const answer = await handler(entry.request, entry);
        if ('hang' in answer) {
          hanging.add(() => res.destroy());
          return;
        }
        if ('body' in answer) {
          res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'application/json' });
          res.end(answer.body);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: entry.request['uid'], ...answer.response } }));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    cert,
    caBundle: Buffer.from(cert).toString('base64'),
    received,
    url: (path) => `https://127.0.0.1:${port}${path}`,
    on: (path, handler) => void handlers.set(path, handler),
    receivedOn: (path, mark = 0) => received.slice(mark).filter((r) => r.path === path),
    mark: () => received.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const end of hanging) end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A loopback port nothing listens on (connection refused). */
export async function closedPort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export const validatingPath = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
export const mutatingPath = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';

export interface WebhookSpec {
  name: string;
  url?: string;
  service?: Record<string, unknown>;
  caBundle?: string;
  rules?: Record<string, unknown>[];
  [field: string]: unknown;
}

/** A webhook entry with what v1 requires (sideEffects, admissionReviewVersions) and ConfigMap CREATE rules by default. */
export function webhookEntry(spec: WebhookSpec): Record<string, unknown> {
  const { name, url, service, caBundle, rules, ...rest } = spec;
  const clientConfig: Record<string, unknown> = service ? { service } : { url };
  if (caBundle !== undefined) clientConfig['caBundle'] = caBundle;
  return {
    name,
    clientConfig,
    rules: rules ?? [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...rest,
  };
}

export async function createValidating(server: TestServer, name: string, webhooks: WebhookSpec[]): Promise<KubeObject> {
  return server.json<KubeObject>(validatingPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name }, webhooks: webhooks.map(webhookEntry) }),
    expect: 201,
  });
}

export async function createMutating(server: TestServer, name: string, webhooks: WebhookSpec[]): Promise<KubeObject> {
  return server.json<KubeObject>(mutatingPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name }, webhooks: webhooks.map(webhookEntry) }),
    expect: 201,
  });
}

export async function deleteConfiguration(server: TestServer, path: string, name: string): Promise<void> {
  await server.json(`${path}/${name}`, { method: 'DELETE' });
}

export function configMap(name: string, data: Record<string, string> = { a: '1' }, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(labels ? { labels } : {}) }, data };
}

/** POST a ConfigMap; returns the status and the parsed body (object or Status). */
export async function postConfigMap(server: TestServer, object: KubeObject, ns = 'default', query = ''): Promise<{ status: number; body: Record<string, any>; warnings: string | null }> {
  const res = await server.api(`/api/v1/namespaces/${ns}/configmaps${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(object) });
  return { status: res.status, body: (await res.json()) as Record<string, any>, warnings: res.headers.get('warning') };
}

export async function exists(server: TestServer, path: string): Promise<boolean> {
  const res = await server.api(path);
  await res.arrayBuffer();
  return res.status === 200;
}

export async function createLabelledNamespace(server: TestServer, name: string, labels: Record<string, string>): Promise<void> {
  await server.json('/api/v1/namespaces', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } }),
    expect: 201,
  });
}

/** An API server and a webhook server for the tests of the enclosing describe: started before, closed after. */
export function withServerAndWebhook(set: (server: TestServer, hook: WebhookServer) => void, options: Parameters<typeof startTestServer>[0] = {}): void {
  let server: TestServer | undefined;
  let hook: WebhookServer | undefined;
  before(async () => {
    server = await startTestServer(options);
    hook = await startWebhookServer();
    set(server, hook);
  });
  after(async () => {
    await hook?.close();
    await server?.close();
  });
}
