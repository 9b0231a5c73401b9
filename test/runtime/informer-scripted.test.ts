// Informer paths a healthy server rarely takes, driven by a scripted client: same-RV suppression,
// repeated 410s, watches that close at once, expired continue tokens, and errors that must be reported;
// and the watcher feeding a reflector without an informer, where its event sequence is visible.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeList, KubeObject, Status, WatchEvent } from '../../src/apimachinery/object.ts';
import type { KubeClient, ListOptions, ResourceRef, WatchOptions, WatchStream } from '../../src/client/client.ts';
import { GoneError, InternalServerError } from '../../src/client/errors.ts';
import { Informer, type InformerErrorInfo } from '../../src/runtime/informer/informer.ts';
import { Reflector } from '../../src/runtime/informer/reflector.ts';
import { Store } from '../../src/runtime/informer/store.ts';
import { Watcher, WatchClosedError, type WatcherErrorInfo, type WatcherEvent, type WatcherSettings } from '../../src/runtime/informer/watcher.ts';
import { Changes } from '../client/wait.ts';

const ref: ResourceRef = { group: 'example.com', version: 'v1', resource: 'widgets', namespaced: true, kind: 'Widget' };

function widget(name: string, rv: string): KubeObject {
  return { metadata: { name, namespace: 'ns', resourceVersion: rv } };
}

function status(code: number, reason: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: reason, reason, code };
}

type ListStep = KubeList | Error;
type WatchStep = (WatchEvent | Error)[] | Error;

/** Answers list/watch calls from queues; an empty watch queue parks the watch until it is aborted. */
class ScriptedClient {
  readonly listCalls: ListOptions[] = [];
  readonly watchCalls: WatchOptions[] = [];
  readonly lists: ListStep[] = [];
  readonly watches: WatchStep[] = [];
  readonly defaultNamespace = 'ns';
  changes = new Changes();

  async resolve(): Promise<ResourceRef> {
    return ref;
  }

  async list(_target: unknown, options: ListOptions = {}): Promise<KubeList> {
    this.listCalls.push(options);
    this.changes.notify();
    const step = this.lists.shift();
    if (!step) throw new Error('script ran out of lists');
    if (step instanceof Error) throw step;
    return step;
  }

