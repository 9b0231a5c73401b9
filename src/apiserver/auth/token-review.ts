// authentication.k8s.io/v1 TokenReview: whose a token is, asked by a webhook or proxy that was handed it, as
// kube-apiserver answers with its own token authenticators. With no audiences asked, the API server's are meant;
// status.audiences says which of those the token is good for.
import type { KubeObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { API_AUDIENCES, type TokenAuthenticator } from './token-authenticator.ts';
import { userInfoJson } from './user-info.ts';

export function reviewToken(authenticate: TokenAuthenticator): (review: KubeObject) => KubeObject {
  return (review) => {
    const spec = (review['spec'] ?? {}) as { token?: unknown; audiences?: unknown };
    if (typeof spec.token !== 'string' || spec.token === '') throw errors.badRequest('token is required for TokenReview in authentication');
    const asked = Array.isArray(spec.audiences) && spec.audiences.length > 0 ? spec.audiences.map(String) : undefined;
    const result = authenticate(spec.token, asked ?? API_AUDIENCES);
    if (!result) return { ...review, status: { user: {} } };
    return { ...review, status: { authenticated: true, user: userInfoJson(result.user), audiences: [...result.audiences] } };
  };
}
