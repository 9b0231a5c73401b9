// GET of one object and LIST of a collection, with selectors, limit/continue and Table output.
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import { errors } from '../../apimachinery/status-error.ts';
import type { Representation } from '../http/negotiation.ts';
import { int64Param, resourceVersionParam } from '../http/query-params.ts';
import { sendJson, sendJsonText } from '../http/respond.ts';
import type { StoredObject } from '../storage/sqlite-store.ts';
import type { HandlerContext } from './context.ts';
import { renderJson, renderObject } from './render.ts';
import { collectionNamespace, type ResourceCall } from './resource-call.ts';
import { selectedLabel, selectionFor } from './selection.ts';

export function handleGet(call: ResourceCall, rep: Representation): void {
  const { ctx, res, type } = call;
  resourceVersionParam(call.query);
  const stored = ctx.objects.get(type, call.namespace, call.name);
  if (rep.table) {
    sendJson(res, 200, ctx.tables.toTable(type, [renderObject(type, stored)], rep, { resourceVersion: String(stored.revision) }, true));
    return;
  }
  sendJsonText(res, 200, renderJson(type, stored));
}

interface ContinueToken {
  rv: number;
  start: string;
}

function decodeContinue(token: string): ContinueToken {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as ContinueToken;
    if (typeof parsed.rv !== 'number' || typeof parsed.start !== 'string') throw new Error('shape');
    return parsed;
  } catch {
    throw errors.badRequest(`invalid continue token`);
  }
}

export function handleList(call: ResourceCall, rep: Representation): void {
  const { ctx, res, type, query } = call;
  const namespace = collectionNamespace(call);
  const select = selectionFor(type, namespace, query);
  resourceVersionParam(query);
  const revision = ctx.store.currentRevision;
  if (query.get('resourceVersionMatch') === 'Exact' && query.get('resourceVersion') !== String(revision)) {
    throw errors.expired(`too old resource version: ${query.get('resourceVersion') ?? ''} (${revision})`);
  }
  // Zero or negative means no limit, as in kube-apiserver.
  const limit = Math.max(int64Param(query, 'limit') ?? 0, 0);
  const token = query.get('continue');
  const start = token ? decodeContinue(token) : undefined;
  if (start && start.rv < ctx.store.oldestWatchableRevision) {
    throw errors.expired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.');
  }
  const key = `${type.group}/${type.plural}`;
  // Later pages of a chunked list are served from the first page's snapshot, as kube-apiserver does.
  const atRevision = start ? start.rv : revision;
  const labelled = selectedLabel(query);
  const current = (): StoredObject[] => (labelled ? ctx.store.listLabelled(key, namespace, labelled.label, labelled.value) : ctx.store.list(key, namespace));
  const objects = atRevision === revision ? current() : snapshotAt(ctx, key, namespace, atRevision);
  const all = objects.filter((s) => select(s.object)).sort((a, b) => keyOf(a.object).localeCompare(keyOf(b.object)));
  const from = start ? all.findIndex((s) => keyOf(s.object) > start.start) : 0;
  const remaining = from < 0 ? [] : all.slice(from);
  const page = limit > 0 ? remaining.slice(0, limit) : remaining;
  const more = limit > 0 && remaining.length > limit;
  const listMeta: { resourceVersion: string; continue?: string; remainingItemCount?: number } = { resourceVersion: String(atRevision) };
  if (more) {
    const last = page[page.length - 1]!;
    listMeta.continue = Buffer.from(JSON.stringify({ rv: atRevision, start: keyOf(last.object) })).toString('base64url');
    listMeta.remainingItemCount = remaining.length - limit;
  }
  if (rep.table) {
    sendJson(res, 200, ctx.tables.toTable(type, page.map((s) => renderObject(type, s)), rep, listMeta, true));
    return;
  }
  const items = page.map((s) => renderJson(type, s)).join(',');
  const head = JSON.stringify({ kind: type.listKind, apiVersion: apiVersionOf(type), metadata: listMeta });
  sendJsonText(res, 200, `${head.slice(0, -1)},"items":[${items}]}`);
}

/** The objects of a resource as they were at `revision`: today's state with later events undone. */
function snapshotAt(ctx: HandlerContext, key: string, namespace: string | undefined, revision: number): StoredObject[] {
  const state = new Map(ctx.store.list(key).map((s) => [keyOf(s.object), s]));
  const later = ctx.store.eventsAfter(key, revision);
  for (let i = later.length - 1; i >= 0; i--) {
    const event = later[i]!;
    const k = keyOf(event.current.object);
    if (event.type === 'ADDED') state.delete(k);
    else if (event.previous) state.set(k, { ...event.previous, revision: Number(event.previous.object.metadata.resourceVersion) });
  }
  return [...state.values()].filter((s) => namespace === undefined || s.object.metadata.namespace === namespace);
}

function keyOf(object: { metadata: { namespace?: string; name?: string } }): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
}
