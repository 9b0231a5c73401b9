// Who a request acts as: kube-apiserver's user.Info. Authenticators produce it, impersonation replaces it, the
// authorizer judges it, admission webhooks see it as request.userInfo and SelfSubjectReview answers with it.
export interface UserInfo {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The holder of the data dir's bearer token: an administrator, as kube-apiserver's system:masters. */
export const adminUser: UserInfo = { username: 'bosun-admin', groups: ['system:masters', 'system:authenticated'] };

/**
 * The server acting in its own name, with no HTTP request behind it (the system Services it keeps, its own
 * bookkeeping): kube-apiserver's loopback client is system:apiserver in system:masters.
 */
export const serverSelf: UserInfo = { username: 'system:apiserver', groups: ['system:masters', 'system:authenticated'] };

/** The user as authentication.k8s.io/v1 UserInfo (AdmissionReview, SelfSubjectReview, TokenReview). */
export function userInfoJson(user: UserInfo): Record<string, unknown> {
  return {
    username: user.username,
    ...(user.uid ? { uid: user.uid } : {}),
    groups: [...user.groups],
    ...(user.extra && Object.keys(user.extra).length > 0 ? { extra: Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]])) } : {}),
  };
}
