// Conformance K10, K11, K13 (research/apiserver.md §8): `kubectl get -w` on a collection and on one object
// (synthetic ADDED for RV=0), and `kubectl wait` for a jsonpath value, a condition and deletion.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestServer } from '../../helpers/api-server.ts';
import { kubectlFor } from '../../helpers/kubectl.ts';
import { byPath, createNamespace, createWidget, mergePatch, query, sleep, startConformanceServer, status, TABLE_ACCEPT_PREFIX, widget, widgetsPath } from './support.ts';

/** kubectl -v=6 traces a request once its response headers arrive: the watch is then open on the server. */
const WATCH_OPEN = /GET https?:\/\/\S+watch=true\S* 200 OK/;

const cells = (line: string | undefined) => (line ?? '').trim().split(/\s{2,}/);

describe('kubectl watch and wait', () => {
  let server: TestServer;
  before(async () => {
    server = await startConformanceServer();
    for (const ns of ['k10', 'k11', 'k13']) await createNamespace(server, ns);
  });
  after(async () => {
    await server.close();
  });

  // The rows come over the one watch kubectl opened: after it, kubectl reads the collection no more (no relist,
  // no second watch, no polling; counted on the server). How fast a watch delivers is bench:apiserver's.
  test('K10: get widgets -w prints a row for each create, annotate and delete over its one watch', async () => {
    await createWidget(server, widget('w0', { size: 0 }), 'k10');
    const listRevision = server.store.currentRevision;
    const kubectl = kubectlFor(server.kubeconfigFile);
    const mark = server.mark();
    const watch = kubectl.stream(['get', 'widgets', '-n', 'k10', '-w', '-v=6']);
    try {
      let lines = await watch.waitForLines(2, 10_000);
      assert.deepEqual(cells(lines[0]), ['NAME', 'SIZE', 'AGE']);
      assert.deepEqual(cells(lines[1]).slice(0, 2), ['w0', '0']);
      await watch.waitForStderr(WATCH_OPEN);
      const path = `${widgetsPath('k10')}/w1`;
      const collectionReads = () => byPath(server.since(mark), widgetsPath('k10')).filter((e) => e.method === 'GET');
      const opened = collectionReads().length;
      await createWidget(server, widget('w1', { size: 4 }), 'k10');
      lines = await watch.waitForLines(3, 10_000);
      assert.deepEqual(cells(lines[2]).slice(0, 2), ['w1', '4']);
      await mergePatch(server, path, { metadata: { annotations: { touched: 'yes' } } });
      lines = await watch.waitForLines(4, 10_000);
      assert.deepEqual(cells(lines[3]).slice(0, 2), ['w1', '4']);
      await server.json(path, { method: 'DELETE', expect: 200 });
      lines = await watch.waitForLines(5, 10_000);
      assert.deepEqual(cells(lines[4]).slice(0, 2), ['w1', '4']);
      const reads = collectionReads();
      assert.equal(reads.length, opened, `kubectl read the collection again: ${reads.map((e) => e.url).join(', ')}`);
      await sleep(300);
      assert.equal(watch.lines.length, 5, JSON.stringify(watch.lines));
    } finally {
      await watch.stop();
    }
    const log = byPath(server.since(mark), widgetsPath('k10'));
    const list = log.find((e) => query(e).get('watch') === null);
    const w = log.find((e) => query(e).get('watch') === 'true');
    assert.equal(query(list!).get('limit'), '500');
    assert.ok(list?.accept?.startsWith(TABLE_ACCEPT_PREFIX));
    assert.ok(w, 'no watch request');
    assert.equal(query(w).get('resourceVersion'), String(listRevision));
    assert.ok(w.accept?.startsWith(TABLE_ACCEPT_PREFIX));
    assert.equal(w.status, 200);
    // Stored state: w1 is gone, w0 is there.
    assert.equal(await status(server, `${widgetsPath('k10')}/w1`), 404);
    assert.equal(await status(server, `${widgetsPath('k10')}/w0`), 200);
  });

  test('K11: get widget w1 -w --output-watch-events: ADDED then exactly two MODIFIED (synthetic ADDED on RV=0)', async () => {
    await createWidget(server, widget('w1', { size: 1 }), 'k11');
    const kubectl = kubectlFor(server.kubeconfigFile);
    const mark = server.mark();
    const watch = kubectl.stream(['get', 'widget', 'w1', '-n', 'k11', '-w', '--output-watch-events', '-v=6']);
    try {
      let lines = await watch.waitForLines(2, 10_000);
      assert.deepEqual(cells(lines[0]), ['EVENT', 'NAME', 'SIZE', 'AGE']);
      assert.deepEqual(cells(lines[1]).slice(0, 3), ['ADDED', 'w1', '1']);
      await watch.waitForStderr(WATCH_OPEN);
      const path = `${widgetsPath('k11')}/w1`;
      await mergePatch(server, path, { metadata: { annotations: { n: '1' } } });
      lines = await watch.waitForLines(3, 1000);
      await mergePatch(server, path, { metadata: { annotations: { n: '2' } } });
      lines = await watch.waitForLines(4, 1000);
      assert.deepEqual(cells(lines[2]).slice(0, 2), ['MODIFIED', 'w1']);
      assert.deepEqual(cells(lines[3]).slice(0, 2), ['MODIFIED', 'w1']);
      await sleep(300);
      assert.equal(watch.lines.length, 4, JSON.stringify(watch.lines));
    } finally {
      await watch.stop();
    }
    const w = byPath(server.since(mark), widgetsPath('k11')).find((e) => query(e).get('watch') === 'true');
    assert.ok(w, 'no watch request');
    assert.equal(query(w).get('fieldSelector'), 'metadata.name=w1');
    assert.equal(query(w).get('resourceVersion'), '0');
    const stored = await server.json<{ metadata: { annotations: Record<string, string> } }>(`${widgetsPath('k11')}/w1`);
    assert.equal(stored.metadata.annotations['n'], '2');
  });

  for (const variant of ['jsonpath', 'condition'] as const) {
    test(`K13: kubectl wait --for=${variant} is met by a status patch 1 s later`, async () => {
      const name = `w-${variant}`;
      await createWidget(server, widget(name, { size: 1 }), 'k13');
      const kubectl = kubectlFor(server.kubeconfigFile);
      const mark = server.mark();
      const start = Date.now();
      const forArg = variant === 'jsonpath' ? '--for=jsonpath={.status.phase}=Ready' : '--for=condition=Ready';
      const waiting = kubectl(['wait', `widget/${name}`, '-n', 'k13', forArg, '--timeout=10s']);
      await sleep(1000);
      const statusBody =
        variant === 'jsonpath'
          ? { status: { phase: 'Ready' } }
          : { status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Done', message: 'ok', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] } };
      await mergePatch(server, `${widgetsPath('k13')}/${name}/status`, statusBody);
      const r = await waiting;
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), `widget.example.com/${name} condition met`);
      assert.ok(Date.now() - start >= 1000, 'wait returned before the condition could be true');
      const log = byPath(server.since(mark), widgetsPath('k13'));
      const list = log.find((e) => query(e).get('watch') === null);
      const w = log.find((e) => query(e).get('watch') === 'true');
      assert.equal(query(list!).get('fieldSelector'), `metadata.name=${name}`);
      assert.equal(query(list!).get('resourceVersion'), '0');
      assert.ok(w, 'no watch request');
      assert.equal(query(w).get('allowWatchBookmarks'), 'true');
      assert.equal(query(w).get('fieldSelector'), `metadata.name=${name}`);
      assert.match(query(w).get('timeoutSeconds') ?? '', /^\d+$/);
      const stored = await server.json<{ status: unknown }>(`${widgetsPath('k13')}/${name}`);
      assert.deepEqual(stored.status, statusBody.status);
    });
  }

  test('K13: kubectl wait --for=delete returns once the widget is deleted', async () => {
    await createWidget(server, widget('w-delete', { size: 1 }, { finalizers: ['example.com/hold'] }), 'k13');
    const path = `${widgetsPath('k13')}/w-delete`;
    await server.json(path, { method: 'DELETE', expect: 200 });
    const kubectl = kubectlFor(server.kubeconfigFile);
    const start = Date.now();
    const waiting = kubectl(['wait', 'widget/w-delete', '-n', 'k13', '--for=delete', '--timeout=10s']);
    await sleep(1000);
    assert.equal(await status(server, path), 200, 'held by its finalizer');
    await mergePatch(server, path, { metadata: { finalizers: null } });
    const r = await waiting;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'widget.example.com/w-delete condition met');
    assert.ok(Date.now() - start >= 1000);
    assert.equal(await status(server, path), 404);
  });
});
