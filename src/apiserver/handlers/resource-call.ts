// One resource request as every handler sees it: built once by the dispatcher, so a handler's signature
// says only what is its own (a subresource, a verb, a representation).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UserInfo } from '../auth/user-info.ts';
import { decodeBody, mediaType, readBody } from '../http/body.ts';
import type { UpdateOptions } from '../registry/write-types.ts';
import { checkDecodedBody } from '../registry/builtin-field-types.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import type { HandlerContext } from './context.ts';
import { writeOptions } from './write-options.ts';

export interface ResourceCall {
  readonly ctx: HandlerContext;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Who the request acts as (authenticated, impersonation applied): admission and the review kinds see it. */
  readonly user: UserInfo;
  readonly type: ResourceType;
  /** The namespace on the URL; '' when it names none (path segments are never empty). */
  readonly namespace: string;
  /** The object's name on the URL; '' on a collection. */
  readonly name: string;
  readonly query: URLSearchParams;
}

/** The namespace a list, watch or deletecollection is confined to; undefined for every namespace. */
export function collectionNamespace(call: ResourceCall): string | undefined {
  return call.namespace === '' ? undefined : call.namespace;
}

/** The request body decoded as its Content-Type says; `type` enables protobuf for built-in kinds. */
export async function readObjectBody(req: IncomingMessage, type?: ResourceType): Promise<unknown> {
  const body = decodeBody(await readBody(req), mediaType(req.headers['content-type']), type);
  if (type) checkDecodedBody(type, body);
  return body;
}

/** The query's write options and the caller's User-Agent, as an update through admission takes them. */
export function updateOptions(call: ResourceCall): UpdateOptions & { userAgent: string } {
  return { ...writeOptions(call.query), userAgent: call.req.headers['user-agent'] ?? '' };
}
