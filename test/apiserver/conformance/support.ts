// Shared pieces of the conformance suite: fixtures, a server with the Widget CRD, small API helpers and a
// plain-http proxy that can hide aggregated discovery (K2) and cut watches (C6, C7).
import { createServer, type ClientRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { ApiServerOptions } from '../../../src/apiserver/index.ts';
import type { RequestLogEntry } from '../../../src/apiserver/router.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';

export const fixturesDir = join(import.meta.dirname, 'fixtures');

export function fixturePath(name: string): string {
  return join(fixturesDir, name);
}

export function fixture(name: string): KubeObject[] {
  return parseAllDocuments(readFileSync(fixturePath(name), 'utf8')).map((d) => d.toJS() as KubeObject);
}

export function fixtureText(name: string): string {
  return readFileSync(fixturePath(name), 'utf8');
}

export const widgetCrd = (): KubeObject => fixture('widget-crd.yaml')[0]!;

/** A server with the Widget CRD installed. */
export function startConformanceServer(options: ApiServerOptions = {}): Promise<TestServer> {
  return startTestServer({ crds: [widgetCrd()], ...options });
}

export const widgetsPath = (ns = 'default') => `/apis/example.com/v1/namespaces/${ns}/widgets`;
export const TABLE_ACCEPT_PREFIX = 'application/json;as=Table;v=v1;g=meta.k8s.io';

export function widget(name: string, spec: Record<string, unknown> = { size: 1 }, metadata: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, ...metadata }, spec };
}

export async function createWidget(server: TestServer, object: KubeObject, ns = 'default'): Promise<KubeObject> {
  return server.json<KubeObject>(widgetsPath(ns), { method: 'POST', body: JSON.stringify(object), headers: { 'content-type': 'application/json' }, expect: 201 });
}

export async function getWidget(server: TestServer, name: string, ns = 'default'): Promise<KubeObject> {
  return server.json<KubeObject>(`${widgetsPath(ns)}/${name}`);
}

export async function status(server: TestServer, path: string): Promise<number> {
  const res = await server.api(path);
  await res.arrayBuffer();
  return res.status;
}

export async function mergePatch(server: TestServer, path: string, patch: unknown, expect = 200): Promise<KubeObject> {
  return server.json<KubeObject>(path, {
    method: 'PATCH',
    body: JSON.stringify(patch),
    headers: { 'content-type': 'application/merge-patch+json' },
    expect,
  });
}

export async function createNamespace(server: TestServer, name: string): Promise<void> {
  await server.json('/api/v1/namespaces', { method: 'POST', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }), headers: { 'content-type': 'application/json' }, expect: 201 });
}

/** Requests whose path (without query) equals `path`. */
export function byPath(entries: RequestLogEntry[], path: string): RequestLogEntry[] {
  return entries.filter((e) => e.url.split('?')[0] === path);
}

export function query(entry: RequestLogEntry): URLSearchParams {
  return new URL(entry.url, 'http://x').searchParams;
}

/** Only what kubectl itself sent (not the dispatcher's /version probe, not test fetches). */
export function fromKubectl(entries: RequestLogEntry[]): RequestLogEntry[] {
  return entries.filter((e) => e.userAgent?.startsWith('kubectl/') === true);
}

export interface TestProxy {
  /** Kubeconfig YAML for the proxy: plain http with insecure-skip-tls-verify; the proxy adds the token. */
  readonly kubeconfig: string;
  readonly kubeconfigFile: string;
  /** Ends every open watch stream cleanly, as a server-side timeout does; with `hold`, new watches wait for releaseWatches(). */
  endWatches(options?: { hold?: boolean }): void;
  /** Lets held watch requests through. */
  releaseWatches(): void;
  /** Answers the next watch request itself with an HTTP 410 Expired Status. */
  expireNextWatchWithHttp410(): void;
  close(): Promise<void>;
}

/**
 * A plain-http pass-through proxy in front of the https test server; it adds the bearer token. With
 * `legacyDiscovery` it strips the aggregated-discovery media types from the Accept of /api and /apis, so kubectl
 * sees a server without aggregated discovery (K2). It can also cut watches (C6, C7). The server's own request
 * log still records every request that reaches it.
 */
export async function startProxy(server: TestServer, options: { legacyDiscovery?: boolean } = {}): Promise<TestProxy> {
  const target = new URL(server.url);
  const agent = new HttpsAgent({ ca: server.caCert, keepAlive: true });
  const open = new Set<{ res: ServerResponse; upstream: ClientRequest }>();
  let http410 = false;
  let held: (() => void)[] | undefined;
  const proxy: Server = createServer((req, res) => {
    const isWatch = /[?&]watch=(true|1)(&|$)/.test(req.url ?? '');
    if (isWatch && held) {
      req.pause();
      held.push(() => {
        req.resume();
        forward(req, res, isWatch);
      });
      return;
    }
    forward(req, res, isWatch);
  });
  const forward = (req: IncomingMessage, res: ServerResponse, isWatch: boolean) => {
    if (isWatch && http410) {
      http410 = false;
      res.writeHead(410, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version', reason: 'Expired', code: 410 }));
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    const headers = { ...req.headers, host: target.host, authorization: `Bearer ${server.token}` };
    if (options.legacyDiscovery && (path === '/api' || path === '/apis')) headers['accept'] = 'application/json';
    const upstream = httpsRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      res.flushHeaders(); // watch headers must reach the client at once, as the server sends them
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    const entry = { res, upstream };
    // A client that goes away takes its upstream request with it (the server then logs the request).
    res.on('close', () => upstream.destroy());
    if (isWatch) {
      open.add(entry);
      res.on('close', () => open.delete(entry));
    }
    req.pipe(upstream);
  };
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as AddressInfo).port;
  const kubeconfig = stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'proxy', cluster: { server: `http://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'proxy', user: {} }],
    contexts: [{ name: 'proxy', context: { cluster: 'proxy', user: 'proxy', namespace: 'default' } }],
    'current-context': 'proxy',
  });
  const dir = mkdtempSync(join(tmpdir(), 'bosun-proxy-'));
  const kubeconfigFile = join(dir, 'kubeconfig');
  writeFileSync(kubeconfigFile, kubeconfig, { mode: 0o600 });
  return {
    kubeconfig,
    kubeconfigFile,
    endWatches(options = {}) {
      if (options.hold) held ??= [];
      for (const { res, upstream } of open) {
        upstream.destroy();
        res.end();
      }
      open.clear();
    },
    releaseWatches() {
      const waiting = held ?? [];
      held = undefined;
      for (const go of waiting) go();
    },
    expireNextWatchWithHttp410() {
      http410 = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        proxy.close(() => resolve());
        proxy.closeAllConnections();
      }),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
