// The one typed Kubernetes client interface every Bosun controller codes against.
// Implementations: RestClient over a Transport (HTTP or in-process), and wrappers such as fault injection.
import type { KubeList, KubeObject, Status, WatchEvent } from '../apimachinery/object.ts';
import type { ResourceRef } from '../apimachinery/resource-ref.ts';

export type { ResourceRef };

/** A resource named the way manifests name it; resolved through (cached) discovery. */
export interface KindRef {
  apiVersion: string;
  kind: string;
}

export type ResourceTarget = ResourceRef | KindRef;

export function isResourceRef(target: ResourceTarget): target is ResourceRef {
  return 'resource' in target && typeof target.resource === 'string';
}

/** Options every request takes. */
export interface RequestOptions {
  /** Aborts the request (and a watch stream). */
  signal?: AbortSignal;
  /** Client-side deadline in milliseconds for unary requests; ignored by watch (use timeoutSeconds + a watchdog). */
  timeoutMs?: number;
}

export interface GetOptions extends RequestOptions {
  /** Required for namespaced resources unless the client has a default namespace. */
  namespace?: string;
  resourceVersion?: string;
}

export interface SelectorOptions {
  /** String grammar: 'app=web,tier!=db'. */
  labelSelector?: string;
  /** 'metadata.name=x'. */
  fieldSelector?: string;
}

export interface ListOptions extends RequestOptions, SelectorOptions {
  /** Omit (or undefined) for all namespaces of a namespaced resource. */
  namespace?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
}

export interface WatchOptions extends RequestOptions, SelectorOptions {
  namespace?: string;
  /** Watch changes after this RV; omit for "from now" (the server may send synthetic ADDEDs first). */
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  /** Server-side stream lifetime; the stream then ends normally. */
  timeoutSeconds?: number;
  /** Only for a single object: watch with fieldSelector metadata.name=<name>. */
  name?: string;
}

export interface WriteOptions extends RequestOptions {
  /** Overrides obj.metadata.namespace (create/update) or names the namespace (patch/delete). */
  namespace?: string;
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: 'Ignore' | 'Warn' | 'Strict';
}

/** 'strategic' is only valid for built-in kinds; the server answers 415 for custom resources. */
export type PatchType = 'merge' | 'json' | 'apply' | 'strategic';

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

export interface PatchOptions extends WriteOptions {
  type: PatchType;
  /** Server-side apply only: take ownership of conflicting fields. */
  force?: boolean;
}

/** 'json' takes operations; the others take a (partial) object. */
export type PatchBody = JsonPatchOperation[] | Record<string, unknown>;

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export interface DeleteOptions extends RequestOptions {
  namespace?: string;
  dryRun?: boolean;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
}

export interface DeleteCollectionOptions extends DeleteOptions, SelectorOptions {}

/** The PodLogOptions a controller reads a finished container's log with (GET pods/{name}/log). */
export interface PodLogOptions extends RequestOptions {
  namespace?: string;
  /** Required when the pod has more than one container and names no default. */
  container?: string;
  /** Only the last lines. */
  tailLines?: number;
  /** Cut the answer after this many bytes. */
  limitBytes?: number;
}

/** What a token for a ServiceAccount is asked for (authentication.k8s.io/v1 TokenRequestSpec). */
export interface TokenRequestOptions extends RequestOptions {
  namespace?: string;
  audiences?: string[];
  expirationSeconds?: number;
  /** The object the token lives no longer than (a Pod or Secret of the namespace). */
  boundObjectRef?: { kind: 'Pod' | 'Secret'; apiVersion: 'v1'; name: string; uid: string };
}

/** The TokenRequest's status: the token and when it expires (RFC 3339). */
export interface IssuedToken {
  token: string;
  expirationTimestamp: string;
}

/**
 * A live watch. Iterate it for events; it never yields ERROR events: an ERROR becomes a thrown
 * KubeApiError (410 → GoneError). A dropped connection throws NetworkError. The iteration ends
 * normally when the server closes the stream (timeoutSeconds) or when close() is called.
 */
export interface WatchStream<T extends KubeObject = KubeObject> extends AsyncIterable<WatchEvent<T>> {
  /** Aborts the underlying request; idempotent. */
  close(): void;
  readonly closed: boolean;
}

export interface KubeClient {
  /** Namespace of the kubeconfig context (or the service account), used when a namespaced call names none. */
  readonly defaultNamespace: string | undefined;

  /** Resolves apiVersion+kind through discovery (cached; refreshed once on a miss). Throws NotFoundError when unknown. */
  resolve(target: ResourceTarget, options?: RequestOptions): Promise<ResourceRef>;

  get<T extends KubeObject = KubeObject>(target: ResourceTarget, name: string, options?: GetOptions): Promise<T>;
  list<T extends KubeObject = KubeObject>(target: ResourceTarget, options?: ListOptions): Promise<KubeList<T>>;
  /** Resolves once the server accepted the watch (status 200): connect-time errors such as 410 throw here. */
  watch<T extends KubeObject = KubeObject>(target: ResourceTarget, options?: WatchOptions): Promise<WatchStream<T>>;

  create<T extends KubeObject = KubeObject>(target: ResourceTarget, obj: T, options?: WriteOptions): Promise<T>;
  /** PUT; obj.metadata.resourceVersion, when set, is the optimistic-concurrency precondition (409 Conflict). */
  update<T extends KubeObject = KubeObject>(target: ResourceTarget, obj: T, options?: WriteOptions): Promise<T>;
  /** PUT …/status: only .status is written. */
  updateStatus<T extends KubeObject = KubeObject>(target: ResourceTarget, obj: T, options?: WriteOptions): Promise<T>;
  patch<T extends KubeObject = KubeObject>(target: ResourceTarget, name: string, body: PatchBody, options: PatchOptions): Promise<T>;
  patchStatus<T extends KubeObject = KubeObject>(target: ResourceTarget, name: string, body: PatchBody, options: PatchOptions): Promise<T>;
  /**
   * Returns the object when it still exists afterwards (finalizers, foreground deletion) or the
   * server's last view of it; a Status when the server answers with one.
   */
  delete<T extends KubeObject = KubeObject>(target: ResourceTarget, name: string, options?: DeleteOptions): Promise<T | Status>;
  deleteCollection<T extends KubeObject = KubeObject>(target: ResourceTarget, options?: DeleteCollectionOptions): Promise<KubeList<T> | Status>;
  /** A container's log as text (GET pods/{name}/log, not followed). */
  podLog(name: string, options?: PodLogOptions): Promise<string>;
  /** A container's log as it is written (GET pods/{name}/log?follow=true): chunks until the container ends or `signal` aborts. */
  followPodLog(name: string, options?: PodLogOptions): Promise<AsyncIterable<string>>;
  /** A token for the ServiceAccount (POST serviceaccounts/{name}/token), as kubelet asks for projected tokens. */
  createToken(serviceAccount: string, options?: TokenRequestOptions): Promise<IssuedToken>;

  /** Releases pooled connections; pending watches are closed. */
  close(): Promise<void>;
}

export function isStatus(value: unknown): value is Status {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Status';
}
