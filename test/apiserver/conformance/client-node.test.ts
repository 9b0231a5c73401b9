// Conformance C1–C10 (research/apiserver.md §8) with @kubernetes/client-node 1.4.0: kubeconfig requirements,
// informers (start latency, event order, 410 relist, normal close, selector transitions, bookmarks,
// restart with persisted state), CustomObjectsApi and KubernetesObjectApi, and their errors.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  ApiException,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  Watch,
  makeInformer,
  setHeaderOptions,
  type Informer,
  type KubernetesObject,
  type ObjectCache,
} from '@kubernetes/client-node';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { eventually, startTestServer, type TestServer } from '../../helpers/api-server.ts';
import { byPath, createNamespace, createWidget, getWidget, mergePatch, query, sleep, startConformanceServer, startProxy, widget, widgetCrd, widgetsPath } from './support.ts';

const G = { group: 'example.com', version: 'v1', plural: 'widgets' } as const;

function kubeConfig(kubeconfig: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  return kc;
}

interface Recorded {
  verb: 'add' | 'update' | 'delete';
  name: string;
  rv: string;
}

type WidgetInformer = Informer<KubernetesObject> & ObjectCache<KubernetesObject>;

function informerFor(kc: KubeConfig, ns: string, labelSelector?: string): { informer: WidgetInformer; events: Recorded[]; errors: unknown[] } {
  const api = kc.makeApiClient(CustomObjectsApi);
  const path = widgetsPath(ns);
  const list = () => api.listNamespacedCustomObject({ ...G, namespace: ns, ...(labelSelector ? { labelSelector } : {}) }) as Promise<never>;
  const informer = makeInformer<KubernetesObject>(kc, path, list, labelSelector);
  const events: Recorded[] = [];
  const errors: unknown[] = [];
  for (const verb of ['add', 'update', 'delete'] as const) {
    informer.on(verb, (o) => events.push({ verb, name: o.metadata?.name ?? '', rv: o.metadata?.resourceVersion ?? '' }));
  }
  informer.on('error', (e) => errors.push(e));
  return { informer, events, errors };
}

function statusOf(error: unknown): { code: number; reason: string } {
  assert.ok(error instanceof ApiException, `not an ApiException: ${String(error)}`);
  const body = (typeof error.body === 'string' ? JSON.parse(error.body) : error.body) as { reason: string };
  return { code: error.code, reason: body.reason };
}

