// k3s's registries.yaml: mirrors (endpoint lists with repository rewrites) and per-host auth and TLS, and the
// endpoints a pull tries, in containerd's order: the mirrors as listed, then the registry itself.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { RegistryError, type RegistryCredentials } from './registry-error.ts';
import { decodeAuth } from './pull-secrets.ts';
import type { ImageReference } from './reference.ts';

export interface RegistryTls {
  insecureSkipVerify?: boolean;
  /** PEM contents, read from ca_file / cert_file / key_file when the file is loaded. */
  ca?: string;
  cert?: string;
  key?: string;
}

export interface RegistryMirror {
  endpoints: string[];
  /** regex → replacement over the repository path (library/busybox), applied on the mirrors only. */
  rewrites: [RegExp, string][];
}

export interface RegistriesConfig {
  mirrors: Map<string, RegistryMirror>;
  /** By registry host (127.0.0.1:5000, docker.io), as k3s keys configs. */
  configs: Map<string, { auth?: RegistryCredentials; tls?: RegistryTls }>;
}

/** One place a pull may fetch the image from. */
export interface RegistryEndpoint {
  /** Base URL ending in /v2 (http://127.0.0.1:5000/v2). */
  url: string;
  /** The endpoint's host:port: what credentials and TLS settings are looked up by. */
  host: string;
  /** The repository path on this endpoint (rewritten for mirrors). */
  repository: string;
  mirror: boolean;
  auth?: RegistryCredentials;
  tls?: RegistryTls;
}

export const EMPTY_REGISTRIES_CONFIG: RegistriesConfig = { mirrors: new Map(), configs: new Map() };

