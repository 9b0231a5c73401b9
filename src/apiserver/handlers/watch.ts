// Watch: a chunked stream of JSON lines. Headers go out at once; RV unset/0 starts with synthetic ADDED
// events; RV=N replays the event log after N; too old gets an ERROR event with a 410 Expired Status.
// Objects moving into or out of the selection show up as ADDED or DELETED, as on a real server.
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import type { KubeObject, StatusCause } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import type { Representation } from '../http/negotiation.ts';
import { boolParam, int64Param, resourceVersionParam } from '../http/query-params.ts';
import { storageKey } from '../registry/resource-type.ts';
import type { StoreEvent, StoredObject } from '../storage/sqlite-store.ts';
import { renderJson, renderObject } from './render.ts';
import { collectionNamespace, type ResourceCall } from './resource-call.ts';
import { selectionFor } from './selection.ts';

/** A watcher that falls this far behind is cut off; it re-watches from its last resourceVersion. */
const maxBufferedBytes = 32 * 1024 * 1024;
/** How long a watcher that was cut off may take to read what is already queued before its connection is dropped. */
const cutOffGraceMs = 30_000;
/** How long a busy watch stream gathers events before its next write. */
const joinWindowMs = 2;

export function handleWatch(call: ResourceCall, rep: Representation): void {
  const { ctx, res, type, query } = call;
  const namespace = collectionNamespace(call);
  // Committed writes only: pending events dispatch now, before this watcher subscribes.
  ctx.store.flush();
  const select = selectionFor(type, namespace, query);
  const fromRevision = resourceVersionParam(query);
  const bookmarks = boolParam(query, 'allowWatchBookmarks');
  const timeoutSeconds = int64Param(query, 'timeoutSeconds') ?? 0;
  const initialEvents = initialEventsOf(query);
  const key = storageKey(type);
  let tableHeadersSent = false;

  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();

  // Every write goes through `write`, and ending goes through `end`, which stops every source of writes at
  // once: a response that has ended is never written to again (that is an unhandled error).
  let open = true;
  let unsubscribe = (): void => {};
  let bookmarkTimer: NodeJS.Timeout | undefined;
  let timeout: NodeJS.Timeout | undefined;
  // A busy stream's events are joined: each socket write of a TLS stream costs a record and a system call,
  // about as much as encoding the event. A stream that wrote within the last `joinWindowMs` waits out the
  // rest of the window, so at a high event rate one write carries several events; an idle stream writes at
  // the end of the current turn, as before.
  let pending = '';
  let flushScheduled = false;
  let lastFlushAt = -Infinity;
  const flush = (): void => {
    flushScheduled = false;
    if (!open || pending === '') return;
    if (res.destroyed) return end();
    lastFlushAt = performance.now();
    const out = pending;
    pending = '';
    res.write(out);
    // Falling behind, as kube-apiserver's watch cache handles it: the stream ends (the client re-watches or
    // re-lists), and a client that does not read even what is queued loses the connection.
    if (res.writableLength > maxBufferedBytes) {
      end();
      const drop = setTimeout(() => res.destroy(), cutOffGraceMs).unref();
      res.once('close', () => clearTimeout(drop));
    }
  };
  const end = (last?: string): void => {
    if (!open) return;
    open = false;
    unsubscribe();
    clearInterval(bookmarkTimer);
    clearTimeout(timeout);
    if (!res.destroyed && !res.writableEnded) res.end(pending + (last ?? ''));
    pending = '';
  };
  const write = (line: string): void => {
    if (!open) return;
    if (res.destroyed) return end();
    pending += line;
    if (pending.length > maxBufferedBytes) return flush();
    if (flushScheduled) return;
    flushScheduled = true;
    const wait = lastFlushAt + joinWindowMs - performance.now();
    if (wait > 0) setTimeout(flush, wait);
    else process.nextTick(flush);
  };
  res.on('close', () => end());
  ctx.watches.add(res, () => end());

  const send = (eventType: string, stored: StoredObject): void => {
    let payload: string;
    if (rep.table) {
      payload = JSON.stringify(ctx.tables.toTable(type, [renderObject(type, stored)], rep, { resourceVersion: String(stored.revision) }, !tableHeadersSent));
      tableHeadersSent = true;
    } else payload = renderJson(type, stored);
    write(`{"type":"${eventType}","object":${payload}}\n`);
  };
  const deliver = (event: StoreEvent): void => {
    if (event.resource !== key) return;
    const now = select(event.current.object);
    const before = event.previous !== undefined && event.type !== 'ADDED' && select(event.previous.object);
    if (event.type === 'DELETED') {
      if (now) send('DELETED', event.current);
    } else if (event.type === 'ADDED') {
      if (now) send('ADDED', event.current);
    } else if (now && before) send('MODIFIED', event.current);
    else if (now) send('ADDED', event.current);
    else if (before) send('DELETED', event.current);
  };

  const bookmark = (annotations?: Record<string, string>): void => {
    // Every event up to the current revision has been delivered synchronously, so it is a safe resume point.
    const metadata = { resourceVersion: String(ctx.store.currentRevision), ...(annotations ? { annotations } : {}) };
    const marker: KubeObject = { kind: type.kind, apiVersion: apiVersionOf(type), metadata };
    write(`{"type":"BOOKMARK","object":${JSON.stringify(marker)}}\n`);
  };

  if (initialEvents !== true && fromRevision !== undefined && fromRevision < ctx.store.oldestWatchableRevision) {
    const status = errors.expired(`too old resource version: ${fromRevision} (${ctx.store.oldestWatchableRevision})`).toStatus();
    end(`{"type":"ERROR","object":${JSON.stringify(status)}}\n`);
    return;
  }
  // Replay or synthesise, then subscribe, in one synchronous step: no event can fall in between.
  if (initialEvents === true) {
    // A streaming list (resourceVersionMatch=NotOlderThan): the current state, then (for clients that take
    // bookmarks) a bookmark that marks its end.
    for (const stored of ctx.store.list(key, namespace)) if (select(stored.object)) send('ADDED', stored);
    if (bookmarks) bookmark({ 'k8s.io/initial-events-end': 'true' });
  } else if (fromRevision === undefined) {
    if (initialEvents === undefined) for (const stored of ctx.store.list(key, namespace)) if (select(stored.object)) send('ADDED', stored);
  } else {
    for (const event of ctx.store.eventsAfter(key, fromRevision)) deliver(event);
  }
  // The replay may already have cut this watcher off.
  if (!open) return;
  unsubscribe = ctx.store.subscribe(deliver);
  if (bookmarks) {
    bookmarkTimer = setInterval(() => bookmark(), ctx.bookmarkIntervalMs);
    bookmarkTimer.unref();
  }
  // A negative timeout ends the watch at once, as Go's timer does in kube-apiserver; 0 means none.
  if (timeoutSeconds !== 0) {
    timeout = setTimeout(() => end(), Math.max(timeoutSeconds, 0) * 1000);
    timeout.unref();
  }
}

/**
 * `sendInitialEvents` (streaming lists), validated as kube-apiserver's validateWatchOptions does: it needs
 * resourceVersionMatch=NotOlderThan. Undefined when not sent.
 */
function initialEventsOf(query: URLSearchParams): boolean | undefined {
  if (!query.has('sendInitialEvents')) return undefined;
  const causes: StatusCause[] = [];
  const match = query.get('resourceVersionMatch') ?? '';
  if (match !== 'NotOlderThan') {
    causes.push({ reason: 'FieldValueForbidden', field: 'resourceVersionMatch', message: 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan' });
  }
  if (match !== '' && match !== 'NotOlderThan') {
    causes.push({ reason: 'FieldValueNotSupported', field: 'resourceVersionMatch', message: `Unsupported value: ${JSON.stringify(match)}: supported values: "NotOlderThan"` });
  }
  if (causes.length > 0) throw errors.invalid('ListOptions', 'meta.k8s.io', '', causes);
  return boolParam(query, 'sendInitialEvents');
}