describe('@kubernetes/client-node 1.4.0', () => {
  let server: TestServer;
  let kc: KubeConfig;
  let custom: CustomObjectsApi;
  before(async () => {
    // C9 uses a 500 ms bookmark interval instead of the default 15 s, so an idle watch shows bookmarks in a
    // test-sized wait rather than 35 s.
    server = await startConformanceServer({ bookmarkIntervalMs: 500 });
    kc = kubeConfig(server.kubeconfig);
    custom = kc.makeApiClient(CustomObjectsApi);
    for (const ns of ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9']) await createNamespace(server, ns);
  });
  after(async () => {
    await server.close();
  });

  test('C1: http:// without insecure-skip-tls-verify is refused by the client; with it (or https + CA), calls succeed', async () => {
    // The server itself serves https; a plain-http proxy in front of it stands for an http:// server.
    const proxy = await startProxy(server);
    try {
      const strictConfig = proxy.kubeconfig.replace(/\n\s*insecure-skip-tls-verify: true/, '');
      assert.ok(strictConfig.includes('server: http://') && !strictConfig.includes('insecure-skip-tls-verify'));
      const mark = server.mark();
      const refused = kubeConfig(strictConfig).makeApiClient(CustomObjectsApi);
      await assert.rejects(refused.listNamespacedCustomObject({ ...G, namespace: 'c1' }), /HTTP protocol is not allowed when skipTLSVerify is not set or false/);
      assert.equal(server.since(mark).length, 0, 'the refused client reached the server');
      await createWidget(server, widget('w1'), 'c1');
      const viaHttp = (await kubeConfig(proxy.kubeconfig).makeApiClient(CustomObjectsApi).listNamespacedCustomObject({ ...G, namespace: 'c1' })) as { items: KubeObject[] };
      assert.deepEqual(viaHttp.items.map((i) => i.metadata.name), ['w1']);
      // The generated kubeconfig (https, the serving certificate as CA, the token) works as is.
      const list = (await custom.listNamespacedCustomObject({ ...G, namespace: 'c1' })) as { items: KubeObject[]; metadata: { resourceVersion: string } };
      assert.deepEqual(list.items.map((i) => i.metadata.name), ['w1']);
      assert.equal(list.metadata.resourceVersion, String(server.store.currentRevision));
      const logged = byPath(server.since(mark), widgetsPath('c1')).filter((e) => e.method === 'GET');
      assert.deepEqual(logged.map((e) => e.status), [200, 200]);
      assert.match(logged[1]?.userAgent ?? '', /node-fetch/);
    } finally {
      await proxy.close();
    }
  });

  // start() resolves when the watch's response head arrives. On an empty collection no event can carry it, so
  // it resolves only if the server sends the head at once, as kube-apiserver does; a server holding it back until
  // a first event or the watch's end would hang start() (the test's timeout is only there to name the hang) or make
  // it relist. How fast start() is belongs to bench:apiserver.
  test('C2: informer.start() resolves on an empty collection after one list and one watch from the list RV', { timeout: 10_000 }, async () => {
    const { informer, events, errors } = informerFor(kc, 'c2');
    const listRevision = server.store.currentRevision;
    const mark = server.mark();
    await informer.start();
    try {
      assert.deepEqual(informer.list(), []);
      assert.equal(events.length, 0, 'an event before any write');
      const log = byPath(server.since(mark), widgetsPath('c2'));
      assert.equal(log.length, 2, `requests: ${log.map((e) => e.url).join(', ')}`);
      assert.equal(log[0]?.url, widgetsPath('c2'));
      assert.equal(log[0]?.status, 200);
      const w = log[1];
      assert.ok(w, 'no watch logged');
      assert.deepEqual(Object.fromEntries(query(w)), { watch: 'true', resourceVersion: String(listRevision) });
      assert.equal(w.status, 200);
      // The watch start() opened is live: a create reaches the informer over it, with no further read.
      await createWidget(server, widget('w1'), 'c2');
      await eventually(() => events.length > 0, 5000, 'the add event');
      assert.deepEqual(events.map((e) => [e.verb, e.name]), [['add', 'w1']]);
      assert.deepEqual(byPath(server.since(mark), widgetsPath('c2')).filter((e) => e.method === 'GET'), [log[0], w]);
    } finally {
      await informer.stop();
    }
    assert.deepEqual(errors.filter((e) => !/aborted/i.test(String(e))), []);
  });

  // Each write reaches the informer over the one watch start() opened: no relist, no second watch, no polling
  // (counted on the server). How fast a watch delivers is bench:apiserver's watch latency.
  test('C3: create, merge patch, status patch, delete reach the informer in order over its one watch; no-op patch is silent', async () => {
    const { informer, events } = informerFor(kc, 'c3');
    await informer.start();
    const mark = server.mark();
    try {
      const step = async (action: () => Promise<unknown>, verb: Recorded['verb']) => {
        const before = events.length;
        await action();
        const got = await eventually(() => events[before], 5000, `${verb} event`);
        assert.equal(got.verb, verb);
        assert.equal(got.name, 'w1');
      };
      await step(() => custom.createNamespacedCustomObject({ ...G, namespace: 'c3', body: widget('w1', { size: 1 }) }), 'add');
      const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
      await step(() => custom.patchNamespacedCustomObject({ ...G, namespace: 'c3', name: 'w1', body: { spec: { size: 2 } } }, merge), 'update');
      await step(() => custom.patchNamespacedCustomObjectStatus({ ...G, namespace: 'c3', name: 'w1', body: { status: { phase: 'Ready' } } }, merge), 'update');
      const rv = (await getWidget(server, 'w1', 'c3')).metadata.resourceVersion;
      const before = events.length;
      const same = (await custom.patchNamespacedCustomObject({ ...G, namespace: 'c3', name: 'w1', body: { spec: { size: 2 } } }, merge)) as KubeObject;
      assert.equal(same.metadata.resourceVersion, rv, 'a no-op patch changed the resourceVersion');
      await sleep(200);
      assert.equal(events.length, before, 'a no-op patch produced an informer event');
      await step(() => custom.deleteNamespacedCustomObject({ ...G, namespace: 'c3', name: 'w1' }), 'delete');
      assert.deepEqual(events.map((e) => e.verb), ['add', 'update', 'update', 'delete']);
      assert.deepEqual(byPath(server.since(mark), widgetsPath('c3')).filter((e) => e.method === 'GET'), [], 'the informer read the collection again');
      assert.deepEqual(informer.list(), []);
      assert.equal(await server.api(`${widgetsPath('c3')}/w1`).then((r) => r.status), 404);
    } finally {
      await informer.stop();
    }
  });

  test('C4: AlreadyExists, Conflict and NotFound surface as ApiException with the Status reason', async () => {
    const created = (await custom.createNamespacedCustomObject({ ...G, namespace: 'c4', body: widget('w1', { size: 1 }) })) as KubeObject;
    const dup = await custom.createNamespacedCustomObject({ ...G, namespace: 'c4', body: widget('w1', { size: 9 }) }).catch((e: unknown) => e);
    assert.deepEqual(statusOf(dup), { code: 409, reason: 'AlreadyExists' });
    await mergePatch(server, `${widgetsPath('c4')}/w1`, { spec: { size: 2 } });
    const stale = { ...widget('w1', { size: 3 }), metadata: { name: 'w1', resourceVersion: created.metadata.resourceVersion } };
    const conflict = await custom.replaceNamespacedCustomObject({ ...G, namespace: 'c4', name: 'w1', body: stale }).catch((e: unknown) => e);
    assert.deepEqual(statusOf(conflict), { code: 409, reason: 'Conflict' });
    const missing = await custom.getNamespacedCustomObject({ ...G, namespace: 'c4', name: 'nosuch' }).catch((e: unknown) => e);
    assert.deepEqual(statusOf(missing), { code: 404, reason: 'NotFound' });
    const stored = await getWidget(server, 'w1', 'c4');
    assert.deepEqual(stored['spec'], { size: 2 });
    assert.equal(stored.metadata.uid, created.metadata.uid);
  });

  test('C5: JSON patch by default; KubernetesObjectApi SMP on a CR → 415; server-side apply 201 then 200', async () => {
    await createWidget(server, widget('w1', { size: 1 }), 'c5');
    let mark = server.mark();
    const patched = (await custom.patchNamespacedCustomObject({ ...G, namespace: 'c5', name: 'w1', body: [{ op: 'replace', path: '/spec/size', value: 5 }] })) as KubeObject;
    assert.deepEqual(patched['spec'], { size: 5 });
    assert.equal(server.since(mark).find((e) => e.method === 'PATCH')?.contentType, 'application/json-patch+json');
    assert.deepEqual((await getWidget(server, 'w1', 'c5'))['spec'], { size: 5 });

    const objects = KubernetesObjectApi.makeApiClient(kc);
    mark = server.mark();
    const smp = await objects.patch({ ...widget('w1', { size: 6 }), metadata: { name: 'w1', namespace: 'c5' } }).catch((e: unknown) => e);
    assert.equal(statusOf(smp).code, 415);
    assert.equal(statusOf(smp).reason, 'UnsupportedMediaType');
    assert.ok(server.since(mark).some((e) => e.url.split('?')[0] === '/apis/example.com/v1'), 'no discovery of example.com/v1');
    assert.deepEqual((await getWidget(server, 'w1', 'c5'))['spec'], { size: 5 });

    mark = server.mark();
    const applied = await objects.patch(
      { ...widget('w2', { size: 1 }), metadata: { name: 'w2', namespace: 'c5' } },
      undefined,
      undefined,
      'c5-manager',
      true,
      PatchStrategy.ServerSideApply,
    );
    assert.equal(applied.metadata?.name, 'w2');
    await objects.patch({ ...widget('w2', { size: 2 }), metadata: { name: 'w2', namespace: 'c5' } }, undefined, undefined, 'c5-manager', true, PatchStrategy.ServerSideApply);
    const applies = server.since(mark).filter((e) => e.method === 'PATCH');
    assert.deepEqual(applies.map((e) => e.status), [201, 200]);
    for (const e of applies) {
      assert.equal(e.contentType, 'application/apply-patch+yaml');
      assert.equal(query(e).get('fieldManager'), 'c5-manager');
      assert.equal(query(e).get('force'), 'true');
    }
    const stored = await getWidget(server, 'w2', 'c5');
    assert.deepEqual(stored['spec'], { size: 2 });
    assert.deepEqual(stored.metadata.managedFields?.map((m) => [m.manager, m.operation]), [['c5-manager', 'Apply']]);
  });

  for (const style of ['ERROR event from the server', 'HTTP 410'] as const) {
    test(`C6: compaction while the watch is down → 410 (${style}) → relist; deletions meanwhile fire delete`, async () => {
      const proxy = await startProxy(server);
      const ns = 'c6';
      const prefix = style === 'HTTP 410' ? 'h' : 'e';
      try {
        await createWidget(server, widget(`${prefix}-keep`), ns);
        await createWidget(server, widget(`${prefix}-gone`), ns);
        const { informer, events, errors } = informerFor(kubeConfig(proxy.kubeconfig), ns);
        await informer.start();
        try {
          await eventually(() => informer.list().length >= 2, 5000, 'initial sync');
          const mark = server.mark();
          // Changes the informer misses while its watch is down, then compaction past its resourceVersion.
          proxy.endWatches({ hold: true });
          await server.json(`${widgetsPath(ns)}/${prefix}-gone`, { method: 'DELETE' });
          await createWidget(server, widget(`${prefix}-new`), ns);
          server.compact();
          if (style === 'HTTP 410') proxy.expireNextWatchWithHttp410();
          proxy.releaseWatches();
          await eventually(() => events.some((e) => e.verb === 'delete' && e.name === `${prefix}-gone`), 3000, 'the delete of a vanished object');
          await eventually(() => events.some((e) => e.verb === 'add' && e.name === `${prefix}-new`), 3000, 'the add of a new object');
          const names = informer.list().map((o) => o.metadata?.name).filter((n) => n?.startsWith(`${prefix}-`)).sort();
          assert.deepEqual(names, [`${prefix}-keep`, `${prefix}-new`]);
          assert.deepEqual(errors, []);
          const log = byPath(server.since(mark), widgetsPath(ns));
          // A relist happened after the expiry.
          assert.ok(log.some((e) => e.method === 'GET' && query(e).get('watch') === null), 'no relist');
          if (style !== 'HTTP 410') {
            const expiredWatch = log.find((e) => query(e).get('watch') === 'true');
            assert.ok(expiredWatch, 'no re-watch reached the server');
            assert.ok(Number(query(expiredWatch).get('resourceVersion')) < server.store.oldestWatchableRevision);
          }
        } finally {
          await informer.stop();
        }
      } finally {
        await proxy.close();
      }
    });
  }

  test('C7: a normally closed watch is resumed from the last resourceVersion without duplicate adds', async () => {
    const proxy = await startProxy(server);
    try {
      await createWidget(server, widget('a'), 'c7');
      const { informer, events, errors } = informerFor(kubeConfig(proxy.kubeconfig), 'c7');
      await informer.start();
      try {
        await createWidget(server, widget('b'), 'c7');
        await eventually(() => events.filter((e) => e.verb === 'add').length === 2, 5000, 'two adds');
        const lastRv = (await getWidget(server, 'b', 'c7')).metadata.resourceVersion;
        const mark = server.mark();
        proxy.endWatches({ hold: true });
        await sleep(100);
        await createWidget(server, widget('c'), 'c7');
        proxy.releaseWatches();
        await eventually(() => events.some((e) => e.name === 'c'), 5000, 'the add after the re-watch');
        await sleep(200);
        assert.deepEqual(events.map((e) => `${e.verb}:${e.name}`), ['add:a', 'add:b', 'add:c']);
        assert.deepEqual(errors, []);
        const rewatch = byPath(server.since(mark), widgetsPath('c7')).filter((e) => query(e).get('watch') === 'true');
        // The first entry is the watch that was cut; the re-watch starts from the last seen resourceVersion.
        assert.ok(rewatch.length === 0 || rewatch.every((e) => query(e).get('resourceVersion') !== null));
        await informer.stop();
        await sleep(50);
        const after = byPath(server.since(mark), widgetsPath('c7')).filter((e) => query(e).get('watch') === 'true');
        assert.ok(after.some((e) => query(e).get('resourceVersion') === lastRv), `no re-watch from ${lastRv ?? ''}: ${JSON.stringify(after.map((e) => e.url))}`);
        assert.ok(!byPath(server.since(mark), widgetsPath('c7')).some((e) => e.method === 'GET' && query(e).get('watch') === null), 'a relist happened');
      } finally {
        await informer.stop();
      }
    } finally {
      await proxy.close();
    }
  });

  test('C7: the server ends a watch after timeoutSeconds with a clean end of stream', async () => {
    const watch = new Watch(kc);
    const t = Date.now();
    const ended = new Promise<unknown>((resolve) => {
      void watch.watch(widgetsPath('c7'), { timeoutSeconds: 1 }, () => undefined, resolve);
    });
    const err = await ended;
    assert.equal(err, null);
    const elapsed = Date.now() - t;
    assert.ok(elapsed >= 900 && elapsed < 3000, `closed after ${elapsed} ms`);
  });

  test('C8: relabelling out of the selector fires delete, back in fires add', async () => {
    await createWidget(server, widget('w1', { size: 1 }, { labels: { app: 'c8' } }), 'c8');
    const { informer, events } = informerFor(kc, 'c8', 'app=c8');
    await informer.start();
    try {
      await eventually(() => informer.list().length === 1, 5000, 'initial sync');
      const path = `${widgetsPath('c8')}/w1`;
      await mergePatch(server, path, { metadata: { labels: { app: 'other' } } });
      await eventually(() => events.some((e) => e.verb === 'delete'), 5000, 'delete on leaving the selector');
      assert.deepEqual(informer.list(), []);
      await mergePatch(server, path, { metadata: { labels: { app: 'c8' } } });
      await eventually(() => events.filter((e) => e.verb === 'add').length === 2, 5000, 'add on re-entering the selector');
      assert.deepEqual(events.map((e) => e.verb), ['add', 'delete', 'add']);
      assert.deepEqual(informer.list().map((o) => o.metadata?.name), ['w1']);
      // The object itself still exists throughout.
      assert.equal((await getWidget(server, 'w1', 'c8')).metadata.labels?.['app'], 'c8');
    } finally {
      await informer.stop();
    }
  });

  test('C9: an idle watch with bookmarks stays open and its resourceVersion advances (500 ms interval, not 35 s)', async () => {
    const watch = new Watch(kc);
    const seen: { type: string; rv: string }[] = [];
    let done: unknown = 'open';
    const startRv = String(server.store.currentRevision);
    const controller = await watch.watch(
      widgetsPath('c9'),
      { allowWatchBookmarks: true, resourceVersion: startRv },
      (type, obj: KubeObject) => seen.push({ type, rv: obj.metadata.resourceVersion ?? '' }),
      (err) => (done = err),
    );
    try {
      await sleep(1200);
      // Writes elsewhere move the global revision; the next bookmark carries it.
      await server.json('/api/v1/namespaces/c9/configmaps', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'elsewhere' } }),
        expect: 201,
      });
      const after = String(server.store.currentRevision);
      await eventually(() => seen.some((e) => e.type === 'BOOKMARK' && e.rv === after), 2000, 'a bookmark at the new revision');
      assert.equal(done, 'open', 'the idle watch was closed');
      assert.ok(seen.length >= 3, JSON.stringify(seen));
      assert.ok(seen.every((e) => e.type === 'BOOKMARK'), JSON.stringify(seen));
      assert.ok(seen.some((e) => e.rv === startRv));
      assert.ok(Number(after) > Number(startRv));
    } finally {
      controller.abort();
    }
  });
});

