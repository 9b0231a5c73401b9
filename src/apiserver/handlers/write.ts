// POST (create), PUT (update, main resource or /status), DELETE and DELETE on a collection.
import type { IncomingMessage } from 'node:http';
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import { StatusError } from '../../apimachinery/status-error.ts';
import { decodeBody, mediaType, readBody } from '../http/body.ts';
import { sendJson } from '../http/respond.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import { decodeObject } from '../registry/object-decoding.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import { respondWhenDurable } from './durable-response.ts';
import { collectionNamespace, readObjectBody, updateOptions, type ResourceCall } from './resource-call.ts';
import { selectionFor } from './selection.ts';
import { deleteOptions, writeOptions } from './write-options.ts';

export async function handleCreate(call: ResourceCall): Promise<void> {
  const { ctx, req, type } = call;
  const body = await readObjectBody(req, type);
  if (type.review) {
    // Decoded as any create is (kube-apiserver's strict decoding), though never stored.
    const warnings: string[] = [];
    decodeObject(type, body as KubeObject, writeOptions(call.query).fieldValidation, warnings);
    const metadata = { creationTimestamp: null, ...(type.namespaced ? { namespace: call.namespace } : {}) };
    sendJson(call.res, 201, await type.review({ apiVersion: apiVersionOf(type), kind: type.kind, ...(body as object), metadata } as never, call.user), warnings);
    return;
  }
  const { json, warnings } = await ctx.writes.create(call.user, type, call.namespace, body, writeOptions(call.query), req.headers['user-agent']);
  await respondWhenDurable(call, 201, json, warnings);
}

export async function handleUpdate(call: ResourceCall, subresource: 'status' | 'finalize' | undefined): Promise<void> {
  const { ctx, type } = call;
  const body = await readObjectBody(call.req, type);
  const { json, warnings } = await ctx.writes.update(call.user, type, subresource, updateOptions(call), () =>
    ctx.objects.updateCandidate(type, call.namespace, call.name, body, subresource),
  );
  await respondWhenDurable(call, 200, json, warnings);
}

async function optionalBody(req: IncomingMessage, type: ResourceType): Promise<unknown> {
  const raw = await readBody(req);
  if (raw.length === 0 || raw.toString('utf8').trim() === '') return undefined;
  return decodeBody(raw, mediaType(req.headers['content-type']), type);
}

export async function handleDelete(call: ResourceCall): Promise<void> {
  const options = deleteOptions(call.query, await optionalBody(call.req, call.type));
  const { json, warnings } = await call.ctx.writes.delete(call.user, call.type, call.namespace, call.name, options);
  await respondWhenDurable(call, 200, json, warnings);
}

export async function handleDeleteCollection(call: ResourceCall): Promise<void> {
  const { ctx, type } = call;
  const namespace = collectionNamespace(call);
  const options = deleteOptions(call.query, await optionalBody(call.req, type));
  const select = selectionFor(type, namespace, call.query);
  const deleted: string[] = [];
  const warnings: string[] = [];
  for (const stored of ctx.store.list(`${type.group}/${type.plural}`, namespace)) {
    if (!select(stored.object)) continue;
    let result;
    try {
      result = await ctx.writes.delete(call.user, type, stored.object.metadata.namespace ?? '', stored.object.metadata.name ?? '', options);
    } catch (error) {
      // Gone while earlier items were being admitted: nothing left to delete, as kube-apiserver treats it.
      if (error instanceof StatusError && error.code === 404) continue;
      throw error;
    }
    deleted.push(result.json);
    for (const w of result.warnings) if (!warnings.includes(w)) warnings.push(w);
  }
  const head = JSON.stringify({ kind: type.listKind, apiVersion: apiVersionOf(type), metadata: { resourceVersion: String(ctx.store.currentRevision) } });
  await respondWhenDurable(call, 200, `${head.slice(0, -1)},"items":[${deleted.join(',')}]}`, warnings);
}
