// Bearer token authentication as kube-apiserver's authenticator.Token: each kind of token (the admin token, the
// token file's, service account JWTs) says whose a token is for the audiences it is presented to. Requests present
// theirs to the API server's own audiences; a TokenReview names its own.
import type { Authenticator } from './authenticator.ts';
import { bearerTokenOf } from './authenticator.ts';
import type { UserInfo } from './user-info.ts';

/** kube-apiserver's default --service-account-issuer, which is also its default --api-audiences. */
export const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
export const API_AUDIENCES: readonly string[] = [SERVICE_ACCOUNT_ISSUER];

/** Who a token names, and for which of the audiences asked it is good (authenticator.Response). */
export interface TokenAuthentication {
  readonly user: UserInfo;
  readonly audiences: readonly string[];
}

export type TokenAuthenticator = (token: string, audiences: readonly string[]) => TokenAuthentication | undefined;

/**
 * A token kind that knows no audiences (the admin token, the token file), good for the API server's own
 * audiences only, as authenticator.WrapAudienceAgnosticToken makes it.
 */
export function audienceAgnostic(check: (token: string) => UserInfo | undefined): TokenAuthenticator {
  return (token, audiences) => {
    const granted = audiences.filter((a) => API_AUDIENCES.includes(a));
    if (granted.length === 0) return undefined;
    const user = check(token);
    return user ? { user, audiences: granted } : undefined;
  };
}

/** The first of `authenticators` that accepts the token (the union token authenticator). */
export function firstToken(authenticators: readonly TokenAuthenticator[]): TokenAuthenticator {
  return (token, audiences) => {
    for (const authenticate of authenticators) {
      const result = authenticate(token, audiences);
      if (result) return result;
    }
    return undefined;
  };
}

/** Authenticates a request by its `Authorization: Bearer` token, presented to the API server's audiences. */
export function bearerAuthenticator(tokens: TokenAuthenticator): Authenticator {
  return (req) => {
    const token = bearerTokenOf(req);
    return token === undefined ? undefined : tokens(token, API_AUDIENCES)?.user;
  };
}
