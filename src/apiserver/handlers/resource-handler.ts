// Dispatches a resource request to its verb, after checking scope and subresource.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from '../../apimachinery/status-error.ts';
import type { UserInfo } from '../auth/user-info.ts';
import { negotiate } from '../http/negotiation.ts';
import type { ResourceRequest } from '../http/request-info.ts';
import type { HandlerContext } from './context.ts';
import { handlePatch } from './patch.ts';
import { handleGet, handleList } from './read.ts';
import type { ResourceCall } from './resource-call.ts';
import { handleSubresource } from './subresources.ts';
import { handleWatch } from './watch.ts';
import { handleCreate, handleDelete, handleDeleteCollection, handleUpdate } from './write.ts';

export async function handleResource(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  user: UserInfo,
  info: ResourceRequest,
  query: URLSearchParams,
): Promise<void> {
  const type = ctx.registry.lookup(info.group, info.version, info.resource);
  if (!type) throw errors.pathNotFound();
  if (!type.namespaced && info.namespace !== undefined) throw errors.pathNotFound();
  const call: ResourceCall = { ctx, req, res, user, type, namespace: info.namespace ?? '', name: info.name ?? '', query };
  const connect = type.subresources?.find((s) => s.name === info.subresource);
  if (connect && info.name !== undefined) return handleSubresource(call, connect, info.verb);
  if (!type.verbs.includes(info.verb)) throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
  const rep = negotiate(req.headers['accept'], query);
  const sub = info.subresource;
  if (sub !== undefined) {
    const allowed = (sub === 'status' && type.statusSubresource) || (sub === 'finalize' && type.kind === 'Namespace' && !type.custom);
    if (!allowed || info.name === undefined) throw errors.pathNotFound();
  }
  switch (info.verb) {
    case 'get':
      return handleGet(call, rep);
    case 'list':
      return handleList(call, rep);
    case 'watch':
      // A HEAD answer has no body, so a watch stream would never end and would block the connection's next request.
      if (req.method === 'HEAD') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end();
        return;
      }
      if (info.name !== undefined) {
        query.set('fieldSelector', [query.get('fieldSelector'), `metadata.name=${info.name}`].filter(Boolean).join(','));
      }
      return handleWatch(call, rep);
    case 'create':
      if (type.namespaced && info.namespace === undefined) throw errors.pathNotFound();
      if (info.name !== undefined) throw errors.methodNotAllowed(`the server does not allow this method on the requested resource`);
      return handleCreate(call);
    case 'update':
      return handleUpdate(call, sub === 'status' || sub === 'finalize' ? sub : undefined);
    case 'patch':
      if (sub === 'finalize') throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
      return handlePatch(call, sub === 'status' ? 'status' : undefined);
    case 'delete':
      if (sub !== undefined) throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
      return handleDelete(call);
    case 'deletecollection':
      return handleDeleteCollection(call);
  }
}
