// The informer against the embedded API server over HTTP: sync gate, events, indexes, resync, 410 relist
// with deletes, reconnect after a server restart, the inactivity watchdog and fault injection at 0.2.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { startApiServer } from '../../src/apiserver/index.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { GoneError } from '../../src/client/errors.ts';
import { withFaultInjection } from '../../src/client/fault-injection.ts';
import { LABEL_INDEX, NAMESPACE_INDEX, OWNER_INDEX } from '../../src/runtime/informer/indexers.ts';
import { Informer, type InformerErrorInfo, type InformerOptions } from '../../src/runtime/informer/informer.ts';
import { WatchInactivityError } from '../../src/runtime/informer/watcher.ts';
import { configMap, configMaps, createNamespace, startTestServer, uniqueName, type TestServer } from '../client/api-server.ts';
import { Changes } from '../client/wait.ts';

interface Recorder {
  adds: string[];
  updates: [string, string][];
  deletes: { name: string; finalStateUnknown: boolean }[];
  resyncs: number;
  errors: { err: unknown; info: InformerErrorInfo }[];
  changes: Changes;
}

const fastBackoff = { initialMs: 20, maxMs: 300, resetAfterMs: 5_000 };

function recorded<T extends KubeObject>(options: InformerOptions<T>): { informer: Informer<T>; rec: Recorder } {
  const changes = new Changes();
  const rec: Recorder = { adds: [], updates: [], deletes: [], resyncs: 0, errors: [], changes };
  const informer = new Informer<T>({
    backoff: fastBackoff,
    ...options,
    onError: (err, info) => {
      rec.errors.push({ err, info });
      changes.notify();
    },
  });
  informer.addEventHandler({
    onAdd: (o) => {
      rec.adds.push(o.metadata.name!);
      changes.notify();
    },
    onUpdate: (o, n) => {
      if (o === n) rec.resyncs++;
      else rec.updates.push([n.metadata.name!, n.metadata.resourceVersion!]);
      changes.notify();
    },
    onDelete: (o, finalStateUnknown) => {
      rec.deletes.push({ name: o.metadata.name!, finalStateUnknown });
      changes.notify();
    },
  });
  return { informer, rec };
}

/** The test's own objects by name: the server also keeps kube-root-ca.crt in every namespace. */
function names(informer: Informer, namespace?: string): string[] {
  return informer
    .list(namespace)
    .map((o) => o.metadata.name!)
    .filter((name) => name !== 'kube-root-ca.crt')
    .sort();
}

let t: TestServer;

before(async () => {
  t = await startTestServer();
});

after(async () => {
  await t.stop();
});

