// KubeClient over any Transport: URL building, query parameters, content types, error mapping, discovery.
import { podsResource, serviceAccountsResource } from '../apimachinery/builtin-resources.ts';
import { apiVersionOf } from '../apimachinery/group-version.ts';
import type { KubeList, KubeObject, Status } from '../apimachinery/object.ts';
import {
  isResourceRef,
  type DeleteCollectionOptions,
  type DeleteOptions,
  type GetOptions,
  type IssuedToken,
  type KubeClient,
  type ListOptions,
  type PatchBody,
  type PatchOptions,
  type PatchType,
  type PodLogOptions,
  type RequestOptions,
  type ResourceRef,
  type ResourceTarget,
  type TokenRequestOptions,
  type WatchOptions,
  type WatchStream,
  type WriteOptions,
} from './client.ts';
import { Discovery } from './discovery.ts';
import { errorFromStatus, toStatus } from './errors.ts';
import type { HttpMethod, Transport } from './transport.ts';
import { decodeWatchStream } from './watch-stream.ts';

export const patchContentTypes: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  // JSON is YAML; the server accepts JSON bodies under the apply content type.
  apply: 'application/apply-patch+yaml',
};

export interface RestClientOptions {
  /** Overrides the transport's context namespace for calls that name none; kubectl's fallback is 'default'. */
  defaultNamespace?: string;
  /** Field manager for writes that set none. */
  fieldManager?: string;
}

type Query = Record<string, string | number | boolean | undefined>;

interface Call {
  method: HttpMethod;
  path: string;
  query?: Query;
  body?: unknown;
  contentType?: string;
  options?: RequestOptions;
}

export class RestClient implements KubeClient {
  readonly defaultNamespace: string | undefined;
  private readonly transport: Transport;
  private readonly discovery: Discovery;
  private readonly fieldManager: string | undefined;

  constructor(transport: Transport, options: RestClientOptions = {}) {
    this.transport = transport;
    this.defaultNamespace = options.defaultNamespace ?? transport.defaultNamespace ?? 'default';
    this.fieldManager = options.fieldManager;
    this.discovery = new Discovery((path, signal) => this.call({ method: 'GET', path, options: signal ? { signal } : {} }));
  }

  async resolve(target: ResourceTarget, options?: RequestOptions): Promise<ResourceRef> {
    if (isResourceRef(target)) return target;
    return this.discovery.resolve(target.apiVersion, target.kind, options?.signal);
  }

  async get<T extends KubeObject = KubeObject>(target: ResourceTarget, name: string, options: GetOptions = {}): Promise<T> {
    const ref = await this.resolve(target, options);
    return this.call<T>({ method: 'GET', path: this.path(ref, this.namespaceFor(ref, options.namespace), name), query: { resourceVersion: options.resourceVersion }, options });
  }

  async list<T extends KubeObject = KubeObject>(target: ResourceTarget, options: ListOptions = {}): Promise<KubeList<T>> {
    const ref = await this.resolve(target, options);
    return this.call<KubeList<T>>({
      method: 'GET',
      path: this.path(ref, ref.namespaced ? options.namespace : undefined),
      query: {
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        limit: options.limit,
        continue: options.continue,
        resourceVersion: options.resourceVersion,
        resourceVersionMatch: options.resourceVersionMatch,
      },
      options,
    });
  }

  async watch<T extends KubeObject = KubeObject>(target: ResourceTarget, options: WatchOptions = {}): Promise<WatchStream<T>> {
    const ref = await this.resolve(target, options);
    const fieldSelector = options.name !== undefined ? joinSelectors(`metadata.name=${options.name}`, options.fieldSelector) : options.fieldSelector;
    const path =
      this.path(ref, ref.namespaced ? options.namespace : undefined) +
      queryString({
        watch: 'true',
        resourceVersion: options.resourceVersion,
        allowWatchBookmarks: options.allowWatchBookmarks ? 'true' : undefined,
        timeoutSeconds: options.timeoutSeconds,
        labelSelector: options.labelSelector,
        fieldSelector,
      });
    const raw = await this.transport.stream({ method: 'GET', path, ...(options.signal ? { signal: options.signal } : {}) });
    if (raw.status !== 200) {
      const chunks: string[] = [];
      try {
        for await (const c of raw.body) chunks.push(typeof c === 'string' ? c : c.toString('utf8'));
      } finally {
        raw.abort();
      }
      throw errorFromStatus(toStatus(raw.status, parseJson(chunks.join(''))), raw.headers['retry-after']);
    }
    return decodeWatchStream<T>(raw);
  }

