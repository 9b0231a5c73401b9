// Authorization as kube-apiserver's: the request's attributes (authorizer.AttributesRecord, from its
// RequestInfo), an authorizer's decision, and the Forbidden status it answers with when the decision is no.
import { StatusError } from '../../apimachinery/status-error.ts';
import type { NonResourceRequest, ResourceRequest } from '../http/request-info.ts';
import type { UserInfo } from './user-info.ts';

export interface RequestAttributes {
  readonly user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection; impersonate, bind, escalate, use… for checks the server makes itself. */
  readonly verb: string;
  readonly resourceRequest: boolean;
  /** The URL path, for non-resource requests (`/version`, `/healthz`). */
  readonly path: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

export interface Decision {
  readonly allowed: boolean;
  /** Why not (or why): appended to the Forbidden message after a colon when not empty. */
  readonly reason: string;
}

export interface Authorizer {
  authorize(attributes: RequestAttributes): Decision | Promise<Decision>;
}

/** Every request allowed: the server before RBAC, and servers started without authorization. */
export const allowEverything: Authorizer = { authorize: () => ({ allowed: true, reason: '' }) };

/** The attributes of an HTTP request, as kube-apiserver's WithAuthorization filter builds them. */
export function requestAttributes(user: UserInfo, request: ResourceRequest | NonResourceRequest, method: string): RequestAttributes {
  if (request.kind === 'nonresource') {
    return { user, verb: nonResourceVerb(method), resourceRequest: false, path: request.path, apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '' };
  }
  return {
    user,
    verb: request.verb,
    resourceRequest: true,
    path: '',
    apiGroup: request.group,
    apiVersion: request.version,
    namespace: request.namespace ?? '',
    resource: request.resource,
    subresource: request.subresource ?? '',
    name: request.name ?? '',
  };
}

/** Non-resource verbs are the lower-cased HTTP method (kube's RequestInfoFactory), `get` for HEAD. */
function nonResourceVerb(method: string): string {
  const lower = method.toLowerCase();
  return lower === 'head' ? 'get' : lower;
}

/** kube-apiserver's responsewriters.forbiddenMessage. */
export function forbiddenMessage(attributes: RequestAttributes): string {
  const username = attributes.user.username;
  if (!attributes.resourceRequest) return `User ${JSON.stringify(username)} cannot ${attributes.verb} path ${JSON.stringify(attributes.path)}`;
  const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const scope = attributes.namespace ? `in the namespace ${JSON.stringify(attributes.namespace)}` : 'at the cluster scope';
  return `User ${JSON.stringify(username)} cannot ${attributes.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attributes.apiGroup)} ${scope}`;
}

/** The 403 kube-apiserver answers a denied request with (responsewriters.WriteForbidden → errors.NewForbidden). */
export function forbidden(attributes: RequestAttributes, reason: string): StatusError {
  const message = reason ? `${forbiddenMessage(attributes)}: ${reason}` : forbiddenMessage(attributes);
  if (!attributes.resource) return new StatusError(403, 'Forbidden', `forbidden: ${message}`);
  const qualified = attributes.apiGroup ? `${attributes.resource}.${attributes.apiGroup}` : attributes.resource;
  const subject = attributes.name ? `${qualified} ${JSON.stringify(attributes.name)}` : qualified;
  return new StatusError(403, 'Forbidden', `${subject} is forbidden: ${message}`, {
    ...(attributes.name ? { name: attributes.name } : {}),
    group: attributes.apiGroup,
    kind: attributes.resource,
  });
}

/** Authorizes the attributes or throws kube-apiserver's Forbidden. */
export async function authorizeOrForbid(authorizer: Authorizer, attributes: RequestAttributes): Promise<void> {
  const decision = await authorizer.authorize(attributes);
  if (!decision.allowed) throw forbidden(attributes, decision.reason);
}