describe('informer', () => {
  test('waitForSync gates on the first list; then watch events flow; indexes answer', async () => {
    const ns = uniqueName('inf');
    await createNamespace(t.client, ns);
    const owner = await t.client.create(configMaps, configMap('owner', ns));
    for (let i = 0; i < 5; i++) {
      const cm = configMap(`cm-${i}`, ns, { i: String(i) }, { app: i % 2 ? 'odd' : 'even' });
      if (i < 2) cm.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid! }];
      await t.client.create(configMaps, cm);
    }
    const { informer, rec } = recorded({ client: t.client, resource: configMaps, namespace: ns, pageSize: 2, indexers: { byKey: (o) => Object.keys((o.data as Record<string, string>) ?? {}) } });
    assert.equal(informer.hasSynced(), false);
    informer.start();
    try {
      await informer.waitForSync();
      assert.equal(informer.hasSynced(), true);
      assert.equal(rec.adds.length, 6);
      assert.deepEqual(names(informer), ['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4', 'owner']);
      assert.equal(informer.get('cm-0', ns)?.kind, 'ConfigMap');
      assert.equal(informer.get('cm-0', ns)?.metadata.managedFields, undefined);

      assert.equal(informer.byIndex(NAMESPACE_INDEX, ns).length, 6);
      assert.deepEqual(informer.byIndex(OWNER_INDEX, owner.metadata.uid!).map((o) => o.metadata.name).sort(), ['cm-0', 'cm-1']);
      assert.deepEqual(informer.byIndex(LABEL_INDEX, 'app=odd').map((o) => o.metadata.name).sort(), ['cm-1', 'cm-3']);
      assert.deepEqual(informer.byIndex('byKey', 'i').length, 5);

      const cm = await t.client.get(configMaps, 'cm-0', { namespace: ns });
      const updated = await t.client.update(configMaps, { ...cm, data: { i: 'zero' } });
      await t.client.delete(configMaps, 'cm-1', { namespace: ns });
      await t.client.create(configMaps, configMap('late', ns));
      await rec.changes.until(() => rec.deletes.length === 1 && rec.adds.includes('late') && rec.updates.length === 1, 5_000, 'watch events');
      assert.deepEqual(rec.updates, [['cm-0', updated.metadata.resourceVersion!]]);
      assert.deepEqual(rec.deletes, [{ name: 'cm-1', finalStateUnknown: false }]);
      assert.deepEqual(informer.byIndex(OWNER_INDEX, owner.metadata.uid!).map((o) => o.metadata.name), ['cm-0']);
      assert.equal(informer.resourceVersion !== undefined, true);
      assert.equal(rec.errors.length, 0, rec.errors.map((e) => String(e.err)).join('; '));

      // A handler added after sync sees the cache replayed.
      const replayed: string[] = [];
      const off = informer.addEventHandler({ onAdd: (o) => replayed.push(o.metadata.name!) });
      assert.equal(replayed.length, informer.store.size);
      off();
    } finally {
      await informer.stop();
    }
  });

  test('label selector and a throwing handler do not stop delivery', async () => {
    const ns = uniqueName('sel');
    await createNamespace(t.client, ns);
    const { informer, rec } = recorded({ client: t.client, resource: configMaps, namespace: ns, labelSelector: 'pick=yes' });
    let thrown = 0;
    informer.addEventHandler({
      onAdd: () => {
        thrown++;
        throw new Error('handler bug');
      },
    });
    informer.start();
    try {
      await informer.waitForSync();
      await t.client.create(configMaps, configMap('no', ns, {}, { pick: 'no' }));
      await t.client.create(configMaps, configMap('yes1', ns, {}, { pick: 'yes' }));
      await t.client.create(configMaps, configMap('yes2', ns, {}, { pick: 'yes' }));
      await rec.changes.until(() => rec.adds.length === 2, 5_000, 'two adds');
      assert.deepEqual(names(informer), ['yes1', 'yes2']);
      assert.equal(thrown, 2);
      assert.ok(rec.errors.every((e) => e.info.phase === 'handler'));
      assert.equal(rec.errors.length, 2);
    } finally {
      await informer.stop();
    }
  });

  test('periodic resync re-delivers cached objects as updates', async () => {
    const ns = uniqueName('resync');
    await createNamespace(t.client, ns);
    await t.client.create(configMaps, configMap('a', ns));
    await t.client.create(configMaps, configMap('b', ns));
    const { informer, rec } = recorded({ client: t.client, resource: configMaps, namespace: ns, resyncPeriodMs: 150 });
    informer.start();
    try {
      await informer.waitForSync();
      await rec.changes.until(() => rec.resyncs >= 4, 5_000, 'two resync rounds');
      assert.equal(rec.updates.length, 0);
      assert.ok(informer.stats.resyncs >= 2);
    } finally {
      await informer.stop();
    }
  });

  test('after a compaction (410) it relists, and objects removed meanwhile are deleted', async () => {
    const ns = uniqueName('gone');
    await createNamespace(t.client, ns);
    for (const n of ['a', 'b', 'c']) await t.client.create(configMaps, configMap(n, ns));
    const { informer, rec } = recorded({ client: t.client, resource: configMaps, namespace: ns });
    informer.start();
    await informer.waitForSync();
    // Take the informer off the air, change things, and drop the history it would resume from.
    await informer.stop();
    await t.client.delete(configMaps, 'b', { namespace: ns });
    const c = await t.client.get(configMaps, 'c', { namespace: ns });
    await t.client.update(configMaps, { ...c, data: { changed: 'yes' } });
    await t.client.create(configMaps, configMap('d', ns));
    t.server.compact();
    informer.start();
    try {
      await rec.changes.until(() => names(informer).join() === 'a,c,d' && rec.updates.length === 1, 10_000, 'convergence after 410');
      assert.ok(informer.stats.gone >= 1, 'saw a 410');
      assert.ok(rec.errors.some((e) => e.err instanceof GoneError));
      assert.deepEqual(rec.deletes, [{ name: 'b', finalStateUnknown: true }]);
      assert.deepEqual(informer.get('c', ns)?.data, { changed: 'yes' });
      assert.ok(rec.adds.includes('d'));
      // And the watch after the relist is live.
      await t.client.create(configMaps, configMap('e', ns));
      await rec.changes.until(() => informer.get('e', ns) !== undefined, 5_000, 'event after relist');
    } finally {
      await informer.stop();
    }
  });

  test('changes made while the informer pages through its list are not lost', async () => {
    const ns = uniqueName('paging');
    await createNamespace(t.client, ns);
    for (let i = 0; i < 6; i++) await t.client.create(configMaps, configMap(`p${i}`, ns, { v: '0' }));
    // Between the first and the second page, change an object already listed and delete one not yet listed.
    let pages = 0;
    const meddling: KubeClient = Object.create(t.client) as KubeClient;
    meddling.list = async (target, options) => {
      const page = await t.client.list(target, options);
      if (++pages === 1) {
        const p0 = await t.client.get(configMaps, 'p0', { namespace: ns });
        await t.client.update(configMaps, { ...p0, data: { v: '1' } });
        await t.client.delete(configMaps, 'p5', { namespace: ns });
      }
      return page as never;
    };
    const { informer, rec } = recorded({ client: meddling, resource: configMaps, namespace: ns, pageSize: 2 });
    informer.start();
    try {
      await rec.changes.until(() => informer.get('p0', ns)?.data !== undefined && (informer.get('p0', ns)!.data as Record<string, string>).v === '1' && !informer.get('p5', ns), 5_000, 'p0 updated and p5 gone');
      assert.deepEqual(names(informer), ['p0', 'p1', 'p2', 'p3', 'p4']);
      assert.ok(pages >= 3);
    } finally {
      await informer.stop();
    }
  });

  test('the watchdog restarts a silent watch and keeps delivering', async () => {
    const ns = uniqueName('quiet');
    await createNamespace(t.client, ns);
    const { informer, rec } = recorded({ client: t.client, resource: configMaps, namespace: ns, inactivityTimeoutMs: 300 });
    informer.start();
    try {
      await informer.waitForSync();
      await rec.changes.until(() => informer.stats.inactivityRestarts >= 2, 5_000, 'two watchdog restarts');
      assert.ok(rec.errors.some((e) => e.err instanceof WatchInactivityError && e.info.retryInMs === 0));
      await t.client.create(configMaps, configMap('after-silence', ns));
      await rec.changes.until(() => rec.adds.includes('after-silence'), 5_000, 'event after restarts');
    } finally {
      await informer.stop();
    }
  });

  test('server-side watch timeouts reconnect from the last resourceVersion without errors', async () => {
    const ns = uniqueName('timeout');
    await createNamespace(t.client, ns);
    const { informer, rec } = recorded({ client: t.client, resource: configMaps, namespace: ns, watchTimeoutSeconds: { min: 1, max: 1 } });
    informer.start();
    try {
      await informer.waitForSync();
      await t.client.create(configMaps, configMap('x', ns));
      await rec.changes.until(() => rec.adds.includes('x'), 5_000, 'first event');
      const watches = informer.stats.watches;
      await new Promise((r) => setTimeout(r, 2_300));
      assert.ok(informer.stats.watches >= watches + 2, `watches ${informer.stats.watches}`);
      await t.client.create(configMaps, configMap('y', ns));
      await rec.changes.until(() => rec.adds.includes('y'), 5_000, 'event after reconnects');
      assert.equal(informer.stats.lists, 1, 'no relist needed');
      assert.deepEqual(rec.errors.map((e) => String(e.err)), []);
    } finally {
      await informer.stop();
    }
  });

  test('waitForSync honours an abort signal', async () => {
    const { informer } = recorded({ client: t.client, resource: configMaps });
    const ac = new AbortController();
    const waiting = informer.waitForSync(ac.signal);
    ac.abort(new Error('gave up'));
    await assert.rejects(waiting, /gave up/);
  });
});

