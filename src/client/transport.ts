// The byte-level seam between RestClient (Kubernetes semantics) and how bytes reach a server
// (HTTP with kubeconfig auth, or in-process). Transports never interpret status codes.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TransportRequest {
  method: HttpMethod;
  /** Absolute path plus query string: '/apis/example.com/v1/namespaces/a/widgets?limit=5'. */
  path: string;
  body?: string;
  contentType?: string;
  signal?: AbortSignal;
  /** Whole-request deadline (unary requests only). */
  timeoutMs?: number;
}

export interface TransportResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  body: string;
}

/** A streaming response: status and headers are known, the body arrives in chunks. */
export interface TransportStream {
  status: number;
  headers: Record<string, string | undefined>;
  /** Raw body chunks; iteration throws NetworkError if the connection breaks. */
  body: AsyncIterable<Buffer | string>;
  /** Aborts the request; the body iteration then ends without error. */
  abort(): void;
}

export interface Transport {
  /** Namespace of the current context, if it names one. */
  readonly defaultNamespace: string | undefined;
  request(req: TransportRequest): Promise<TransportResponse>;
  /** Opens a long-lived request (watch); resolves once response headers arrived. */
  stream(req: TransportRequest): Promise<TransportStream>;
  close(): Promise<void>;
}
