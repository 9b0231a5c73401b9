// POST (create), PUT (update, main resource or /status), DELETE and DELETE on a collection.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import { StatusError } from '../../apimachinery/status-error.ts';
import { decodeBody, mediaType, readBody } from '../http/body.ts';
import { sendJson, sendJsonText } from '../http/respond.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import type { HandlerContext } from './context.ts';
import { selectionFor } from './selection.ts';
import { deleteOptions, writeOptions } from './write-options.ts';

export async function readObjectBody(req: IncomingMessage, type?: ResourceType): Promise<unknown> {
  return decodeBody(await readBody(req), mediaType(req.headers['content-type']), type);
}

export async function handleCreate(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  type: ResourceType,
  namespace: string,
  query: URLSearchParams,
): Promise<void> {
  const body = await readObjectBody(req, type);
  if (type.review) {
    sendJson(res, 201, type.review({ apiVersion: apiVersionOf(type), kind: type.kind, ...(body as object), metadata: { creationTimestamp: null } } as never));
    return;
  }
  const { json, warnings } = await ctx.writes.create(type, namespace, body, writeOptions(query), req.headers['user-agent']);
  await ctx.store.durable();
  sendJsonText(res, 201, json, warnings);
}

export async function handleUpdate(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  type: ResourceType,
  namespace: string,
  name: string,
  subresource: 'status' | 'finalize' | undefined,
  query: URLSearchParams,
): Promise<void> {
  const body = await readObjectBody(req, type);
  const options = { ...writeOptions(query), userAgent: req.headers['user-agent'] ?? '' };
  const { json, warnings } = await ctx.writes.update(type, subresource, options, () => ctx.objects.updateCandidate(type, namespace, name, body, subresource));
  await ctx.store.durable();
  sendJsonText(res, 200, json, warnings);
}

async function optionalBody(req: IncomingMessage, type: ResourceType): Promise<unknown> {
  const raw = await readBody(req);
  if (raw.length === 0 || raw.toString('utf8').trim() === '') return undefined;
  return decodeBody(raw, mediaType(req.headers['content-type']), type);
}

export async function handleDelete(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  type: ResourceType,
  namespace: string,
  name: string,
  query: URLSearchParams,
): Promise<void> {
  const options = deleteOptions(query, await optionalBody(req, type));
  const { json, warnings } = await ctx.writes.delete(type, namespace, name, options);
  await ctx.store.durable();
  sendJsonText(res, 200, json, warnings);
}

export async function handleDeleteCollection(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  type: ResourceType,
  namespace: string | undefined,
  query: URLSearchParams,
): Promise<void> {
  const options = deleteOptions(query, await optionalBody(req, type));
  const select = selectionFor(type, namespace, query);
  const deleted: string[] = [];
  const warnings: string[] = [];
  for (const stored of ctx.store.list(`${type.group}/${type.plural}`, namespace)) {
    if (!select(stored.object)) continue;
    let result;
    try {
      result = await ctx.writes.delete(type, stored.object.metadata.namespace ?? '', stored.object.metadata.name ?? '', options);
    } catch (error) {
      // Gone while earlier items were being admitted: nothing left to delete, as kube-apiserver treats it.
      if (error instanceof StatusError && error.code === 404) continue;
      throw error;
    }
    deleted.push(result.json);
    for (const w of result.warnings) if (!warnings.includes(w)) warnings.push(w);
  }
  const head = JSON.stringify({ kind: type.listKind, apiVersion: apiVersionOf(type), metadata: { resourceVersion: String(ctx.store.currentRevision) } });
  await ctx.store.durable();
  sendJsonText(res, 200, `${head.slice(0, -1)},"items":[${deleted.join(',')}]}`, warnings);
}
