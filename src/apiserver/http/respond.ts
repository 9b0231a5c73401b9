// Writing answers: JSON bodies, Status errors, warning headers.
import type { ServerResponse } from 'node:http';
import type { StatusError } from '../../apimachinery/status-error.ts';

export function warningHeader(warnings: readonly string[]): string[] {
  return warnings.map((w) => `299 - ${JSON.stringify(w)}`);
}

export function sendJsonText(res: ServerResponse, code: number, json: string, warnings: readonly string[] = [], contentType = 'application/json'): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const headers: Record<string, string | string[]> = {
    'Content-Type': contentType,
    'Content-Length': String(Buffer.byteLength(json)),
    'Cache-Control': 'no-cache, private',
  };
  if (warnings.length > 0) headers['Warning'] = warningHeader(warnings);
  res.writeHead(code, headers);
  res.end(json);
}

export function sendJson(res: ServerResponse, code: number, body: unknown, warnings: readonly string[] = [], contentType?: string): void {
  sendJsonText(res, code, JSON.stringify(body), warnings, contentType);
}

/** `warnings` (e.g. from admission webhooks called before the failure) go out as Warning headers too. */
export function sendStatusError(res: ServerResponse, error: StatusError, warnings: readonly string[] = []): void {
  if (error.code === 429) res.setHeader('Retry-After', '1');
  // A body refused before it was read to its end is not drained: the connection closes, as Go's server does, so
  // neither the client nor a shutdown waits on the rest of it.
  if (error.code === 413 && !res.req.complete) res.setHeader('Connection', 'close');
  sendJson(res, error.code, error.toStatus(), warnings);
}

export function sendText(res: ServerResponse, code: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}
