// Client-side typed errors, parsed from the metav1.Status an API server returns.
// Separate from apimachinery's StatusError (which the server throws) so callers can `instanceof` by meaning.
import type { Status, StatusCause, StatusDetails } from '../apimachinery/object.ts';

/** Any error answer from the API server. */
export class KubeApiError extends Error {
  override readonly name: string = 'KubeApiError';
  /** HTTP status code. */
  readonly code: number;
  /** Status.reason ('NotFound', 'Conflict', …) or '' when the body was not a Status. */
  readonly reason: string;
  readonly details: StatusDetails | undefined;
  /** The parsed Status (synthesised when the body was not one). */
  readonly status: Status;

  constructor(status: Status, options?: { cause?: unknown }) {
    super(status.message || `${status.code} ${status.reason ?? ''}`.trim(), options);
    this.code = status.code;
    this.reason = status.reason ?? '';
    this.details = status.details;
    this.status = status;
  }
}

export class NotFoundError extends KubeApiError {
  override readonly name = 'NotFoundError' as const;
}
export class AlreadyExistsError extends KubeApiError {
  override readonly name = 'AlreadyExistsError' as const;
}
/** 409 with reason Conflict: a stale resourceVersion (or an apply conflict); re-read and retry. */
export class ConflictError extends KubeApiError {
  override readonly name = 'ConflictError' as const;
}
export class InvalidError extends KubeApiError {
  override readonly name = 'InvalidError' as const;
  get causes(): StatusCause[] {
    return this.details?.causes ?? [];
  }
}
export class BadRequestError extends KubeApiError {
  override readonly name = 'BadRequestError' as const;
}
export class ForbiddenError extends KubeApiError {
  override readonly name = 'ForbiddenError' as const;
}
export class UnauthorizedError extends KubeApiError {
  override readonly name = 'UnauthorizedError' as const;
}
/** 410 Expired/Gone: the requested resourceVersion is older than the server's history; relist. */
export class GoneError extends KubeApiError {
  override readonly name = 'GoneError' as const;
}
/** 504 / reason Timeout (server side), or a client-side deadline (code 0 then). */
export class TimeoutError extends KubeApiError {
  override readonly name = 'TimeoutError' as const;
}
export class TooManyRequestsError extends KubeApiError {
  override readonly name = 'TooManyRequestsError' as const;
  /** Seconds the server asked us to wait (Retry-After header or details.retryAfterSeconds). */
  readonly retryAfter: number | undefined;
  constructor(status: Status, retryAfter?: number, options?: { cause?: unknown }) {
    super(status, options);
    this.retryAfter = retryAfter ?? status.details?.retryAfterSeconds;
  }
}
export class UnsupportedMediaTypeError extends KubeApiError {
  override readonly name = 'UnsupportedMediaTypeError' as const;
}
export class InternalServerError extends KubeApiError {
  override readonly name = 'InternalServerError' as const;
}
export class ServiceUnavailableError extends KubeApiError {
  override readonly name = 'ServiceUnavailableError' as const;
}

/** The request never got an HTTP answer: refused, reset, DNS, TLS, or the stream broke mid-way. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError' as const;
  /** Node's error code when there is one: 'ECONNRESET', 'ECONNREFUSED', … */
  readonly code: string | undefined;
  /** The failure happened on a pooled keep-alive socket (a read is then safe to retry once). */
  readonly reusedSocket: boolean;
  constructor(message: string, options?: { cause?: unknown; code?: string; reusedSocket?: boolean }) {
    super(message, { cause: options?.cause });
    this.code = options?.code ?? errnoCode(options?.cause);
    this.reusedSocket = options?.reusedSocket ?? false;
  }
}

function errnoCode(cause: unknown): string | undefined {
  if (typeof cause === 'object' && cause !== null) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function isStatusBody(value: unknown): value is Status {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Status' && typeof (value as { code?: unknown }).code === 'number';
}

const defaultReasons: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Gone',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** Builds a Status from whatever the server sent, so every error carries one. */
export function toStatus(code: number, body: unknown, fallbackMessage?: string): Status {
  if (isStatusBody(body)) return body.code ? body : { ...body, code };
  const message = typeof body === 'string' && body.trim() !== '' ? body.trim() : (fallbackMessage ?? `the server responded with status ${code}`);
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: defaultReasons[code] ?? '', code };
}

/** Maps a Status (plus HTTP code and Retry-After) to the most specific error class. */
export function errorFromStatus(input: Status, retryAfterHeader?: string | null): KubeApiError {
  const status = input;
  const { code, reason } = status;
  switch (reason) {
    case 'NotFound':
      return new NotFoundError(status);
    case 'AlreadyExists':
      return new AlreadyExistsError(status);
    case 'Conflict':
      return new ConflictError(status);
    case 'Invalid':
      return new InvalidError(status);
    case 'Forbidden':
      return new ForbiddenError(status);
    case 'Unauthorized':
      return new UnauthorizedError(status);
    case 'Expired':
    case 'Gone':
      return new GoneError(status);
    case 'Timeout':
      return new TimeoutError(status);
    case 'TooManyRequests':
      return new TooManyRequestsError(status, parseRetryAfter(retryAfterHeader));
    case 'BadRequest':
      return new BadRequestError(status);
    case 'UnsupportedMediaType':
      return new UnsupportedMediaTypeError(status);
    case 'ServiceUnavailable':
      return new ServiceUnavailableError(status);
    case 'InternalError':
      return new InternalServerError(status);
  }
  // Unknown or missing reason: fall back on the HTTP code.
  switch (code) {
    case 404:
      return new NotFoundError(status);
    case 409:
      return new ConflictError(status);
    case 422:
      return new InvalidError(status);
    case 403:
      return new ForbiddenError(status);
    case 401:
      return new UnauthorizedError(status);
    case 410:
      return new GoneError(status);
    case 504:
      return new TimeoutError(status);
    case 429:
      return new TooManyRequestsError(status, parseRetryAfter(retryAfterHeader));
    case 400:
      return new BadRequestError(status);
    case 415:
      return new UnsupportedMediaTypeError(status);
    case 503:
      return new ServiceUnavailableError(status);
  }
  if (code >= 500) return new InternalServerError(status);
  return new KubeApiError(status);
}

function parseRetryAfter(header: string | null | undefined): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** Client-side deadline expiry, shaped like the server's Timeout so callers handle both alike. */
export function clientTimeout(message: string): TimeoutError {
  return new TimeoutError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Timeout', code: 0 });
}

/** True for errors worth retrying with backoff (transient server or network trouble). */
export function isRetryable(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  if (err instanceof ConflictError || err instanceof TooManyRequestsError || err instanceof TimeoutError) return true;
  if (err instanceof InternalServerError || err instanceof ServiceUnavailableError) return true;
  return false;
}

/** What the promise gives, or undefined when its object is gone (NotFound): reads and deletes of what may be gone. */
export async function ignoreNotFound<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}
