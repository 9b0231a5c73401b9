// Parses a request path the way kube-apiserver's RequestInfoFactory does.
import { errors } from '../../apimachinery/status-error.ts';
import { boolParam } from './query-params.ts';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface ResourceRequest {
  kind: 'resource';
  group: string;
  version: string;
  namespace: string | undefined;
  resource: string;
  name: string | undefined;
  subresource: string | undefined;
  verb: Verb;
}

export interface NonResourceRequest {
  kind: 'nonresource';
  path: string;
}

const namespaceSubresources = new Set(['status', 'finalize']);

function verbFor(method: string, hasName: boolean, watch: boolean): Verb | undefined {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return watch ? 'watch' : hasName ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return hasName ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

/**
 * The request target as a URL. An origin-form target is kept whole (`//x` is a path here, not a host), and one
 * that cannot be parsed is a 400, as Go's server answers it.
 */
export function requestUrl(target: string | undefined): URL {
  const raw = target ?? '/';
  try {
    return raw.startsWith('/') ? new URL(`http://localhost${raw}`) : new URL(raw, 'http://localhost');
  } catch {
    throw errors.badRequest(`malformed request target ${JSON.stringify(raw)}`);
  }
}

/** A percent-decoded path segment; a bad escape is a 400 in Go's url.PathUnescape words, not a URIError. */
function decodePathSegment(segment: string): string {
  // Most segments have nothing escaped.
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    const bad = /%(?![0-9a-fA-F]{2})/.exec(segment);
    if (bad) throw errors.badRequest(`invalid URL escape ${JSON.stringify(segment.slice(bad.index, bad.index + 3))}`);
    throw errors.badRequest(`invalid URL path segment ${JSON.stringify(segment)}: the escaped bytes are not UTF-8`);
  }
}

export function parseRequestPath(method: string, pathname: string, query: URLSearchParams): ResourceRequest | NonResourceRequest | undefined {
  const parts = pathname.split('/').filter((p) => p !== '').map(decodePathSegment);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return { kind: 'nonresource', path: pathname };
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && !namespaceSubresources.has(rest[2]!)) rest = rest.slice(2);
  }
  const resource = rest[0]!;
  let name = rest[1];
  let subresource = rest[2];
  if (resource === 'namespaces' && rest[0] === 'namespaces') {
    // `/api/v1/namespaces/foo[/status]` is the Namespace object itself.
    name = namespace;
    subresource = rest[2];
    namespace = undefined;
  }
  if (rest.length > 3) return undefined;
  const watch = boolParam(query, 'watch');
  const verb = verbFor(method, name !== undefined, watch);
  if (!verb) return undefined;
  return { kind: 'resource', group, version, namespace, resource, name, subresource, verb };
}