  async watch(_target: unknown, options: WatchOptions = {}): Promise<WatchStream> {
    this.watchCalls.push(options);
    this.changes.notify();
    const next = this.watches.shift();
    if (next instanceof Error) throw next;
    const step: (WatchEvent | Error)[] | undefined = next;
    let closed = false;
    const signal = options.signal;
    async function* events(): AsyncGenerator<WatchEvent> {
      if (step) {
        for (const e of step) {
          if (e instanceof Error) throw e;
          yield e;
        }
        return;
      }
      // Park until aborted.
      await new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        signal?.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    return {
      get closed() {
        return closed;
      },
      close: () => void (closed = true),
      [Symbol.asyncIterator]: () => events(),
    };
  }
}

function list(rv: string, items: KubeObject[], cont?: string): KubeList {
  return { apiVersion: 'example.com/v1', kind: 'WidgetList', metadata: { resourceVersion: rv, ...(cont ? { continue: cont } : {}) }, items };
}

/** Fast, unjittered backoff so the tests can assert exact delays. */
function settings(client: ScriptedClient): WatcherSettings {
  return { client: client as unknown as KubeClient, resource: ref, backoff: { initialMs: 5, maxMs: 40, jitter: 0 }, minWatchDurationMs: 50 };
}

function start(client: ScriptedClient, extra: Partial<ConstructorParameters<typeof Informer>[0]> = {}) {
  const errors: { err: unknown; info: InformerErrorInfo }[] = [];
  const seen: string[] = [];
  const informer = new Informer({
    ...settings(client),
    ...extra,
    onError: (err, info) => {
      errors.push({ err, info });
      client.changes.notify();
    },
  });
  informer.addEventHandler({
    onAdd: (o) => seen.push(`add ${o.metadata.name}@${o.metadata.resourceVersion}`),
    onUpdate: (o, n) => seen.push(`update ${n.metadata.name}@${o.metadata.resourceVersion}->${n.metadata.resourceVersion}`),
    onDelete: (o, unknown) => seen.push(`delete ${o.metadata.name}${unknown ? ' (relist)' : ''}`),
  });
  informer.start();
  return { informer, errors, seen };
}

test('an update with an unchanged resourceVersion is not delivered; the watch resumes from the last RV', async () => {
  const client = new ScriptedClient();
  client.lists.push(list('10', [widget('a', '5')]));
  client.watches.push([
    { type: 'MODIFIED', object: widget('a', '5') },
    { type: 'MODIFIED', object: widget('a', '11') },
    { type: 'BOOKMARK', object: { metadata: { resourceVersion: '15' } } },
  ]);
  const { informer, seen } = start(client);
  try {
    await client.changes.until(() => client.watchCalls.length >= 2, 2_000, 'second watch');
    assert.deepEqual(seen, ['add a@5', 'update a@5->11']);
    assert.equal(client.watchCalls[0]!.resourceVersion, '10');
    assert.equal(client.watchCalls[0]!.allowWatchBookmarks, true);
    assert.ok((client.watchCalls[0]!.timeoutSeconds ?? 0) >= 300);
    // The bookmark moved the resume point.
    assert.equal(client.watchCalls[1]!.resourceVersion, '15');
    assert.equal(informer.stats.bookmarks, 1);
  } finally {
    await informer.stop();
  }
});

test('repeated 410s relist immediately once, then back off; deletes inferred by the relist are flagged', async () => {
  const client = new ScriptedClient();
  const gone = (): GoneError => new GoneError(status(410, 'Expired'));
  client.lists.push(list('10', [widget('a', '1'), widget('b', '2')]), list('20', [widget('a', '1')]), list('21', [widget('a', '1')]), list('22', [widget('a', '1')]));
  client.watches.push(gone(), gone(), [gone()]);
  const { informer, errors, seen } = start(client);
  try {
    await client.changes.until(() => client.listCalls.length >= 4 && client.watchCalls.length >= 4, 2_000, 'relists');
    assert.deepEqual(seen, ['add a@1', 'add b@2', 'delete b (relist)']);
    assert.deepEqual(errors.slice(0, 3).map((e) => [e.err instanceof GoneError, e.info.retryInMs]), [
      [true, 0],
      [true, 5],
      [true, 10],
    ]);
    // A relist never passes a stale resourceVersion.
    assert.ok(client.listCalls.every((c) => c.resourceVersion === undefined));
    assert.equal(informer.stats.gone, 3);
  } finally {
    await informer.stop();
  }
});

test('an expired continue token restarts the list unpaged', async () => {
  const client = new ScriptedClient();
  client.lists.push(list('10', [widget('a', '1')], 'tok'), new GoneError(status(410, 'Expired')), list('12', [widget('a', '1'), widget('b', '2')]));
  const { informer, errors } = start(client, { pageSize: 1 });
  try {
    await informer.waitForSync();
    assert.deepEqual(informer.list().map((o) => o.metadata.name).sort(), ['a', 'b']);
    assert.equal(client.listCalls[0]!.limit, 1);
    assert.equal(client.listCalls[1]!.continue, 'tok');
    assert.equal(client.listCalls[2]!.limit, undefined);
    assert.equal(client.listCalls[2]!.continue, undefined);
    assert.equal(errors.length, 0);
  } finally {
    await informer.stop();
  }
});

test('the watch resumes from the first page\'s resourceVersion, even if later pages report newer ones', async () => {
  const client = new ScriptedClient();
  client.lists.push(list('10', [widget('a', '1')], 'tok'), list('12', [widget('b', '12')]));
  const { informer } = start(client, { pageSize: 1 });
  try {
    await client.changes.until(() => client.watchCalls.length >= 1, 2_000, 'watch');
    assert.equal(client.watchCalls[0]!.resourceVersion, '10');
    assert.equal(informer.store.size, 2);
  } finally {
    await informer.stop();
  }
});

test('list errors and instantly closed watches back off exponentially and are all reported', async () => {
  const client = new ScriptedClient();
  const boom = (): InternalServerError => new InternalServerError(status(500, 'InternalError'));
  client.lists.push(boom(), boom(), list('10', []));
  client.watches.push([], [], []);
  const { informer, errors } = start(client);
  try {
    await client.changes.until(() => errors.length >= 5, 2_000, 'five failures');
    assert.deepEqual(errors.slice(0, 5).map((e) => [e.info.phase, e.info.retryInMs]), [
      ['list', 5],
      ['list', 10],
      ['watch', 20],
      ['watch', 40],
      ['watch', 40],
    ]);
    assert.ok(errors[2]!.err instanceof WatchClosedError);
    assert.equal(informer.hasSynced(), true);
  } finally {
    await informer.stop();
  }
});

test('a watch that breaks mid-stream resumes from the last seen RV without relisting', async () => {
  const client = new ScriptedClient();
  client.lists.push(list('10', []));
  client.watches.push([{ type: 'ADDED', object: widget('a', '11') }, new Error('ECONNRESET')]);
  const { informer, errors, seen } = start(client);
  try {
    await client.changes.until(() => client.watchCalls.length >= 2, 2_000, 'rewatch');
    assert.equal(client.watchCalls[1]!.resourceVersion, '11');
    assert.equal(client.listCalls.length, 1);
    assert.deepEqual(seen, ['add a@11']);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.info.phase, 'watch');
  } finally {
    await informer.stop();
  }
});

