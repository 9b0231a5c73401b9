// The request and answer shapes every route shares, and GitHub's error bodies.
import type { IncomingHttpHeaders } from 'node:http';
import type { Identity } from './auth.ts';

const DOCS_URL = 'https://docs.github.com/rest';

export interface ApiRequest {
  method: string;
  /** The full URL as the client sent it (with /api/v3 when it used that), for Link headers. */
  url: URL;
  /** Where the API is rooted for this request: the server's origin, or origin + /api/v3; no trailing slash. */
  apiBase: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** Who sent it, checked to be the kind the route asks for; undefined on /_meta, which has no auth. */
  identity: Identity | undefined;
}

export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** An answer GitHub gives as an error: the status and its JSON body `{ message, documentation_url, status }`. */
export class HttpError extends Error {
  override readonly name = 'HttpError' as const;

  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toResponse(): ApiResponse {
    return {
      status: this.status,
      headers: this.headers,
      body: { message: this.message, ...this.extra, documentation_url: DOCS_URL, status: String(this.status) },
    };
  }
}

export function notFound(): HttpError {
  return new HttpError(404, 'Not Found');
}

/** GitHub's 422 for a body that does not validate. */
export function validationFailed(message: string, field?: string): HttpError {
  return new HttpError(422, message, field === undefined ? {} : { errors: [{ resource: 'CheckRun', field, code: 'invalid' }] });
}

export function ok(body: unknown, headers: Record<string, string> = {}): ApiResponse {
  return { status: 200, body, headers };
}

/** A JSON object body, or {} for none; anything else is GitHub's 400. */
export function objectBody(request: ApiRequest): Record<string, unknown> {
  if (request.body === undefined) return {};
  if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) throw new HttpError(400, 'Problems parsing JSON');
  return request.body as Record<string, unknown>;
}
