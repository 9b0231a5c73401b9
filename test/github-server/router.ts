// Matches a request path against route patterns: ":name" takes one segment, "*name" the rest (branch names
// carry "/", sent raw or as %2F). Segments are compared decoded.
import type { ApiRequest, ApiResponse } from './http.ts';

export type Params = Record<string, string>;
export type Handler = (request: ApiRequest, params: Params) => ApiResponse | Promise<ApiResponse>;

/** Who may call a route: any token holder (PAT or installation token), or a GitHub App with its JWT. */
export type RouteAuth = 'token' | 'app';

interface Route {
  method: string;
  pattern: string[];
  handler: Handler;
  auth: RouteAuth;
}

export class Router {
  private readonly routes: Route[] = [];

  on(method: string, pattern: string, handler: Handler, auth: RouteAuth = 'token'): this {
    this.routes.push({ method, pattern: pattern.split('/').filter((s) => s !== ''), handler, auth });
    return this;
  }

  /** The first matching route's handler and params. */
  match(method: string, segments: string[]): { handler: Handler; params: Params; auth: RouteAuth } | undefined {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const params = matchPattern(route.pattern, segments);
      if (params !== undefined) return { handler: route.handler, params, auth: route.auth };
    }
    return undefined;
  }
}

/**
 * Splits a raw path into decoded segments; undefined for a malformed escape or an empty segment: GitHub has no
 * route at "//repos/...", which is where Octokit goes with a trailing slash on its base URL.
 */
export function pathSegments(pathname: string): string[] | undefined {
  const raw = pathname.replace(/^\//, '').replace(/\/$/, '').split('/');
  if (raw.length === 1 && raw[0] === '') return [];
  if (raw.includes('')) return undefined;
  try {
    return raw.map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

function matchPattern(pattern: string[], segments: string[]): Params | undefined {
  const params: Params = {};
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i] as string;
    if (part.startsWith('*')) {
      // A rest parameter may be followed by fixed segments (".../commits/*ref/check-runs").
      const tail = pattern.slice(i + 1);
      const restEnd = segments.length - tail.length;
      if (restEnd <= i) return undefined;
      params[part.slice(1)] = segments.slice(i, restEnd).join('/');
      const tailParams = matchPattern(tail, segments.slice(restEnd));
      return tailParams === undefined ? undefined : { ...params, ...tailParams };
    }
    const segment = segments[i];
    if (segment === undefined) return undefined;
    if (part.startsWith(':')) params[part.slice(1)] = segment;
    else if (part !== segment) return undefined;
  }
  return segments.length === pattern.length ? params : undefined;
}
