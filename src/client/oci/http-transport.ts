// HTTP(S) requests to registries with per-registry TLS (a CA, a client certificate, insecure_skip_verify), which
// Node 20's built-in fetch cannot take without the undici package; redirects followed, Authorization kept on the
// same origin only (blob redirects to storage must not carry the registry's token).
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { RegistryTls } from './registry-config.ts';

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Must be consumed or destroyed. */
  body: IncomingMessage;
  /** The URL that answered, after redirects. */
  url: URL;
}

export interface HttpRequest {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  tls?: RegistryTls;
  signal?: AbortSignal;
}

const MAX_REDIRECTS = 5;

export async function httpSend(url: URL, init: HttpRequest = {}): Promise<HttpResponse> {
  let current = url;
  let headers = { ...init.headers };
  for (let redirects = 0; ; redirects++) {
    const response = await sendOnce(current, { ...init, headers });
    const location = response.headers.location;
    if (response.status < 300 || response.status >= 400 || location === undefined || redirects === MAX_REDIRECTS) return response;
    response.body.resume();
    const next = new URL(location, current);
    if (next.origin !== current.origin) headers = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'authorization'));
    current = next;
  }
}

function sendOnce(url: URL, init: HttpRequest): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const options = {
      method: init.method ?? 'GET',
      headers: { 'user-agent': 'bosun', ...init.headers },
      signal: init.signal,
      ...(secure && init.tls
        ? { ca: init.tls.ca, cert: init.tls.cert, key: init.tls.key, rejectUnauthorized: init.tls.insecureSkipVerify !== true }
        : {}),
    };
    const req = (secure ? httpsRequest : httpRequest)(url, options, (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res, url }));
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The whole body as a Buffer, refusing more than `limit` bytes (manifests and token answers are small). */
export async function readBody(response: HttpResponse, limit = 4 << 20): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of response.body) {
    length += (chunk as Buffer).length;
    if (length > limit) {
      response.body.destroy();
      throw new Error(`response from ${response.url.href} is larger than ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
