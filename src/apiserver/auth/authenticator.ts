// Authentication as kube-apiserver's union authenticator: each authenticator in turn looks at the request; the
// first that recognises its credentials names the user. A bearer token no authenticator accepts is a 401.
import type { IncomingMessage } from 'node:http';
import { errors } from '../../apimachinery/status-error.ts';
import { checkBearer } from './bearer-token.ts';
import { adminUser, type UserInfo } from './user-info.ts';

/** Says who presented the request's credentials, or `undefined` when they are not this authenticator's. */
export type Authenticator = (req: IncomingMessage) => UserInfo | undefined | Promise<UserInfo | undefined>;

/** The data dir's bearer token: the administrator. */
export function adminTokenAuthenticator(token: string): Authenticator {
  return (req) => (checkBearer(req.headers['authorization'], token) ? adminUser : undefined);
}

/** The token of an `Authorization: Bearer` header (scheme in any case, RFC 7235), as kube-apiserver's bearertoken. */
export function bearerTokenOf(req: IncomingMessage): string | undefined {
  const [scheme, value] = (req.headers['authorization'] ?? '').trim().split(' ', 2);
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

/**
 * The request's user. With no authenticators at all (a server started without a token, as some tests do) every
 * request is the administrator.
 */
export async function authenticate(authenticators: readonly Authenticator[], req: IncomingMessage): Promise<UserInfo> {
  if (authenticators.length === 0) return adminUser;
  for (const authenticator of authenticators) {
    const user = await authenticator(req);
    if (user) return user;
  }
  throw errors.unauthorized();
}