  async create<T extends KubeObject = KubeObject>(target: ResourceTarget, obj: T, options: WriteOptions = {}): Promise<T> {
    const ref = await this.resolve(target, options);
    const ns = this.namespaceFor(ref, options.namespace ?? obj.metadata.namespace);
    return this.call<T>({ method: 'POST', path: this.path(ref, ns), query: this.writeQuery(options), body: withTypeMeta(ref, obj), options });
  }

  async update<T extends KubeObject = KubeObject>(target: ResourceTarget, obj: T, options: WriteOptions = {}): Promise<T> {
    return this.put(target, obj, options, '');
  }

  async updateStatus<T extends KubeObject = KubeObject>(target: ResourceTarget, obj: T, options: WriteOptions = {}): Promise<T> {
    return this.put(target, obj, options, '/status');
  }

  async patch<T extends KubeObject = KubeObject>(target: ResourceTarget, name: string, body: PatchBody, options: PatchOptions): Promise<T> {
    return this.sendPatch(target, name, body, options, '');
  }

  async patchStatus<T extends KubeObject = KubeObject>(target: ResourceTarget, name: string, body: PatchBody, options: PatchOptions): Promise<T> {
    return this.sendPatch(target, name, body, options, '/status');
  }

  async delete<T extends KubeObject = KubeObject>(target: ResourceTarget, name: string, options: DeleteOptions = {}): Promise<T | Status> {
    const ref = await this.resolve(target, options);
    const ns = this.namespaceFor(ref, options.namespace);
    return this.call<T | Status>({ method: 'DELETE', path: this.path(ref, ns, name), query: deleteQuery(options), body: deleteBody(options), options });
  }

  async deleteCollection<T extends KubeObject = KubeObject>(target: ResourceTarget, options: DeleteCollectionOptions = {}): Promise<KubeList<T> | Status> {
    const ref = await this.resolve(target, options);
    const ns = ref.namespaced ? this.namespaceFor(ref, options.namespace) : undefined;
    return this.call<KubeList<T> | Status>({
      method: 'DELETE',
      path: this.path(ref, ns),
      query: { ...deleteQuery(options), labelSelector: options.labelSelector, fieldSelector: options.fieldSelector },
      body: deleteBody(options),
      options,
    });
  }

