// The registry's auth handshake (distribution's token spec): the WWW-Authenticate challenge from GET /v2/, then a
// Bearer token from the realm (anonymous, Basic with credentials, or an identity token as OAuth2 refresh token),
// or Basic credentials sent with every request.
import { RegistryError, type RegistryCredentials } from './registry-error.ts';
import { httpSend, readBody } from './http-transport.ts';
import type { RegistryTls } from './registry-config.ts';

export interface AuthChallenge {
  scheme: 'bearer' | 'basic';
  params: Record<string, string>;
}

/** Parses `Bearer realm="…",service="…",scope="…"` (quoted or token values, commas inside quotes kept). */
export function parseChallenge(header: string): AuthChallenge | undefined {
  const match = /^\s*(\w+)\s*(.*)$/s.exec(header);
  if (!match) return undefined;
  const scheme = (match[1] ?? '').toLowerCase();
  if (scheme !== 'bearer' && scheme !== 'basic') return undefined;
  const params: Record<string, string> = {};
  const pair = /([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))\s*,?\s*/g;
  for (const [, key = '', quoted, bare] of (match[2] ?? '').matchAll(pair)) params[key.toLowerCase()] = quoted?.replace(/\\(.)/g, '$1') ?? bare ?? '';
  return { scheme, params };
}

export interface AuthContext {
  /** The registry host and repository, for error messages. */
  registry: string;
  repository: string;
  credentials?: RegistryCredentials;
  tls?: RegistryTls;
  signal?: AbortSignal;
}

function basic(credentials: RegistryCredentials): string {
  return `Basic ${Buffer.from(`${credentials.username ?? ''}:${credentials.password ?? ''}`).toString('base64')}`;
}

function hasPassword(credentials: RegistryCredentials | undefined): credentials is RegistryCredentials {
  return credentials?.username !== undefined && credentials.username !== '';
}

/** The Authorization header for requests under `challenge`, fetching a token for pull on the repository. */
export async function authorize(challenge: AuthChallenge, context: AuthContext): Promise<string> {
  const { credentials } = context;
  if (challenge.scheme === 'basic') {
    if (!hasPassword(credentials)) {
      throw new RegistryError(
        'Unauthorized',
        `pull access denied for ${context.repository} on registry ${context.registry}: 401 Unauthorized (the registry asks for Basic auth and no credentials were given)`,
      );
    }
    return basic(credentials);
  }
  const realm = challenge.params.realm;
  if (realm === undefined) throw new RegistryError('Unauthorized', `registry ${context.registry} sent a Bearer challenge without a realm`);
  const scope = `repository:${context.repository}:pull`;
  const url = new URL(realm);
  let response;
  try {
    if (credentials?.identityToken !== undefined) {
      const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: credentials.identityToken, client_id: 'bosun', scope });
      if (challenge.params.service !== undefined) form.set('service', challenge.params.service);
      response = await httpSend(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        tls: context.tls,
        signal: context.signal,
      });
    } else {
      if (challenge.params.service !== undefined) url.searchParams.set('service', challenge.params.service);
      url.searchParams.set('scope', scope);
      const headers: Record<string, string> = hasPassword(credentials) ? { authorization: basic(credentials) } : {};
      response = await httpSend(url, { headers, tls: context.tls, signal: context.signal });
    }
  } catch (error) {
    throw new RegistryError('Unreachable', `cannot reach the token server ${url.origin} of registry ${context.registry}: ${(error as Error).message}`);
  }
  const body = await readBody(response, 1 << 20);
  const how = credentials?.identityToken !== undefined ? 'with an identity token' : hasPassword(credentials) ? `as ${credentials.username}` : 'anonymously';
  if (response.status === 401 || response.status === 403) {
    throw new RegistryError(
      'Unauthorized',
      `failed to authorize ${how} for repository ${context.repository} on registry ${context.registry}: token server answered ${response.status}`,
    );
  }
  if (response.status !== 200) {
    throw new RegistryError('Unreachable', `token server ${url.origin} of registry ${context.registry} answered ${response.status}`);
  }
  let token: unknown;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { token?: unknown; access_token?: unknown };
    token = parsed.token ?? parsed.access_token;
  } catch {
    token = undefined;
  }
  if (typeof token !== 'string' || token === '') {
    throw new RegistryError('Unauthorized', `token server ${url.origin} of registry ${context.registry} returned no token`);
  }
  return `Bearer ${token}`;
}
