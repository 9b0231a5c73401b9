// Subresources with their own semantics: pods/binding and pods/eviction (POST), and */scale (GET, PUT, PATCH).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from '../../apimachinery/status-error.ts';
import type { Verb } from '../http/request-info.ts';
import type { ResourceType, SubresourceInfo } from '../registry/resource-type.ts';
import type { HandlerContext } from './context.ts';
import { handleBinding } from './pod-binding.ts';
import { handleEviction } from './pod-eviction.ts';
import { handleScale } from './scale.ts';

export async function handleSubresource(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  type: ResourceType,
  sub: SubresourceInfo,
  namespace: string,
  name: string,
  verb: Verb,
  query: URLSearchParams,
): Promise<void> {
  if (!sub.verbs.includes(verb)) throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
  switch (sub.name) {
    case 'binding':
      return handleBinding(ctx, req, res, type, namespace, name, query);
    case 'eviction':
      return handleEviction(ctx, req, res, type, namespace, name, query);
    case 'scale':
      return handleScale(ctx, req, res, type, namespace, name, verb, query);
  }
}