function fail(file: string, path: string, message: string): RegistryError {
  return new RegistryError('Invalid', `registries config ${file}: ${path}: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(file: string, path: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw fail(file, path, `must be a string, not ${typeof value}`);
  return value;
}

function onlyKeys(file: string, path: string, value: Record<string, unknown>, allowed: string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw fail(file, `${path}.${key}`, `unknown field (expected one of ${allowed.join(', ')})`);
  }
}

/** Parses registries.yaml text; `file` names it in errors and is where relative ca_file paths are not resolved. */
export function parseRegistriesConfig(text: string, file = 'registries.yaml', readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): RegistriesConfig {
  let document: unknown;
  try {
    document = parse(text) ?? {};
  } catch (error) {
    throw fail(file, '(document)', `not YAML: ${(error as Error).message}`);
  }
  if (!isObject(document)) throw fail(file, '(document)', 'must be a mapping with mirrors and configs');
  onlyKeys(file, '', document, ['mirrors', 'configs']);
  const config: RegistriesConfig = { mirrors: new Map(), configs: new Map() };

  const mirrors = document.mirrors ?? {};
  if (!isObject(mirrors)) throw fail(file, 'mirrors', 'must be a mapping of registry host to mirror');
  for (const [host, mirror] of Object.entries(mirrors)) {
    const path = `mirrors["${host}"]`;
    if (!isObject(mirror)) throw fail(file, path, 'must be a mapping with endpoint (and rewrite)');
    onlyKeys(file, path, mirror, ['endpoint', 'rewrite']);
    const endpoints = mirror.endpoint ?? [];
    if (!Array.isArray(endpoints)) throw fail(file, `${path}.endpoint`, 'must be a list of URLs');
    endpoints.forEach((endpoint, i) => {
      if (typeof endpoint !== 'string') throw fail(file, `${path}.endpoint[${i}]`, 'must be a string');
      endpointURL(endpoint, () => fail(file, `${path}.endpoint[${i}]`, `"${endpoint}" is not a URL or host`));
    });
    const rewrite = mirror.rewrite ?? {};
    if (!isObject(rewrite)) throw fail(file, `${path}.rewrite`, 'must be a mapping of regular expression to replacement');
    const rewrites = Object.entries(rewrite).map(([pattern, replacement]): [RegExp, string] => {
      if (typeof replacement !== 'string') throw fail(file, `${path}.rewrite["${pattern}"]`, 'the replacement must be a string');
      try {
        return [new RegExp(pattern, 'g'), replacement];
      } catch (error) {
        throw fail(file, `${path}.rewrite["${pattern}"]`, `invalid regular expression: ${(error as Error).message}`);
      }
    });
    config.mirrors.set(host, { endpoints: endpoints as string[], rewrites });
  }

  const configs = document.configs ?? {};
  if (!isObject(configs)) throw fail(file, 'configs', 'must be a mapping of registry host to auth and tls');
  for (const [host, entry] of Object.entries(configs)) {
    const path = `configs["${host}"]`;
    if (!isObject(entry)) throw fail(file, path, 'must be a mapping with auth and tls');
    onlyKeys(file, path, entry, ['auth', 'tls']);
    const parsed: { auth?: RegistryCredentials; tls?: RegistryTls } = {};
    if (entry.auth !== undefined) {
      if (!isObject(entry.auth)) throw fail(file, `${path}.auth`, 'must be a mapping');
      onlyKeys(file, `${path}.auth`, entry.auth, ['username', 'password', 'auth', 'identity_token']);
      const auth = entry.auth;
      const s = (key: string): string | undefined => optionalString(file, `${path}.auth.${key}`, auth[key]);
      const credentials: RegistryCredentials = { username: s('username'), password: s('password'), identityToken: s('identity_token') };
      const basic = s('auth');
      if (basic !== undefined) Object.assign(credentials, decodeAuth(`registries config ${file}: ${path}.auth.auth`, basic));
      parsed.auth = credentials;
    }
    if (entry.tls !== undefined) {
      if (!isObject(entry.tls)) throw fail(file, `${path}.tls`, 'must be a mapping');
      onlyKeys(file, `${path}.tls`, entry.tls, ['insecure_skip_verify', 'ca_file', 'cert_file', 'key_file']);
      const tlsEntry = entry.tls;
      const insecure = tlsEntry.insecure_skip_verify;
      if (insecure !== undefined && typeof insecure !== 'boolean') throw fail(file, `${path}.tls.insecure_skip_verify`, 'must be true or false');
      const load = (key: string): string | undefined => {
        const name = optionalString(file, `${path}.tls.${key}`, tlsEntry[key]);
        if (name === undefined) return undefined;
        try {
          return readFile(name);
        } catch (error) {
          throw fail(file, `${path}.tls.${key}`, `cannot read ${name}: ${(error as Error).message}`);
        }
      };
      parsed.tls = { insecureSkipVerify: insecure === true, ca: load('ca_file'), cert: load('cert_file'), key: load('key_file') };
      if ((parsed.tls.cert === undefined) !== (parsed.tls.key === undefined)) throw fail(file, `${path}.tls`, 'cert_file and key_file go together');
    }
    config.configs.set(host, parsed);
  }
  return config;
}

export function loadRegistriesConfig(file: string): RegistriesConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new RegistryError('Invalid', `registries config ${file}: ${(error as Error).message}`);
  }
  return parseRegistriesConfig(text, file);
}

/** An endpoint as written (http://h:p, https://h/prefix, or a bare host meaning https) → its /v2 base URL. */
function endpointURL(endpoint: string, error: () => Error): URL {
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(endpoint) ? endpoint : `https://${endpoint}`);
  } catch {
    throw error();
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw error();
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/v2') ? path : `${path}/v2`;
  return url;
}

/**
 * The registry's own endpoint: docker.io is served by registry-1.docker.io; https, except on loopback hosts
 * (localhost, 127.0.0.0/8, ::1), which containerd's default host configuration reaches over plain http.
 */
function defaultEndpoint(domain: string): URL {
  const hostname = domain.replace(/:\d+$/, '');
  const loopback = hostname === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === '[::1]';
  return new URL(`${loopback ? 'http' : 'https'}://${domain === 'docker.io' ? 'registry-1.docker.io' : domain}/v2`);
}

/**
 * Where to pull `ref` from, in order: the registry's mirrors (or "*"'s when it has none) with their rewrites,
 * then the registry itself, unless a mirror already is it.
 */
export function resolveEndpoints(config: RegistriesConfig, ref: ImageReference): RegistryEndpoint[] {
  const mirror = config.mirrors.get(ref.domain) ?? config.mirrors.get('*');
  const endpoints: RegistryEndpoint[] = [];
  const add = (url: URL, repository: string, isMirror: boolean): void => {
    const base = url.href.replace(/\/$/, '');
    if (endpoints.some((e) => e.url === base)) return;
    // The registry's own endpoint also takes the settings written for its name (docker.io for registry-1.docker.io).
    const settings = config.configs.get(url.host) ?? (isMirror ? undefined : config.configs.get(ref.domain));
    endpoints.push({ url: base, host: url.host, repository, mirror: isMirror, auth: settings?.auth, tls: settings?.tls });
  };
  const own = defaultEndpoint(ref.domain);
  for (const endpoint of mirror?.endpoints ?? []) {
    const url = endpointURL(endpoint, () => new RegistryError('Invalid', `mirror endpoint "${endpoint}" is not a URL`));
    const isOwn = url.host === own.host;
    const repository = isOwn ? ref.path : (mirror?.rewrites ?? []).reduce((path, [pattern, replacement]) => path.replace(pattern, replacement), ref.path);
    add(url, repository, !isOwn);
  }
  add(own, ref.path, false);
  return endpoints;
}