describe('informer under faults', () => {
  test('fault injection at 0.2: the cache still converges to the server', async () => {
    const ns = uniqueName('faults');
    await createNamespace(t.client, ns);
    const faulty = withFaultInjection(t.client, { rate: 0.2, seed: 20240601, watchBreakRate: 0.05 });
    const { informer, rec } = recorded({ client: faulty, resource: configMaps, namespace: ns, pageSize: 7 });
    for (let i = 0; i < 20; i++) await t.client.create(configMaps, configMap(`pre-${i}`, ns, { v: '0' }));
    informer.start();
    try {
      await informer.waitForSync();
      for (let i = 0; i < 60; i++) await t.client.create(configMaps, configMap(`obj-${i}`, ns, { v: '0' }));
      for (let i = 0; i < 60; i += 2) {
        const cm = await t.client.get(configMaps, `obj-${i}`, { namespace: ns });
        await t.client.update(configMaps, { ...cm, data: { v: '1' } });
      }
      for (let i = 0; i < 60; i += 3) await t.client.delete(configMaps, `obj-${i}`, { namespace: ns });
      for (let i = 0; i < 20; i += 4) await t.client.delete(configMaps, `pre-${i}`, { namespace: ns });

      const truth = await t.client.list(configMaps, { namespace: ns });
      const want = new Map(truth.items.map((o) => [o.metadata.name!, o.metadata.resourceVersion!]));
      const converged = (): boolean => {
        const cached = informer.list(ns);
        return cached.length === want.size && cached.every((o) => want.get(o.metadata.name!) === o.metadata.resourceVersion);
      };
      await rec.changes.until(converged, 30_000, 'informer cache == server list');
      const injected = Object.values(faulty.injected).reduce((a, b) => a + b, 0);
      assert.ok(injected > 0, 'faults were injected');
      assert.ok(rec.errors.length > 0, 'errors were reported, not swallowed');
    } finally {
      await informer.stop();
    }
  });
});