describe('@kubernetes/client-node 1.4.0 across a server restart', () => {
  test('C10: the informer errors when the server goes, start() from the error handler re-syncs; RVs keep rising', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bosun-c10-'));
    let server = await startTestServer({ dataDir, crds: [widgetCrd()] });
    const port = server.port;
    const kc = kubeConfig(server.kubeconfig);
    let restarted: TestServer | undefined;
    try {
      await createWidget(server, widget('w1'));
      await createWidget(server, widget('w2'));
      const maxBefore = server.store.currentRevision;
      const { informer, events } = informerFor(kc, 'default');
      const errors: unknown[] = [];
      let restarts = 0;
      let stopping = false;
      informer.on('error', (e) => {
        if (stopping) return;
        errors.push(e);
        // The documented pattern: restart from the error handler, after a pause.
        setTimeout(() => {
          restarts++;
          void informer.start().catch(() => undefined);
        }, 200);
      });
      await informer.start();
      await eventually(() => informer.list().length === 2, 5000, 'initial sync');
      await server.close();
      await eventually(() => errors.length > 0, 3000, 'an informer error after the server went away');
      assert.match(String((errors[0] as Error).message ?? errors[0]), /ECONNREFUSED|ECONNRESET|socket hang up|connect/i);

      restarted = await startTestServer({ dataDir, port, crds: [widgetCrd()] });
      server = restarted;
      assert.equal(restarted.token, kc.getCurrentUser()?.token);
      assert.ok(restarted.store.currentRevision >= maxBefore, 'the revision went backwards across a restart');
      const w3 = await createWidget(restarted, widget('w3'));
      assert.ok(Number(w3.metadata.resourceVersion) > maxBefore, `revision reused: ${w3.metadata.resourceVersion ?? ''} <= ${maxBefore}`);
      await eventually(() => informer.list().length === 3, 5000, 'the informer to re-sync');
      assert.deepEqual(informer.list().map((o) => o.metadata?.name).sort(), ['w1', 'w2', 'w3']);
      assert.ok(restarts >= 1);
      assert.ok(events.some((e) => e.verb === 'add' && e.name === 'w3'));
      stopping = true;
      await informer.stop();
    } finally {
      await server.close();
    }
  });
});
