// kube-apiserver's impersonation filter (kubectl --as, --as-group, --as-uid): the Impersonate-User, -Group, -Uid
// and -Extra-<key> headers make the request act as someone else, each one allowed only when the authorizer lets
// the requester `impersonate` it (users, groups, serviceaccounts for system:serviceaccount: names, and in
// authentication.k8s.io uids and userextras/<key>), refused otherwise with kube-apiserver's Forbidden.
import { errors } from '../../apimachinery/status-error.ts';
import { authorizeOrForbid, type Authorizer, type RequestAttributes } from './authorizer.ts';
import { serviceAccountGroups } from './service-account-tokens.ts';
import type { UserInfo } from './user-info.ts';

/** Headers with every value of a repeated one (IncomingMessage.headersDistinct): kubectl repeats Impersonate-Group. */
type DistinctHeaders = Readonly<Record<string, string[] | undefined>>;

const EXTRA_PREFIX = 'impersonate-extra-';
const AUTHENTICATED = 'system:authenticated';
const UNAUTHENTICATED = 'system:unauthenticated';
const ANONYMOUS = 'system:anonymous';

/** system:serviceaccount:NS:NAME as serviceaccount.SplitUsername reads it. */
function splitServiceAccount(username: string): { namespace: string; name: string } | undefined {
  const parts = username.split(':');
  if (parts.length !== 4 || parts[0] !== 'system' || parts[1] !== 'serviceaccount' || !parts[2] || !parts[3]) return undefined;
  return { namespace: parts[2], name: parts[3] };
}

/** Extra keys are percent-encoded in header names (which allow fewer characters than keys). */
function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

function check(requester: UserInfo, group: string, resource: string, name: string, extra: { namespace?: string; subresource?: string } = {}): RequestAttributes {
  return {
    user: requester,
    verb: 'impersonate',
    resourceRequest: true,
    path: '',
    apiGroup: group,
    apiVersion: group ? 'v1' : '',
    namespace: extra.namespace ?? '',
    resource,
    subresource: extra.subresource ?? '',
    name,
  };
}

/** Whom the request acts as: `requester` itself without impersonation headers. Throws 403 for what it may not do. */
export async function impersonate(authorizer: Authorizer, requester: UserInfo, headers: DistinctHeaders): Promise<UserInfo> {
  const values = (name: string): string[] => headers[name] ?? [];
  const requestedUser = values('impersonate-user')[0] ?? '';
  const requestedGroups = values('impersonate-group');
  const requestedUid = values('impersonate-uid')[0] ?? '';
  const extraHeaders = Object.keys(headers).filter((h) => h.startsWith(EXTRA_PREFIX));
  if (requestedUser === '') {
    if (requestedGroups.length > 0 || requestedUid !== '' || extraHeaders.length > 0) {
      throw errors.badRequest('requested impersonation of groups, a uid or extra without impersonating a user');
    }
    return requester;
  }
  const checks: RequestAttributes[] = [];
  let groups: string[] = [];
  const serviceAccount = splitServiceAccount(requestedUser);
  if (serviceAccount) {
    checks.push(check(requester, '', 'serviceaccounts', serviceAccount.name, { namespace: serviceAccount.namespace }));
    if (requestedGroups.length === 0) groups = serviceAccountGroups(serviceAccount.namespace);
  } else checks.push(check(requester, '', 'users', requestedUser));
  for (const group of requestedGroups) {
    checks.push(check(requester, '', 'groups', group));
    groups.push(group);
  }
  const extra: Record<string, string[]> = {};
  for (const header of extraHeaders) {
    const key = unescapeExtraKey(header.slice(EXTRA_PREFIX.length));
    for (const value of values(header)) {
      checks.push(check(requester, 'authentication.k8s.io', 'userextras', value, { subresource: key }));
      (extra[key] ??= []).push(value);
    }
  }
  if (requestedUid !== '') checks.push(check(requester, 'authentication.k8s.io', 'uids', requestedUid));
  for (const attributes of checks) await authorizeOrForbid(authorizer, attributes);
  if (requestedUser !== ANONYMOUS) {
    if (!groups.includes(AUTHENTICATED) && !groups.includes(UNAUTHENTICATED)) groups.push(AUTHENTICATED);
  } else if (!groups.includes(UNAUTHENTICATED)) groups.push(UNAUTHENTICATED);
  return { username: requestedUser, ...(requestedUid ? { uid: requestedUid } : {}), groups, extra };
}
