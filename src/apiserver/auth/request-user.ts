// The user of the request being served, carried through everything the request awaits, as kube-apiserver carries
// it in the request's context (request.WithUser / UserFrom): admission and the review kinds read it here instead
// of every layer passing it along.
import { AsyncLocalStorage } from 'node:async_hooks';
import { serverSelf, type UserInfo } from './user-info.ts';

const current = new AsyncLocalStorage<UserInfo>();

/** Runs `serve` (and everything it starts) as `user`. */
export function withRequestUser<T>(user: UserInfo, serve: () => T): T {
  return current.run(user, serve);
}

/** The user of the request being served; the server itself when no request is being served. */
export function requestUser(): UserInfo {
  return current.getStore() ?? serverSelf;
}
