// kube-apiserver's filter chain for one request, in its order: authentication, impersonation, authorization.
import type { IncomingMessage } from 'node:http';
import type { NonResourceRequest, ResourceRequest } from '../http/request-info.ts';
import { authenticate, type Authenticator } from './authenticator.ts';
import { authorizeOrForbid, requestAttributes, type Authorizer } from './authorizer.ts';
import { impersonate } from './impersonation.ts';
import type { UserInfo } from './user-info.ts';

export interface RequestAuth {
  /** Tried in order; none at all means every request is the administrator. */
  readonly authenticators: readonly Authenticator[];
  readonly authorizer: Authorizer;
}

/**
 * Who the request acts as, once it may go on; throws 401 for credentials nobody accepts and 403 for what the
 * user may not do. `request` is undefined for a path the server cannot parse: it is authorized as a path.
 */
export async function admitRequest(auth: RequestAuth, req: IncomingMessage, request: ResourceRequest | NonResourceRequest | undefined, path: string): Promise<UserInfo> {
  const authenticated = await authenticate(auth.authenticators, req);
  // Most requests impersonate no one: their headers need no second, per-value copy.
  const impersonating = Object.keys(req.headers).some((header) => header.startsWith('impersonate-'));
  const user = impersonating ? await impersonate(auth.authorizer, authenticated, req.headersDistinct) : authenticated;
  const method = req.method ?? 'GET';
  await authorizeOrForbid(auth.authorizer, requestAttributes(user, request ?? { kind: 'nonresource', path }, method));
  return user;
}
