// SqliteStore: retention by count and by age, revisions monotonic across reopen and compaction.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { CHECKPOINT_EVERY_WRITES, SqliteStore } from '../../src/apiserver/storage/sqlite-store.ts';

function put(store: SqliteStore, name: string): number {
  return store.write('/configmaps', 'default', name, 'ADDED', (rev) => ({ metadata: { name, resourceVersion: String(rev) } })).revision;
}

test('retention by count keeps the newest events and expires older revisions', () => {
  const store = new SqliteStore(':memory:', { maxEvents: 200, maxAgeMs: 3_600_000 });
  for (let i = 0; i < 1000; i++) put(store, `cm-${i}`);
  store.flush();
  assert.ok(store.oldestWatchableRevision >= 1000 - 200 - 100, `compacted up to ${store.oldestWatchableRevision}`);
  assert.ok(store.oldestWatchableRevision <= 1000 - 200, 'never beyond the count bound');
  const replay = store.eventsAfter('/configmaps', store.oldestWatchableRevision);
  assert.equal(replay.length, 1000 - store.oldestWatchableRevision);
  assert.equal(replay[0]?.revision, store.oldestWatchableRevision + 1);
  store.close();
});

test('retention by age drops old events but keeps a tenth of the count bound', async () => {
  const store = new SqliteStore(':memory:', { maxEvents: 1000, maxAgeMs: 50 });
  for (let i = 0; i < 640; i++) put(store, `old-${i}`);
  await new Promise((r) => setTimeout(r, 80));
  for (let i = 0; i < 100; i++) put(store, `new-${i}`);
  store.compact();
  assert.ok(store.oldestWatchableRevision >= 576, `old events expired (compacted to ${store.oldestWatchableRevision})`);
  assert.ok(store.oldestWatchableRevision <= 740 - 100, 'the newest maxEvents/10 stay');
  store.close();
});

test('revisions never go back across reopen, even after a full compaction', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'bosun-store-')), 'bosun.db');
  let store = new SqliteStore(path);
  for (let i = 0; i < 50; i++) put(store, `a-${i}`);
  store.compact(true);
  store.close();
  store = new SqliteStore(path);
  assert.equal(store.currentRevision, 50);
  assert.equal(store.oldestWatchableRevision, 50);
  assert.equal(put(store, 'after'), 51);
  assert.equal(store.list('/configmaps').length, 51);
  store.close();
  store = new SqliteStore(path);
  assert.equal(store.currentRevision, 51);
  store.close();
});

test('group commit: events are dispatched only after the batch commits, and durable() waits for it', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'bosun-store-')), 'bosun.db');
  const store = new SqliteStore(path);
  const seen: number[] = [];
  store.subscribe((event) => seen.push(event.revision));
  put(store, 'a');
  put(store, 'b');
  assert.deepEqual(seen, [], 'nothing is dispatched before the commit');
  assert.ok(store.get('/configmaps', 'default', 'b'), 'the mirror has the write at once');
  await store.durable();
  assert.deepEqual(seen, [1, 2]);
  // A second connection sees both rows: they are on disk.
  const other = new SqliteStore(path);
  assert.equal(other.list('/configmaps').length, 2);
  other.close();
  store.close();
});

test('checkpoints on the worker thread keep the write-ahead log from growing with every write', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'bosun-store-')), 'bosun.db');
  const store = new SqliteStore(path);
  // 6,000 writes in 60 commits: without checkpoints the log grows past 4 MB; with them it is reused from the start.
  for (let batch = 0; batch < 60; batch++) {
    const checkpoint = (batch + 1) % (CHECKPOINT_EVERY_WRITES / 100) === 0 ? store.nextCheckpoint() : undefined;
    for (let i = 0; i < 100; i++) put(store, `cm-${batch}-${i}`);
    await store.durable();
    await checkpoint;
  }
  const walBytes = statSync(`${path}-wal`).size;
  store.close();
  assert.ok(walBytes < 2_000_000, `write-ahead log is ${walBytes} bytes`);
});

test('a store closed and removed at once leaves its checkpoint worker nothing to open', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-store-'));
  new SqliteStore(join(dir, 'bosun.db')).close();
  rmSync(dir, { recursive: true, force: true });
  // The worker starts after the close; before the fix it opened the removed file and crashed the process.
  await new Promise((r) => setTimeout(r, 500));
});

test('a store whose objects table has no rowid (before 2026-11-29) keeps its objects in a rowid table', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'bosun-store-')), 'bosun.db');
  const old = new Database(path);
  old.exec(`
    CREATE TABLE objects (resource TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL, rev INTEGER NOT NULL, value TEXT NOT NULL,
      PRIMARY KEY (resource, namespace, name)) WITHOUT ROWID;
    INSERT INTO objects VALUES ('/configmaps', 'default', 'kept', 7, '{"metadata":{"name":"kept","resourceVersion":"7"}}');
  `);
  old.close();
  const store = new SqliteStore(path);
  assert.equal(store.get('/configmaps', 'default', 'kept')?.revision, 7);
  put(store, 'added');
  store.close();
  const reopened = new SqliteStore(path);
  assert.deepEqual(reopened.list('/configmaps').map((o) => o.object.metadata.name).sort(), ['added', 'kept']);
  reopened.close();
  const check = new Database(path, { readonly: true });
  const sql = check.prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'objects'").get()?.sql ?? '';
  check.close();
  assert.ok(!sql.includes('WITHOUT ROWID'), sql);
  rmSync(dirname(path), { recursive: true, force: true });
});

test('objects listed by label follow relabels, deletes and a reopen', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'bosun-store-')), 'bosun.db');
  let store = new SqliteStore(path);
  const label = (name: string, namespace: string, labels: Record<string, string> | undefined): void => {
    store.write('/configmaps', namespace, name, 'MODIFIED', (rev) => ({ metadata: { name, namespace, resourceVersion: String(rev), ...(labels ? { labels } : {}) } }));
  };
  const names = (namespace: string | undefined, key: string, value: string): string[] =>
    store.listLabelled('/configmaps', namespace, key, value).map((s) => s.object.metadata.name ?? '').sort();
  label('a', 'one', { app: 'x', tier: 'web' });
  label('b', 'one', { app: 'x' });
  label('c', 'two', { app: 'x' });
  assert.deepEqual(names(undefined, 'app', 'x'), ['a', 'b', 'c']);
  assert.deepEqual(names('one', 'app', 'x'), ['a', 'b']);
  label('a', 'one', { app: 'y', tier: 'web' });
  label('b', 'one', undefined);
  assert.deepEqual(names('one', 'app', 'x'), []);
  assert.deepEqual(names('one', 'app', 'y'), ['a']);
  assert.deepEqual(names('one', 'tier', 'web'), ['a']);
  store.write('/configmaps', 'two', 'c', 'DELETED', (rev) => ({ metadata: { name: 'c', namespace: 'two', resourceVersion: String(rev), labels: { app: 'x' } } }));
  assert.deepEqual(names(undefined, 'app', 'x'), []);
  store.flush();
  store.close();
  store = new SqliteStore(path);
  assert.deepEqual(names(undefined, 'app', 'y'), ['a']);
  assert.deepEqual(names(undefined, 'tier', 'web'), ['a']);
  store.close();
});
