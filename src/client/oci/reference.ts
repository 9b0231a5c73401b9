// Image references as the Docker distribution reference grammar (github.com/distribution/reference) reads them:
// Parse for the grammar itself, ParseDockerRef for what containerd and kubelet pull (docker.io, library/, :latest).
import { RegistryError } from './registry-error.ts';

const DEFAULT_DOMAIN = 'docker.io';
const LEGACY_DEFAULT_DOMAIN = 'index.docker.io';
const OFFICIAL_REPO_PREFIX = 'library/';
const DEFAULT_TAG = 'latest';
const REPOSITORY_NAME_MAX = 255;

// The grammar, transcribed from distribution/reference's regexp.go.
const alphanumeric = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const domainNameComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const optionalPort = '(?::[0-9]+)?';
const tagPattern = '[\\w][\\w.-]{0,127}';
const digestPattern = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}';
const ipv6address = '\\[(?:[a-fA-F0-9:]+)\\]';
const domainName = `${domainNameComponent}(?:\\.${domainNameComponent})*`;
const domainAndPort = `(?:${domainName}|${ipv6address})${optionalPort}`;
const pathComponent = `${alphanumeric}(?:${separator}${alphanumeric})*`;
const remoteName = `${pathComponent}(?:/${pathComponent})*`;
const namePattern = `(?:${domainAndPort}/)?${remoteName}`;

const referenceRegexp = new RegExp(`^(${namePattern})(?::(${tagPattern}))?(?:@(${digestPattern}))?$`);
const anchoredNameRegexp = new RegExp(`^(?:(${domainAndPort})/)?(${remoteName})$`);
const anchoredIdentifierRegexp = /^[a-f0-9]{64}$/;

/** A parsed reference: `domain/path[:tag][@digest]`; domain is '' only from parseReference. */
export interface ImageReference {
  /** The registry host with its port (docker.io, 127.0.0.1:5000). */
  domain: string;
  /** The repository inside the registry (library/busybox). */
  path: string;
  tag?: string;
  /** sha256:<hex>. */
  digest?: string;
}

/** domain/path: the name a registry is asked for (and imageID's repository part). */
export function repositoryName(ref: ImageReference): string {
  return ref.domain === '' ? ref.path : `${ref.domain}/${ref.path}`;
}

export function formatReference(ref: ImageReference): string {
  return `${repositoryName(ref)}${ref.tag === undefined ? '' : `:${ref.tag}`}${ref.digest === undefined ? '' : `@${ref.digest}`}`;
}

/** The tag or digest a manifest is fetched by: the digest wins, as containerd resolves it. */
export function manifestSelector(ref: ImageReference): string {
  return ref.digest ?? ref.tag ?? DEFAULT_TAG;
}

function invalid(input: string, reason: string): RegistryError {
  return new RegistryError('InvalidReference', `couldn't parse image name "${input}": ${reason}`);
}

/** go-digest's Digest.Validate, with sha256 the only algorithm registered. */
function validateDigest(input: string, digest: string): void {
  const colon = digest.indexOf(':');
  const algorithm = digest.slice(0, colon);
  const encoded = digest.slice(colon + 1);
  if (algorithm !== 'sha256') throw invalid(input, 'unsupported digest algorithm');
  if (encoded.length !== 64) throw invalid(input, 'invalid checksum digest length');
  if (!/^[a-f0-9]{64}$/.test(encoded)) throw invalid(input, 'invalid checksum digest format');
}

/** distribution/reference's Parse: the grammar without normalisation ("busybox" stays "busybox", domain ''). */
export function parseReference(input: string): ImageReference {
  if (input === '') throw invalid(input, 'repository name must have at least one component');
  const match = referenceRegexp.exec(input);
  if (match === null) {
    const lower = input.toLowerCase();
    if (lower !== input && referenceRegexp.test(lower)) throw invalid(input, 'repository name must be lowercase');
    throw invalid(input, 'invalid reference format');
  }
  const [, name = '', tag, digest] = match;
  const nameMatch = anchoredNameRegexp.exec(name);
  const ref: ImageReference = { domain: nameMatch?.[1] ?? '', path: nameMatch?.[2] ?? name };
  if (ref.path.length > REPOSITORY_NAME_MAX) throw invalid(input, `repository name must not be more than ${REPOSITORY_NAME_MAX} characters`);
  if (tag !== undefined) ref.tag = tag;
  if (digest !== undefined) {
    validateDigest(input, digest);
    ref.digest = digest;
  }
  return ref;
}

/** splitDockerDomain: which first segment is a registry host, and docker.io's library/ prefix. */
function splitDockerDomain(name: string): [domain: string, remainder: string] {
  const slash = name.indexOf('/');
  if (slash < 0) return [DEFAULT_DOMAIN, OFFICIAL_REPO_PREFIX + name];
  const maybeDomain = name.slice(0, slash);
  const maybeRemainder = name.slice(slash + 1);
  const isDomain = maybeDomain === 'localhost' || /[.:]/.test(maybeDomain) || maybeDomain.toLowerCase() !== maybeDomain;
  let [domain, remainder]: [string, string] = isDomain ? [maybeDomain, maybeRemainder] : [DEFAULT_DOMAIN, name];
  if (domain === LEGACY_DEFAULT_DOMAIN) domain = DEFAULT_DOMAIN;
  if (domain === DEFAULT_DOMAIN && !remainder.includes('/')) remainder = OFFICIAL_REPO_PREFIX + remainder;
  return [domain, remainder];
}

/** ParseNormalizedNamed: a familiar name (busybox, user/app) made fully qualified; no default tag. */
export function parseNormalizedReference(input: string): ImageReference {
  if (anchoredIdentifierRegexp.test(input)) {
    throw invalid(input, `invalid repository name (${input}), cannot specify 64-byte hexadecimal strings`);
  }
  const [domain, remainder] = splitDockerDomain(input);
  const tagSeparator = remainder.indexOf(':');
  const remote = tagSeparator < 0 ? remainder : remainder.slice(0, tagSeparator);
  if (remote.toLowerCase() !== remote) throw invalid(input, `invalid reference format: repository name (${remote}) must be lowercase`);
  return parseReference(`${domain}/${remainder}`);
}

/**
 * ParseDockerRef, what a pull resolves: normalised, `:latest` when neither tag nor digest is given, and only the
 * digest when both are (the tag says nothing more once the content is pinned).
 */
export function parseImageReference(input: string): ImageReference {
  const ref = parseNormalizedReference(input);
  if (ref.digest !== undefined) return { domain: ref.domain, path: ref.path, digest: ref.digest };
  return { ...ref, tag: ref.tag ?? DEFAULT_TAG };
}
