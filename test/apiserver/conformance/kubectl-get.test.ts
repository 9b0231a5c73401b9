// Conformance K1, K2, K3, K9, K12, K15, K20 (research/apiserver.md §8): version and discovery, name resolution,
// Table output with printer columns, describe with Events, NotFound, selectors. Real kubectl 1.32 through the
// dispatcher, a fresh --cache-dir per test; each check asserts output, stored state and the request log.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestServer } from '../../helpers/api-server.ts';
import { kubectlFor } from '../../helpers/kubectl.ts';
import {
  byPath,
  createNamespace,
  createWidget,
  fromKubectl,
  getWidget,
  query,
  startConformanceServer,
  startProxy,
  TABLE_ACCEPT_PREFIX,
  widget,
  widgetsPath,
} from './support.ts';

const AGG_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

describe('kubectl discovery and get', () => {
  let server: TestServer;
  before(async () => {
    server = await startConformanceServer();
  });
  after(async () => {
    await server.close();
  });

  test('K1: kubectl version reports 1.32; the dispatcher probes /version, then kubectl 1.32.4 runs', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const mark = server.mark();
    const r = await kubectl(['version', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { clientVersion: { gitVersion: string }; serverVersion: { major: string; minor: string; gitVersion: string } };
    assert.equal(out.serverVersion.major, '1');
    assert.equal(out.serverVersion.minor, '32');
    assert.match(out.serverVersion.gitVersion, /^v1\.32\./);
    assert.match(out.clientVersion.gitVersion, /^v1\.32\.4/);
    const log = server.since(mark);
    const first = log[0];
    assert.ok(first, 'no request logged');
    assert.equal(first.method, 'GET');
    assert.equal(first.url.split('?')[0], '/version');
    assert.match(first.userAgent ?? '', /^kubectl-dispatcher\/v1\.0/);
    const later = log.slice(1);
    assert.ok(later.length > 0, 'kubectl itself sent nothing');
    for (const e of later) assert.match(e.userAgent ?? '', /^kubectl\/v1\.32\.4/, `${e.method} ${e.url}`);
    assert.ok(byPath(later, '/version').length >= 1, 'kubectl 1.32 asked for /version itself');
  });

  test('K2: cold-cache get widgets with aggregated discovery: /version, /api, /apis, one Table list', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const mark = server.mark();
    const r = await kubectl(['get', 'widgets']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim(), 'No resources found in default namespace.');
    const log = server.since(mark);
    assert.deepEqual(
      log.map((e) => `${e.method} ${e.url.split('?')[0]}`),
      ['GET /version', ...(log[1]?.url.startsWith('/apis') ? ['GET /apis', 'GET /api'] : ['GET /api', 'GET /apis']), `GET ${widgetsPath()}`],
    );
    for (const e of log.slice(1, 3)) {
      assert.match(e.accept ?? '', /g=apidiscovery\.k8s\.io;v=v2;as=APIGroupDiscoveryList/);
      assert.equal(e.status, 200);
    }
    const list = log[3]!;
    assert.equal(query(list).get('limit'), '500');
    assert.ok(list.accept?.startsWith(TABLE_ACCEPT_PREFIX), list.accept);
    assert.equal(list.status, 200);
    // The server answered aggregated discovery with the exact content type client-go keys on.
    const res = await server.api('/apis', { headers: { accept: `${AGG_V2},application/json` } });
    assert.equal(res.headers.get('content-type'), AGG_V2);
    await res.arrayBuffer();
    // Stored state: nothing.
    const stored = await server.json<{ items: unknown[] }>(widgetsPath());
    assert.equal(stored.items.length, 0);
  });

  test('K2: with aggregated discovery off, kubectl fetches one /api/v1 or /apis/G/V per group-version', async () => {
    const proxy = await startProxy(server, { legacyDiscovery: true });
    try {
      const kubectl = kubectlFor(proxy.kubeconfigFile);
      const mark = server.mark();
      const r = await kubectl(['get', 'widgets']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr.trim(), 'No resources found in default namespace.');
      const log = server.since(mark);
      const paths = log.map((e) => e.url.split('?')[0]!);
      // metrics.k8s.io is served outside the registry (src/apiserver/metrics/), as an aggregated group would be.
      const expectedGvs = [...server.registry.groups().flatMap(({ group, versions }) => versions.map((v) => (group ? `/apis/${group}/${v}` : `/api/${v}`))), '/apis/metrics.k8s.io/v1beta1'];
      assert.equal(paths[0], '/version');
      assert.deepEqual(new Set(paths.slice(1, 3)), new Set(['/api', '/apis']));
      assert.deepEqual([...paths.slice(3, 3 + expectedGvs.length)].sort(), [...expectedGvs].sort());
      assert.deepEqual(paths.slice(3 + expectedGvs.length), [widgetsPath()]);
      // Every GV fetched exactly once.
      for (const gv of expectedGvs) assert.equal(paths.filter((p) => p === gv).length, 1, gv);
    } finally {
      await proxy.close();
    }
  });

  test('K3: short name, singular, fully qualified and category all resolve', async () => {
    await createNamespace(server, 'k3');
    const created = await createWidget(server, widget('w1', { size: 1 }), 'k3');
    const kubectl = kubectlFor(server.kubeconfigFile);
    for (const name of ['wd', 'widget', 'widgets.example.com']) {
      const r = await kubectl(['get', name, '-n', 'k3', '-o', 'name']);
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      assert.equal(r.stdout.trim(), 'widget.example.com/w1', name);
    }
    const mark = server.mark();
    const all = await kubectl(['get', 'all', '-n', 'k3', '-o', 'name']);
    assert.equal(all.code, 0, all.stderr);
    assert.equal(all.stdout.trim(), 'widget.example.com/w1');
    // `all` expanded through discovery categories: pods, jobs and widgets were listed.
    const lists = fromKubectl(server.since(mark)).map((e) => e.url.split('?')[0]);
    assert.ok(lists.includes(widgetsPath('k3')), JSON.stringify(lists));
    assert.ok(lists.includes('/api/v1/namespaces/k3/pods'), JSON.stringify(lists));
    const stored = await getWidget(server, 'w1', 'k3');
    assert.equal(stored.metadata.uid, created.metadata.uid);
  });

  test('K9: printer columns: NAME SIZE AGE, <none> for a missing value, -o wide, -A, --show-labels', async () => {
    await createNamespace(server, 'k9');
    await createNamespace(server, 'k9b');
    await createWidget(server, widget('big', { size: 7, color: 'red' }, { labels: { app: 'demo' } }), 'k9');
    await createWidget(server, widget('nosize', { color: 'blue' }), 'k9');
    await createWidget(server, widget('other', { size: 3, color: 'green' }), 'k9b');
    const kubectl = kubectlFor(server.kubeconfigFile);
    const mark = server.mark();
    const r = await kubectl(['get', 'widgets', '-n', 'k9']);
    assert.equal(r.code, 0, r.stderr);
    const rows = r.stdout.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
    assert.deepEqual(rows[0], ['NAME', 'SIZE', 'AGE']);
    assert.deepEqual(rows[1]?.slice(0, 2), ['big', '7']);
    // A missing value: real apiextensions sends a null cell (tableconvertor.go) and kubectl 1.32 prints it as an
    // empty cell — not "<none>" as research §8 K9 says; "<none>" comes from built-in printers and -L columns.
    assert.deepEqual(rows[2], ['nosize', rows[1]?.[2] ?? '']);
    assert.match(r.stdout.split('\n')[2] ?? '', /^nosize\s+\d+s$/);
    const table = await server.json<{ rows: { cells: unknown[] }[] }>(widgetsPath('k9'), { headers: { accept: TABLE_ACCEPT_PREFIX } });
    assert.deepEqual(table.rows.map((row) => row.cells.slice(0, 3)), [['big', 7, 'red'], ['nosize', null, 'blue']]);
    assert.match(rows[1]?.[2] ?? '', /^\d+s$/);
    assert.equal(rows.length, 3);
    const list = byPath(server.since(mark), widgetsPath('k9'))[0];
    assert.ok(list?.accept?.startsWith(TABLE_ACCEPT_PREFIX));

    const wide = await kubectl(['get', 'widgets', '-n', 'k9', '-o', 'wide']);
    assert.equal(wide.code, 0, wide.stderr);
    const wideRows = wide.stdout.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
    assert.deepEqual(wideRows[0], ['NAME', 'SIZE', 'COLOR', 'AGE']);
    assert.deepEqual(wideRows[1]?.slice(0, 3), ['big', '7', 'red']);

    const allNs = await kubectl(['get', 'widgets', '-A']);
    assert.equal(allNs.code, 0, allNs.stderr);
    const allRows = allNs.stdout.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
    assert.deepEqual(allRows[0], ['NAMESPACE', 'NAME', 'SIZE', 'AGE']);
    assert.ok(allRows.some((row) => row[0] === 'k9' && row[1] === 'big' && row[2] === '7'), allNs.stdout);
    assert.ok(allRows.some((row) => row[0] === 'k9b' && row[1] === 'other' && row[2] === '3'), allNs.stdout);
    assert.ok(server.requests.some((e) => e.url.startsWith('/apis/example.com/v1/widgets?') && e.accept?.startsWith(TABLE_ACCEPT_PREFIX)));

    const labels = await kubectl(['get', 'widgets', '-n', 'k9', '--show-labels']);
    assert.equal(labels.code, 0, labels.stderr);
    const labelRows = labels.stdout.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
    assert.deepEqual(labelRows[0], ['NAME', 'SIZE', 'AGE', 'LABELS']);
    assert.equal(labelRows[1]?.[3], 'app=demo');
    assert.equal(labelRows[2]?.[0], 'nosize');
    assert.equal(labelRows[2]?.at(-1), '<none>');
    // Stored state matches what was printed.
    assert.equal(((await getWidget(server, 'big', 'k9'))['spec'] as { size: number }).size, 7);
  });

  test('K12: describe shows the Events of the widget, found by involvedObject field selector', async () => {
    await createNamespace(server, 'k12');
    const w = await createWidget(server, widget('w1', { size: 2 }), 'k12');
    const uid = w.metadata.uid!;
    await server.json('/api/v1/namespaces/k12/events', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      expect: 201,
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'w1.evt1' },
        involvedObject: { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w1', namespace: 'k12', uid },
        reason: 'Polished',
        message: 'the widget shines',
        type: 'Normal',
        source: { component: 'widget-controller' },
        count: 1,
        firstTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        lastTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      }),
    });
    const kubectl = kubectlFor(server.kubeconfigFile);
    const mark = server.mark();
    const r = await kubectl(['describe', 'widget', 'w1', '-n', 'k12']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Name:\s+w1$/m);
    assert.match(r.stdout, /^Namespace:\s+k12$/m);
    const events = r.stdout.slice(r.stdout.indexOf('Events:'));
    assert.ok(r.stdout.includes('Events:'), r.stdout);
    assert.match(events, /Type\s+Reason\s+Age\s+From\s+Message/);
    assert.match(events, /Normal\s+Polished\s+\S+\s+widget-controller\s+the widget shines/);
    const eventList = byPath(server.since(mark), '/api/v1/namespaces/k12/events')[0];
    assert.ok(eventList, 'no events list');
    const selector = (query(eventList).get('fieldSelector') ?? '').split(',').sort();
    assert.deepEqual(selector, [`involvedObject.kind=Widget`, `involvedObject.name=w1`, `involvedObject.namespace=k12`, `involvedObject.uid=${uid}`].sort());
    assert.equal(eventList.status, 200);
  });

  test('K15: delete of a missing widget is NotFound with the exact message', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const mark = server.mark();
    const r = await kubectl(['delete', 'widget', 'nosuch']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim(), 'Error from server (NotFound): widgets.example.com "nosuch" not found');
    const del = server.since(mark).find((e) => e.method === 'DELETE');
    assert.equal(del?.url.split('?')[0], `${widgetsPath()}/nosuch`);
    assert.equal(del?.status, 404);
    const body = await server.json<{ kind: string; reason: string; code: number; details: { name: string; group: string; kind: string } }>(`${widgetsPath()}/nosuch`, { expect: 404 });
    assert.deepEqual([body.kind, body.reason, body.code], ['Status', 'NotFound', 404]);
    assert.deepEqual(body.details, { name: 'nosuch', group: 'example.com', kind: 'widgets' });
  });

  test('K20: label selector, metadata.name field selector, and 400 for an unsupported field label', async () => {
    await createNamespace(server, 'k20');
    await createWidget(server, widget('w1', { size: 1 }, { labels: { app: 'demo' } }), 'k20');
    await createWidget(server, widget('w2', { size: 1 }, { labels: { app: 'other' } }), 'k20');
    await createWidget(server, widget('w3', { size: 2 }), 'k20');
    const kubectl = kubectlFor(server.kubeconfigFile);
    let mark = server.mark();
    const byLabel = await kubectl(['get', 'widgets', '-n', 'k20', '-l', 'app=demo', '-o', 'name']);
    assert.equal(byLabel.code, 0, byLabel.stderr);
    assert.equal(byLabel.stdout.trim(), 'widget.example.com/w1');
    let list = byPath(server.since(mark), widgetsPath('k20'))[0]!;
    assert.equal(query(list).get('labelSelector'), 'app=demo');
    assert.equal(query(list).get('limit'), '500');

    const notIn = await kubectl(['get', 'widgets', '-n', 'k20', '-l', 'app notin (demo)', '-o', 'name']);
    assert.equal(notIn.code, 0, notIn.stderr);
    assert.deepEqual(notIn.stdout.trim().split('\n'), ['widget.example.com/w2', 'widget.example.com/w3']);

    mark = server.mark();
    const byName = await kubectl(['get', 'widgets', '-n', 'k20', '--field-selector', 'metadata.name=w2', '-o', 'name']);
    assert.equal(byName.code, 0, byName.stderr);
    assert.equal(byName.stdout.trim(), 'widget.example.com/w2');
    list = byPath(server.since(mark), widgetsPath('k20'))[0]!;
    assert.equal(query(list).get('fieldSelector'), 'metadata.name=w2');

    mark = server.mark();
    const bad = await kubectl(['get', 'widgets', '-n', 'k20', '--field-selector', 'spec.size=1']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /Error from server \(BadRequest\): .*field label not supported: spec\.size/);
    list = byPath(server.since(mark), widgetsPath('k20'))[0]!;
    assert.equal(list.status, 400);
    // Nothing was changed by any of it.
    const stored = await server.json<{ items: unknown[] }>(widgetsPath('k20'));
    assert.equal(stored.items.length, 3);
  });
});
