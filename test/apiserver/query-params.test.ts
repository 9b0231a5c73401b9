// Boolean and integer query parameters read as kube-apiserver's parameter codec reads them: `watch=True`
// (the Python client's spelling) is a watch, `force=True` forces an apply, malformed integers are a 400.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

let server: TestServer;

before(async () => {
  server = await startTestServer({ bookmarkIntervalMs: 100 });
  for (const name of ['a', 'b', 'c']) {
    await server.json('/api/v1/namespaces/default/configmaps', { method: 'POST', body: JSON.stringify({ metadata: { name }, data: { k: name } }), expect: 201 });
  }
});
after(async () => {
  await server.close();
});

const cms = '/api/v1/namespaces/default/configmaps';

/** The first `count` watch events of a stream, then the stream is closed. */
async function firstEvents(res: Response, count: number): Promise<{ type: string; object: { metadata: { name?: string; resourceVersion?: string } } }[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (text.split('\n').filter((l) => l !== '').length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text
    .split('\n')
    .filter((l) => l !== '')
    .slice(0, count)
    .map((l) => JSON.parse(l) as never);
}

/** The test's own ConfigMaps: the server also keeps kube-root-ca.crt in every namespace. */
function ownConfigMaps<T extends { metadata: { name: string } }>(items: T[]): T[] {
  return items.filter((item) => item.metadata.name !== 'kube-root-ca.crt');
}

test('watch is true for every spelling but false and 0 (any case), as kube-apiserver reads it', async () => {
  for (const value of ['True', 'TRUE', 'true', '1', 't', 'yes', '']) {
    const res = await server.api(`${cms}?watch=${value}`);
    assert.equal(res.status, 200, value);
    const events = await firstEvents(res, 1);
    assert.equal(events[0]?.type, 'ADDED', `watch=${value}: ${JSON.stringify(events)}`);
  }
  for (const value of ['False', 'FALSE', 'false', '0']) {
    const list = await server.json<{ kind: string; items: { metadata: { name: string } }[] }>(`${cms}?watch=${value}`);
    assert.equal(list.kind, 'ConfigMapList', value);
    assert.equal(ownConfigMaps(list.items).length, 3);
  }
});

test('allowWatchBookmarks=True gets bookmarks', async () => {
  const res = await server.api(`${cms}?watch=True&resourceVersion=${server.store.currentRevision}&allowWatchBookmarks=True`);
  const [event] = await firstEvents(res, 1);
  assert.equal(event?.type, 'BOOKMARK');
});

test('force=True takes over fields another manager applied', async () => {
  const apply = (manager: string, value: string, force: string) =>
    server.api(`${cms}/owned?fieldManager=${manager}${force}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned' }, data: { k: value } }),
    });
  assert.equal((await apply('first', '1', '')).status, 201);
  assert.equal((await apply('second', '2', '&force=false')).status, 409);
  const forced = await apply('second', '2', '&force=True');
  assert.equal(forced.status, 200, await forced.clone().text());
  assert.deepEqual(((await forced.json()) as { data: unknown }).data, { k: '2' });
});

test('integer parameters: malformed is a 400 in strconv.ParseInt words, a negative limit means no limit', async () => {
  for (const [path, value] of [
    [`${cms}?limit=abc`, 'abc'],
    [`${cms}?limit=1.5`, '1.5'],
    [`${cms}?watch=1&timeoutSeconds=ten`, 'ten'],
  ] as const) {
    const res = await server.api(path);
    const status = (await res.json()) as { reason: string; message: string };
    assert.equal(res.status, 400, path);
    assert.equal(status.reason, 'BadRequest');
    assert.equal(status.message, `strconv.ParseInt: parsing "${value}": invalid syntax`);
  }
  const huge = await server.api(`${cms}?limit=99999999999999999999`);
  assert.equal(huge.status, 400);
  assert.match(((await huge.json()) as { message: string }).message, /value out of range/);
  const all = await server.json<{ items: { metadata: { name: string } }[]; metadata: { continue?: string } }>(`${cms}?limit=-1`);
  assert.equal(ownConfigMaps(all.items).length, 4);
  const paged = await server.json<{ items: unknown[]; metadata: { continue?: string } }>(`${cms}?limit=%2B2`);
  assert.equal(paged.items.length, 2);
  const deleted = await server.api(`${cms}/a?gracePeriodSeconds=soon`, { method: 'DELETE' });
  assert.equal(deleted.status, 400);
  assert.equal(((await deleted.json()) as { message: string }).message, 'strconv.ParseInt: parsing "soon": invalid syntax');
  assert.ok(server.store.get('/configmaps', 'default', 'a'), 'a refused delete deletes nothing');
});

test('timeoutSeconds ends a watch; orphanDependents=True in the query orphans', async () => {
  const started = Date.now();
  const res = await server.api(`${cms}?watch=1&resourceVersion=${server.store.currentRevision}&timeoutSeconds=1`);
  await res.text();
  assert.ok(Date.now() - started < 5000);
  const owner = await server.json<{ metadata: { uid: string } }>(cms, { method: 'POST', body: JSON.stringify({ metadata: { name: 'owner' } }), expect: 201 });
  const ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }];
  await server.json(cms, { method: 'POST', body: JSON.stringify({ metadata: { name: 'dependent', ownerReferences } }), expect: 201 });
  const deleted = await server.json<{ metadata: { finalizers?: string[] } }>(`${cms}/owner?orphanDependents=True`, { method: 'DELETE' });
  assert.deepEqual(deleted.metadata.finalizers, ['orphan']);
});

test('sendInitialEvents=True streams the current state and ends it with a bookmark; it needs NotOlderThan', async () => {
  const from = server.store.currentRevision;
  const res = await server.api(`${cms}?watch=1&sendInitialEvents=True&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=${from}`);
  const count = (await server.json<{ items: unknown[] }>(cms)).items.length;
  const events = await firstEvents(res, count + 1);
  assert.deepEqual(
    events.map((e) => e.type),
    [...Array<string>(count).fill('ADDED'), 'BOOKMARK'],
  );
  const end = events[count]!.object.metadata as { resourceVersion?: string; annotations?: Record<string, string> };
  assert.deepEqual(end.annotations, { 'k8s.io/initial-events-end': 'true' });
  assert.equal(end.resourceVersion, String(server.store.currentRevision));
  const refused = await server.api(`${cms}?watch=1&sendInitialEvents=true&allowWatchBookmarks=true`);
  const status = (await refused.json()) as { reason: string; message: string };
  assert.equal(refused.status, 422);
  assert.equal(status.message, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
});
