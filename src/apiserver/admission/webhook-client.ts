// POSTs an AdmissionReview to a webhook over https and returns its decoded answer. Failures carry the text
// kube-apiserver's Go client would print (`Post "URL": dial tcp …: connect: connection refused`, `context deadline
// exceeded`, `x509: certificate signed by unknown authority`…), so operators see familiar messages.
import { request, type Agent } from 'node:https';
import type { PeerCertificate } from 'node:tls';
import { isPlainObject } from '../../apimachinery/object.ts';

/** Why a call failed: the text after `failed calling webhook "NAME": `. */
export class WebhookCallError extends Error {
  override readonly name = 'WebhookCallError' as const;
}

/** Answers larger than this are refused rather than buffered. */
const maxResponseBytes = 10 * 1024 * 1024;

const unknownAuthority = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
]);

interface NodeNetError extends Error {
  code?: string;
  address?: string;
  port?: number;
  host?: string;
  cert?: PeerCertificate;
}

function hostPort(address: string, port: number | undefined): string {
  const host = address.includes(':') ? `[${address}]` : address;
  return port === undefined ? host : `${host}:${port}`;
}

/** The part Go's net/http and crypto/tls would print for a transport error. */
function transportDetail(error: NodeNetError): string {
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED' && error.address) return `dial tcp ${hostPort(error.address, error.port)}: connect: connection refused`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `dial tcp: lookup ${error.host ?? error.message.split(' ').pop() ?? ''}: no such host`;
  if (code === 'ECONNRESET') return 'read: connection reset by peer';
  if (unknownAuthority.has(code)) return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = (error.cert?.subjectaltname ?? '')
      .split(',')
      .map((n) => n.trim().replace(/^(DNS|IP Address):/, ''))
      .filter((n) => n !== '');
    return `tls: failed to verify certificate: x509: certificate is valid for ${names.join(', ')}, not ${error.host ?? ''}`;
  }
  return error.message;
}

/** client-go's NewGenericServerResponse wording for a non-2xx answer that is not a Status. */
function httpFailure(code: number, body: string, contentType: string | undefined): string {
  if (contentType?.includes('json')) {
    try {
      const status: unknown = JSON.parse(body);
      if (isPlainObject(status) && status['kind'] === 'Status' && typeof status['message'] === 'string') return status['message'];
    } catch {
      // not a Status: fall through to the generic wording
    }
  }
  const serverMessage = contentType?.startsWith('text/') && body.trim() !== '' ? body.trim() : 'unknown';
  switch (code) {
    case 400:
      return 'the server rejected our request for an unknown reason';
    case 401:
      return 'the server has asked for the client to provide credentials';
    case 403:
      return serverMessage;
    case 404:
      return 'the server could not find the requested resource';
    case 405:
      return 'the server does not allow this method on the requested resource';
    case 409:
      return 'the server reported a conflict';
    case 422:
      return 'the server rejected our request due to an error in our request';
    case 429:
      return 'the server has received too many requests and has asked us to try again later';
    case 503:
      return 'the server is currently unable to handle the request';
    case 504:
      return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    default:
      if (code >= 500) return `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`;
      return `the server responded with the status code ${code} but did not return more information`;
  }
}

export interface WebhookCall {
  /** The endpoint with `?timeout=Ns` already added, as kube-apiserver's REST client sends it. */
  url: URL;
  agent: Agent;
  body: string;
  timeoutMs: number;
  /**
   * For a service reference: the pod address dialled instead of the URL's host, which stays the Host header and
   * the TLS server name the certificate is verified against (`NAME.NAMESPACE.svc`).
   */
  dial?: { host: string; port: number };
}

/**
 * Answers reviews for webhooks served by this same process, skipping HTTPS: the decoded AdmissionReview, or
 * undefined when `url` is not served here (the call then goes over the network).
 */
export type InProcessWebhooks = (url: URL, body: string) => Promise<unknown> | undefined;

/** The decoded JSON answer; throws WebhookCallError (`failed to call webhook: …`) for anything else. */
export async function postAdmissionReview(call: WebhookCall, inProcess?: InProcessWebhooks): Promise<unknown> {
  const local = inProcess?.(call.url, call.body);
  if (local) return answerInProcess(call, local);
  try {
    return await postOnce(call);
  } catch (error) {
    // A kept-alive connection the webhook server closed as idle just as it was reused: the request never reached
    // it, so it is sent again on a new connection (kube-apiserver's webhook client retries a connection reset).
    if (error instanceof StaleConnectionError) return postOnce(call);
    throw error;
  }
}

/** An in-process answer bounded by the webhook's timeout, its failures worded as a call's. */
function answerInProcess(call: WebhookCall, answer: Promise<unknown>): Promise<unknown> {
  const fail = (detail: string) => new WebhookCallError(`failed to call webhook: Post ${JSON.stringify(call.url.toString())}: ${detail}`);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(fail('context deadline exceeded')), call.timeoutMs);
  });
  return Promise.race([answer.catch((error: unknown) => Promise.reject(fail(error instanceof Error ? error.message : String(error)))), deadline]).finally(() => clearTimeout(timer));
}

/** A reset on a reused keep-alive connection, before any answer: the race of an idle close, not the webhook's fault. */
class StaleConnectionError extends WebhookCallError {}

/**
 * The URL as kube-apiserver prints it in errors: a service reference's always carries its port
 * (`https://NAME.NAMESPACE.svc:443/PATH`), which WHATWG URLs drop when it is the default.
 */
export function printedUrl(url: URL, viaService: boolean): string {
  if (!viaService || url.port !== '') return url.toString();
  return `${url.protocol}//${url.hostname}:443${url.pathname}${url.search}`;
}

function postOnce(call: WebhookCall): Promise<unknown> {
  const { url } = call;
  const shown = printedUrl(url, call.dial !== undefined);
  const fail = (detail: string) => new WebhookCallError(`failed to call webhook: Post ${JSON.stringify(shown)}: ${detail}`);
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
    };
    const req = request(
      url,
      {
        method: 'POST',
        agent: call.agent,
        ...(call.dial ? { hostname: call.dial.host, port: call.dial.port, servername: url.hostname } : {}),
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, */*',
          'User-Agent': 'kube-apiserver-admission',
          ...(call.dial ? { Host: `${url.hostname}:${url.port || '443'}` } : {}),
          'Content-Length': String(Buffer.byteLength(call.body)),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxResponseBytes) {
            res.destroy();
            settle(() => reject(fail(`the response is larger than ${maxResponseBytes} bytes`)));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', (error: NodeNetError) => settle(() => reject(fail(transportDetail(error)))));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 206) {
            settle(() => reject(new WebhookCallError(`failed to call webhook: ${httpFailure(code, text, res.headers['content-type'])}`)));
            return;
          }
          try {
            const decoded: unknown = JSON.parse(text);
            settle(() => resolve(decoded));
          } catch (error) {
            settle(() => reject(new WebhookCallError(`failed to call webhook: couldn't get version/kind; json parse error: ${(error as Error).message}`)));
          }
        });
      },
    );
    // The webhook's timeoutSeconds bounds the whole exchange: connect, TLS, answer.
    const timer = setTimeout(() => {
      settle(() => reject(fail('context deadline exceeded')));
      req.destroy();
    }, call.timeoutMs);
    req.on('error', (error: NodeNetError) => {
      const stale = req.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      settle(() => reject(stale ? new StaleConnectionError(fail(transportDetail(error)).message) : fail(transportDetail(error))));
    });
    req.end(call.body);
  });
}