describe('informer across a server restart', () => {
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'bosun-informer-'));
  });
  after(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('reconnects with backoff and converges after the server comes back (same dataDir and port)', async () => {
    let server = await startApiServer({ dataDir, port: 0, rootCAPublisher: false });
    const port = server.port;
    let writer: KubeClient = createKubeClient({ kubeconfig: server.kubeconfig });
    const reader = createKubeClient({ kubeconfig: server.kubeconfig });
    const ns = 'restart';
    await createNamespace(writer, ns);
    for (const n of ['a', 'b']) await writer.create(configMaps, configMap(n, ns));
    const { informer, rec } = recorded({ client: reader, resource: configMaps, namespace: ns });
    informer.start();
    try {
      await informer.waitForSync();
      assert.deepEqual(names(informer), ['a', 'b']);

      await writer.close();
      await server.close();
      await rec.changes.until(() => rec.errors.length >= 2, 10_000, 'errors while the server is down');
      assert.ok(rec.errors.every((e) => (e.info.retryInMs ?? 0) > 0), 'backs off while down');

      server = await startApiServer({ dataDir, port, rootCAPublisher: false });
      writer = createKubeClient({ kubeconfig: server.kubeconfig });
      await writer.delete(configMaps, 'a', { namespace: ns });
      await writer.create(configMaps, configMap('c', ns));
      await rec.changes.until(() => names(informer).join() === 'b,c', 15_000, 'convergence after restart');
      assert.ok(rec.deletes.some((d) => d.name === 'a'));
    } finally {
      await informer.stop();
      await reader.close();
      await writer.close();
      await server.close();
    }
  });
});