  async podLog(name: string, options: PodLogOptions = {}): Promise<string> {
    const ns = this.namespaceFor(podsResource, options.namespace);
    const query: Query = { container: options.container, tailLines: options.tailLines, limitBytes: options.limitBytes };
    const res = await this.transport.request({
      method: 'GET',
      path: `${this.path(podsResource, ns, name)}/log${queryString(query)}`,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    // The log is plain text; only an error answer is a JSON Status.
    if (res.status >= 200 && res.status < 300) return res.body;
    throw errorFromStatus(toStatus(res.status, parseJson(res.body) ?? res.body), res.headers['retry-after']);
  }

  async followPodLog(name: string, options: PodLogOptions = {}): Promise<AsyncIterable<string>> {
    const ns = this.namespaceFor(podsResource, options.namespace);
    const query: Query = { follow: 'true', container: options.container, tailLines: options.tailLines, limitBytes: options.limitBytes };
    const raw = await this.transport.stream({ method: 'GET', path: `${this.path(podsResource, ns, name)}/log${queryString(query)}`, ...(options.signal ? { signal: options.signal } : {}) });
    if (raw.status !== 200) {
      const chunks: string[] = [];
      try {
        for await (const c of raw.body) chunks.push(typeof c === 'string' ? c : c.toString('utf8'));
      } finally {
        raw.abort();
      }
      throw errorFromStatus(toStatus(raw.status, parseJson(chunks.join('')) ?? chunks.join('')), raw.headers['retry-after']);
    }
    return (async function* () {
      try {
        for await (const chunk of raw.body) yield typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      } finally {
        raw.abort();
      }
    })();
  }

  async createToken(serviceAccount: string, options: TokenRequestOptions = {}): Promise<IssuedToken> {
    const ns = this.namespaceFor(serviceAccountsResource, options.namespace);
    const { namespace: _namespace, signal: _signal, timeoutMs: _timeoutMs, ...spec } = options;
    const body = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec };
    const answer = await this.call<{ status: IssuedToken }>({ method: 'POST', path: `${this.path(serviceAccountsResource, ns, serviceAccount)}/token`, body, options });
    return answer.status;
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  private async put<T extends KubeObject>(target: ResourceTarget, obj: T, options: WriteOptions, sub: '' | '/status'): Promise<T> {
    const ref = await this.resolve(target, options);
    const name = obj.metadata.name;
    if (!name) throw new TypeError(`update of ${ref.kind}: metadata.name is required`);
    const ns = this.namespaceFor(ref, options.namespace ?? obj.metadata.namespace);
    return this.call<T>({ method: 'PUT', path: this.path(ref, ns, name) + sub, query: this.writeQuery(options), body: withTypeMeta(ref, obj), options });
  }

  private async sendPatch<T extends KubeObject>(target: ResourceTarget, name: string, body: PatchBody, options: PatchOptions, sub: '' | '/status'): Promise<T> {
    const ref = await this.resolve(target, options);
    const ns = this.namespaceFor(ref, options.namespace);
    const query = this.writeQuery(options);
    if (options.type === 'apply') {
      if (!query.fieldManager) throw new TypeError('server-side apply needs a fieldManager');
      if (options.force) query.force = 'true';
    }
    const payload = options.type === 'apply' && !Array.isArray(body) ? withTypeMeta(ref, body as KubeObject) : body;
    return this.call<T>({ method: 'PATCH', path: this.path(ref, ns, name) + sub, query, body: payload, contentType: patchContentTypes[options.type], options });
  }

  private writeQuery(options: WriteOptions): Query {
    return {
      dryRun: options.dryRun ? 'All' : undefined,
      fieldManager: options.fieldManager ?? this.fieldManager,
      fieldValidation: options.fieldValidation,
    };
  }

  private namespaceFor(ref: ResourceRef, namespace: string | undefined): string | undefined {
    if (!ref.namespaced) return undefined;
    const ns = namespace || this.defaultNamespace;
    if (!ns) throw new TypeError(`${ref.kind} is namespaced: name a namespace`);
    return ns;
  }

  private path(ref: ResourceRef, namespace: string | undefined, name?: string): string {
    let p = ref.group === '' ? `/api/${ref.version}` : `/apis/${ref.group}/${ref.version}`;
    if (namespace !== undefined) p += `/namespaces/${encodeURIComponent(namespace)}`;
    p += `/${ref.resource}`;
    if (name !== undefined) {
      if (name === '') throw new TypeError(`${ref.kind}: empty name`);
      p += `/${encodeURIComponent(name)}`;
    }
    return p;
  }

  private async call<T>(c: Call): Promise<T> {
    const o = c.options ?? {};
    const res = await this.transport.request({
      method: c.method,
      path: c.path + queryString(c.query ?? {}),
      ...(c.body !== undefined ? { body: JSON.stringify(c.body), contentType: c.contentType ?? 'application/json' } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    });
    const parsed = parseJson(res.body);
    if (res.status >= 200 && res.status < 300) {
      if (parsed === undefined) throw errorFromStatus(toStatus(500, undefined, `${c.method} ${c.path}: the server answered ${res.status} with a body that is not JSON`));
      return parsed as T;
    }
    throw errorFromStatus(toStatus(res.status, parsed ?? res.body), res.headers['retry-after']);
  }
}

function withTypeMeta<T extends KubeObject>(ref: ResourceRef, obj: T): T {
  const apiVersion = apiVersionOf(ref);
  if (obj.apiVersion === apiVersion && obj.kind === ref.kind) return obj;
  return { ...obj, apiVersion, kind: ref.kind };
}

function deleteQuery(options: DeleteOptions): Query {
  return {
    dryRun: options.dryRun ? 'All' : undefined,
    propagationPolicy: options.propagationPolicy,
    gracePeriodSeconds: options.gracePeriodSeconds,
  };
}

function deleteBody(options: DeleteOptions): Record<string, unknown> | undefined {
  if (!options.propagationPolicy && options.gracePeriodSeconds === undefined && !options.preconditions && !options.dryRun) return undefined;
  const body: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'v1' };
  if (options.propagationPolicy) body.propagationPolicy = options.propagationPolicy;
  if (options.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = options.gracePeriodSeconds;
  if (options.preconditions) body.preconditions = options.preconditions;
  if (options.dryRun) body.dryRun = ['All'];
  return body;
}

function joinSelectors(a: string, b: string | undefined): string {
  return b ? `${a},${b}` : a;
}

function queryString(query: Query): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === '') continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
