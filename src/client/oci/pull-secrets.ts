// imagePullSecrets (.dockerconfigjson and the older .dockercfg) → registry credentials, and the lookup kubelet's
// credential keyring does: keys may carry a scheme, a port, a path prefix and *. globs; docker.io has aliases.
import type { Secret } from '../../apimachinery/api/core-v1.ts';
import { RegistryError, type RegistryCredentials } from './registry-error.ts';

const DOCKER_HUB_HOSTS = ['docker.io', 'index.docker.io', 'registry-1.docker.io'];

interface DockerConfigEntry {
  auth?: string;
  username?: string;
  password?: string;
  identitytoken?: string;
}

/** An `auth` field: base64 of username:password (the password may hold colons). */
export function decodeAuth(where: string, auth: string): { username: string; password: string } {
  const decoded = Buffer.from(auth, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new RegistryError('Invalid', `${where}: must be base64 of username:password`);
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function entryCredentials(where: string, entry: unknown): RegistryCredentials {
  if (typeof entry !== 'object' || entry === null) throw new RegistryError('Invalid', `${where}: must be an object`);
  const { auth, username, password, identitytoken } = entry as DockerConfigEntry;
  const credentials: RegistryCredentials = {};
  if (username !== undefined) credentials.username = username;
  if (password !== undefined) credentials.password = password;
  if (auth !== undefined && auth !== '') Object.assign(credentials, decodeAuth(`${where}.auth`, auth));
  if (identitytoken !== undefined && identitytoken !== '') credentials.identityToken = identitytoken;
  return credentials;
}

/**
 * Credentials by auths key from a pod's pull secrets, in the order given (the first secret naming a key wins).
 * Secrets of other types are skipped, as kubelet skips them; a malformed one fails the pull with its name.
 */
export function credentialsFromPullSecrets(secrets: Secret[]): Map<string, RegistryCredentials> {
  const credentials = new Map<string, RegistryCredentials>();
  for (const secret of secrets) {
    const name = `secret "${secret.metadata?.namespace ?? ''}/${secret.metadata?.name ?? ''}"`;
    let key: string;
    if (secret.type === 'kubernetes.io/dockerconfigjson') key = '.dockerconfigjson';
    else if (secret.type === 'kubernetes.io/dockercfg') key = '.dockercfg';
    else continue;
    const data = secret.data?.[key];
    if (data === undefined || data === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
    } catch (error) {
      throw new RegistryError('Invalid', `${name}: ${key} is not JSON: ${(error as Error).message}`);
    }
    const auths = key === '.dockerconfigjson' ? (parsed as { auths?: unknown } | null)?.auths : parsed;
    if (typeof auths !== 'object' || auths === null) throw new RegistryError('Invalid', `${name}: ${key} has no auths`);
    for (const [registry, entry] of Object.entries(auths)) {
      if (!credentials.has(registry)) credentials.set(registry, entryCredentials(`${name}: ${key} auths["${registry}"]`, entry));
    }
  }
  return credentials;
}

/** A keyring key as kubelet stores it: schemeless host[:port][/path], /v1/ and /v2/ meaning the host. */
function keyringKey(key: string): { host: string; path: string } | undefined {
  let url: URL;
  try {
    url = new URL(/^https?:\/\//.test(key) ? key : `https://${key}`);
  } catch {
    return undefined;
  }
  let path = url.pathname;
  if (path.startsWith('/v1/') || path.startsWith('/v2/')) path = path.slice(3);
  return { host: url.host, path: path === '/' ? '' : path.replace(/\/$/, '') };
}

/** kubelet's URLsMatch: globs per host label (*.example.com), equal ports, the key's path a prefix of the image's. */
function keyMatches(key: { host: string; path: string }, host: string, path: string): boolean {
  const [keyName = '', keyPort = ''] = key.host.split(':');
  const [name = '', port = ''] = host.split(':');
  if (keyPort !== port) return false;
  const keyLabels = keyName.split('.');
  const labels = name.split('.');
  if (keyLabels.length !== labels.length) return false;
  const globToRegExp = (glob: string): RegExp => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^.]*')}$`);
  if (!keyLabels.every((label, i) => globToRegExp(label).test(labels[i] ?? ''))) return false;
  return key.path === '' || `/${path}`.startsWith(key.path);
}

/**
 * The credentials for `repository` (host/path, as docker.io/library/busybox): the longest matching key first,
 * then, for Docker Hub, a key naming any of its hosts (index.docker.io/v1/, docker.io, registry-1.docker.io).
 */
export function lookupCredentials(credentials: Map<string, RegistryCredentials> | undefined, repository: string): RegistryCredentials | undefined {
  if (credentials === undefined || credentials.size === 0) return undefined;
  const slash = repository.indexOf('/');
  const host = slash < 0 ? repository : repository.slice(0, slash);
  const path = slash < 0 ? '' : repository.slice(slash + 1);
  const keys = [...credentials.keys()]
    .map((raw) => ({ raw, key: keyringKey(raw) }))
    .filter((k): k is { raw: string; key: { host: string; path: string } } => k.key !== undefined)
    .sort((a, b) => `${b.key.host}${b.key.path}`.length - `${a.key.host}${a.key.path}`.length);
  const hostMatches = (h: string): { raw: string } | undefined => keys.find(({ key }) => keyMatches(key, h, path));
  const match = hostMatches(host) ?? (DOCKER_HUB_HOSTS.includes(host) ? DOCKER_HUB_HOSTS.map(hostMatches).find((m) => m !== undefined) : undefined);
  return match && credentials.get(match.raw);
}
