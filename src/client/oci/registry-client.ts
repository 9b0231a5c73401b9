// One repository on one registry endpoint: the /v2/ ping and auth, manifests by tag or digest, blob streams;
// 5xx and connection errors retried with back-off; failures as kubelet would name them (ErrImagePull's message).
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import { RegistryError, type RegistryCredentials } from './registry-error.ts';
import { httpSend, readBody, type HttpResponse } from './http-transport.ts';
import { MANIFEST_ACCEPT } from './manifest.ts';
import { authorize, parseChallenge } from './registry-auth.ts';
import type { RegistryEndpoint } from './registry-config.ts';

const ATTEMPTS = 4;
const FIRST_BACKOFF_MS = 100;

export interface RegistryClientOptions {
  credentials?: RegistryCredentials;
  signal?: AbortSignal;
}

/** The registry's error body ({"errors":[{"code","message"}]}), for the message. */
function registryMessage(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { errors?: { code?: string; message?: string }[] };
    const first = parsed.errors?.[0];
    if (first) return first.message ?? first.code ?? '';
  } catch {
    // not JSON: fall through to the text
  }
  return body.toString('utf8').slice(0, 200).trim();
}

export class RegistryClient {
  private authorization: string | undefined;
  private pinged = false;

  constructor(
    readonly endpoint: RegistryEndpoint,
    private readonly options: RegistryClientOptions = {},
  ) {}

  private get where(): string {
    return `${this.endpoint.host}/${this.endpoint.repository}`;
  }

  /** Sends with retries on connection errors and 5xx (exponential back-off); Unreachable once they are spent. */
  private async send(url: URL, headers: Record<string, string>): Promise<HttpResponse> {
    let lastProblem = '';
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if (attempt > 1) await sleep(FIRST_BACKOFF_MS * 2 ** (attempt - 2), undefined, { signal: this.options.signal });
      try {
        const response = await httpSend(url, { headers, tls: this.endpoint.tls, signal: this.options.signal });
        if (response.status < 500) return response;
        lastProblem = `${response.status} ${registryMessage(await readBody(response))}`.trim();
      } catch (error) {
        if (this.options.signal?.aborted) throw error;
        lastProblem = (error as Error).message;
      }
    }
    throw new RegistryError('Unreachable', `registry endpoint ${this.endpoint.url} is unreachable for ${this.where} after ${ATTEMPTS} attempts: ${lastProblem}`);
  }

  /** GET /v2/: learns whether and how the registry wants auth, and gets the Authorization for this repository. */
  private async ping(): Promise<void> {
    if (this.pinged) return;
    const response = await this.send(new URL(`${this.endpoint.url}/`), {});
    const body = await readBody(response, 1 << 20);
    if (response.status === 401) {
      const challenge = parseChallenge(String(response.headers['www-authenticate'] ?? ''));
      if (challenge === undefined) throw new RegistryError('Unauthorized', `registry ${this.endpoint.host} answered 401 without a usable WWW-Authenticate challenge`);
      this.authorization = await authorize(challenge, {
        registry: this.endpoint.host,
        repository: this.endpoint.repository,
        credentials: this.options.credentials,
        tls: this.endpoint.tls,
        signal: this.options.signal,
      });
    } else if (response.status !== 200) {
      throw new RegistryError('Unreachable', `registry endpoint ${this.endpoint.url} does not speak the registry API v2 (GET /v2/ answered ${response.status}: ${registryMessage(body)})`);
    }
    this.pinged = true;
  }

  /** A GET under the repository with auth; 401/403 → Unauthorized, 404 → NotFound naming `what`. */
  private async get(path: string, accept: string | undefined, what: string): Promise<HttpResponse> {
    await this.ping();
    const headers: Record<string, string> = {};
    if (accept !== undefined) headers.accept = accept;
    if (this.authorization !== undefined) headers.authorization = this.authorization;
    const response = await this.send(new URL(`${this.endpoint.url}/${this.endpoint.repository}/${path}`), headers);
    if (response.status === 200) return response;
    const message = registryMessage(await readBody(response, 1 << 20));
    if (response.status === 401 || response.status === 403) {
      throw new RegistryError(
        'Unauthorized',
        `pull access denied for ${this.endpoint.repository} on registry ${this.endpoint.host}: ${response.status} ${response.status === 401 ? 'Unauthorized' : 'Forbidden'}${message ? ` (${message})` : ''}`,
      );
    }
    if (response.status === 404) throw new RegistryError('NotFound', `${what}: not found${message ? ` (${message})` : ''}`);
    throw new RegistryError('Invalid', `registry ${this.endpoint.host} answered ${response.status} for ${what}${message ? `: ${message}` : ''}`);
  }

  /**
   * The manifest's exact bytes, Content-Type and the digest of those bytes; fetched by digest, the bytes must be
   * that digest's (DigestMismatch otherwise), as containerd verifies them.
   */
  async manifest(selector: string): Promise<{ bytes: Buffer; contentType: string | undefined; digest: string }> {
    const byDigest = selector.startsWith('sha256:');
    const what = `manifest ${this.where}${byDigest ? '@' : ':'}${selector}`;
    const response = await this.get(`manifests/${selector}`, MANIFEST_ACCEPT, what);
    const bytes = await readBody(response);
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    if (byDigest && digest !== selector) throw new RegistryError('DigestMismatch', `${what} failed verification: the content received has digest ${digest}`);
    return { bytes, contentType: response.headers['content-type'], digest };
  }

  /** The blob's bytes as the registry sends them: verify them with digestVerifier. */
  async blob(digest: string): Promise<Readable> {
    const response = await this.get(`blobs/${digest}`, undefined, `blob ${digest} of ${this.where}`);
    return response.body;
  }
}
