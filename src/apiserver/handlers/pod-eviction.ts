// POST pods/<name>/eviction (policy/v1 Eviction): what `kubectl drain` calls. Bosun serves no
// PodDisruptionBudgets, so, as kube-apiserver does when no budget selects the pod, the eviction is a delete
// with the Eviction's deleteOptions.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPlainObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { sendJson } from '../http/respond.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import type { HandlerContext } from './context.ts';
import { createdStatus } from './created-status.ts';
import { readObjectBody } from './write.ts';
import { deleteOptions } from './write-options.ts';

const evictionVersions = new Set(['policy/v1', 'policy/v1beta1']);

export async function handleEviction(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  type: ResourceType,
  namespace: string,
  name: string,
  query: URLSearchParams,
): Promise<void> {
  const body = await readObjectBody(req);
  if (!isPlainObject(body)) throw errors.badRequest('the body of the request must be an Eviction object');
  if ((body['kind'] !== undefined && body['kind'] !== 'Eviction') || (body['apiVersion'] !== undefined && !evictionVersions.has(String(body['apiVersion'])))) {
    throw errors.badRequest(`not a Eviction object: ${String(body['apiVersion'] ?? '')} ${String(body['kind'] ?? '')}`.trim());
  }
  const meta = isPlainObject(body['metadata']) ? body['metadata'] : {};
  if (meta['name'] !== name) throw errors.badRequest('name in URL does not match name in Eviction object');
  const options = deleteOptions(query, isPlainObject(body['deleteOptions']) ? body['deleteOptions'] : undefined);
  await ctx.writes.delete(type, namespace, name, options);
  await ctx.store.durable();
  sendJson(res, 201, createdStatus());
}
