// Impersonation headers (kubectl --as/--as-group/--as-uid). The server has one user and no RBAC yet, so it
// cannot act as anyone else; silently ignoring the headers would run the request with more rights than the
// client asked for, so such a request is refused.
import type { IncomingHttpHeaders } from 'node:http';
import { errors } from '../../apimachinery/status-error.ts';

const impersonationHeaders = ['impersonate-user', 'impersonate-group', 'impersonate-uid'];

export function refuseImpersonation(headers: IncomingHttpHeaders): void {
  const sent = Object.keys(headers).filter((name) => impersonationHeaders.includes(name) || name.startsWith('impersonate-extra-'));
  if (sent.length === 0) return;
  const names = sent.map((name) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase()));
  throw errors.forbidden(`impersonation is not supported by this API server (it has no RBAC): the request sent ${names.join(', ')}`);
}