test('a stream that broke after delivering events reconnects after the initial delay, not a grown one', async () => {
  const client = new ScriptedClient();
  const boom = (): InternalServerError => new InternalServerError(status(500, 'InternalError'));
  client.lists.push(boom(), boom(), list('10', []));
  client.watches.push([{ type: 'ADDED', object: widget('a', '11') }, new Error('ECONNRESET')]);
  const { informer, errors } = start(client);
  try {
    await client.changes.until(() => errors.length >= 3, 2_000, 'three failures');
    // Two list failures grew the delay to 10 ms; the established stream's break starts again from 5 ms.
    assert.deepEqual(errors.slice(0, 3).map((e) => [e.info.phase, e.info.retryInMs]), [
      ['list', 5],
      ['list', 10],
      ['watch', 5],
    ]);
  } finally {
    await informer.stop();
  }
});

/** A watcher feeding a reflector, both recorded: the watcher's events and the store changes they caused. */
function watchInto(client: ScriptedClient, extra: { pageSize?: number } = {}) {
  const events: string[] = [];
  const changes: string[] = [];
  const errors: { err: unknown; info: WatcherErrorInfo }[] = [];
  const store = new Store();
  const reflector = new Reflector(store, {
    added: (o, initial) => changes.push(`add ${o.metadata.name}${initial ? ' (list)' : ''}`),
    updated: (o, n) => changes.push(`update ${n.metadata.name}@${o.metadata.resourceVersion}->${n.metadata.resourceVersion}`),
    deleted: (o, unknown) => changes.push(`delete ${o.metadata.name}${unknown ? ' (relist)' : ''}`),
    synced: () => changes.push('synced'),
  });
  const describe = (e: WatcherEvent): string => ('object' in e ? `${e.type} ${e.object.metadata.name}@${e.object.metadata.resourceVersion}` : e.type);
  const watcher = new Watcher({
    ...settings(client),
    ...extra,
    onEvent: (e) => {
      events.push(describe(e));
      reflector.apply(e);
      client.changes.notify();
    },
    onError: (err, info) => {
      errors.push({ err, info });
      client.changes.notify();
    },
  });
  watcher.start();
  return { watcher, store, events, changes, errors };
}

test('watcher: a 410 mid-stream starts a fresh list, and the reflector deletes what vanished', async () => {
  const client = new ScriptedClient();
  client.lists.push(list('10', [widget('a', '1'), widget('b', '2')]), list('20', [widget('a', '1'), widget('c', '12')]));
  client.watches.push([{ type: 'ADDED', object: widget('c', '12') }, new GoneError(status(410, 'Expired'))]);
  const { watcher, store, events, changes, errors } = watchInto(client);
  try {
    await client.changes.until(() => client.watchCalls.length >= 2, 2_000, 'watch after the relist');
    assert.deepEqual(events, ['init', 'initApply a@1', 'initApply b@2', 'initDone', 'apply c@12', 'init', 'initApply a@1', 'initApply c@12', 'initDone']);
    // c arrived by the watch and again, unchanged, by the relist: one add, no update.
    assert.deepEqual(changes, ['add a (list)', 'add b (list)', 'synced', 'add c', 'delete b (relist)']);
    assert.deepEqual([...store.keys()].sort(), ['ns/a', 'ns/c']);
    assert.deepEqual(errors.map((e) => [e.err instanceof GoneError, e.info.phase, e.info.retryInMs]), [[true, 'watch', 0]]);
    assert.equal(client.listCalls[1]!.resourceVersion, undefined);
    assert.equal(client.watchCalls[1]!.resourceVersion, '20');
    assert.equal(watcher.resourceVersion, '20');
    assert.equal(watcher.stats.gone, 1);
    assert.equal(watcher.stats.lists, 2);
  } finally {
    await watcher.stop();
  }
});

test('watcher: a list restarted after an expired continue token drops the abandoned pages', async () => {
  const client = new ScriptedClient();
  client.lists.push(list('10', [widget('x', '1')], 'tok'), new GoneError(status(410, 'Expired')), list('12', [widget('a', '2')]));
  const { watcher, store, events, changes, errors } = watchInto(client, { pageSize: 1 });
  try {
    await client.changes.until(() => client.watchCalls.length >= 1, 2_000, 'watch');
    assert.deepEqual(events, ['init', 'initApply x@1', 'init', 'initApply a@2', 'initDone']);
    assert.deepEqual(changes, ['add a (list)', 'synced']);
    assert.deepEqual([...store.keys()], ['ns/a']);
    assert.equal(client.watchCalls[0]!.resourceVersion, '12');
    assert.equal(errors.length, 0);
  } finally {
    await watcher.stop();
  }
});
