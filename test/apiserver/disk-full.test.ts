// A full disk, as etcd with kube-apiserver handles one: writes answer 500 naming the cause, reads and watches
// go on, writes work again once space is freed, a start on the full disk serves reads, and no shutdown leaves
// a stale lock. The data dir is a small tmpfs of its own (mounting one needs root).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/apiserver/storage/sqlite-store.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { freePort } from '../helpers/bosun-process.ts';

const configMaps = '/api/v1/namespaces/default/configmaps';
/** Larger than anything the write-ahead log holds already, so a write needs new blocks. */
const big = (name: string) => JSON.stringify({ metadata: { name }, data: { value: 'x'.repeat(900 * 1024) } });

/** Fills the file system holding `dir` to the last block. */
function fill(dir: string): void {
  try {
    writeFileSync(join(dir, 'filler'), Buffer.alloc(64 * 1024 * 1024, 1));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
}

async function create(server: TestServer, name: string): Promise<{ status: number; message: string }> {
  const res = await server.api(configMaps, { method: 'POST', body: big(name) });
  const body = (await res.json()) as { message?: string };
  return { status: res.status, message: body.message ?? '' };
}

test('a full disk: writes fail with 500, reads and watches go on, then writes resume; restarts on the full disk serve reads', { skip: process.getuid?.() !== 0 && 'mounting a tmpfs needs root' }, async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosun-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0755', 'tmpfs', dataDir]);
  let server: TestServer | undefined;
  t.after(async () => {
    try {
      await server?.close();
    } finally {
      // Lazily: a server that failed may still hold its files open.
      execFileSync('umount', ['--lazy', dataDir]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
  const port = await freePort();
  server = await startTestServer({ dataDir, port });
  assert.equal((await create(server, 'before')).status, 201);

  const watch = await server.api(`${configMaps}?watch=1&resourceVersion=${server.store.currentRevision}`);
  const events = watch.body!.pipeThrough(new TextDecoderStream()).getReader();

  fill(dataDir);
  const refused = await create(server, 'refused');
  assert.equal(refused.status, 500);
  assert.match(refused.message, new RegExp(`^database space exceeded: the disk holding ${join(dataDir, 'bosun.db')} is full`));
  assert.equal((await server.api(`${configMaps}/refused`)).status, 404, 'the refused write left nothing behind');
  assert.equal((await server.api(`${configMaps}/before`)).status, 200);
  // The test's one ConfigMap (the server also keeps kube-root-ca.crt in every namespace).
  assert.equal((await server.json<{ items: { metadata: { name: string } }[] }>(configMaps)).items.filter((i) => i.metadata.name !== 'kube-root-ca.crt').length, 1);

  rmSync(join(dataDir, 'filler'));
  assert.equal((await create(server, 'after')).status, 201);
  // The watch kept going: its next event is the write after the space came back, not the refused one.
  let text = '';
  while (!text.includes('\n')) text += (await events.read()).value ?? '';
  const event = JSON.parse(text.slice(0, text.indexOf('\n'))) as { type: string; object: { metadata: { name: string } } };
  assert.deepEqual([event.type, event.object.metadata.name], ['ADDED', 'after']);
  await events.cancel();

  // Shut down on a full disk: no stale lock.
  fill(dataDir);
  await server.close();
  server = undefined;
  assert.equal(existsSync(join(dataDir, 'bosun.lock')), false);

  // Start on the full disk (once after a shutdown on it, once after a clean one): reads served, writes refused.
  for (const shutdown of ['on a full disk', 'clean']) {
    server = await startTestServer({ dataDir, port });
    assert.equal((await server.api(`${configMaps}/after`)).status, 200, `after a shutdown ${shutdown}`);
    assert.equal((await create(server, 'refused')).status, 500);
    rmSync(join(dataDir, 'filler'));
    await server.close();
    server = undefined;
    fill(dataDir);
  }
});

test('a store from before the rowid objects table opens on a full disk and keeps its table', { skip: process.getuid?.() !== 0 && 'mounting a tmpfs needs root' }, (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosun-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0755', 'tmpfs', dataDir]);
  t.after(() => {
    execFileSync('umount', ['--lazy', dataDir]);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const path = join(dataDir, 'bosun.db');
  const store = new SqliteStore(path);
  for (const name of ['a', 'b', 'c']) {
    store.write('/configmaps', 'default', name, 'ADDED', (rev) => ({ metadata: { name, resourceVersion: String(rev) }, data: { value: 'x'.repeat(300 * 1024) } }));
  }
  store.close();
  // The objects table as stores made it before 2026-11-29.
  const db = new Database(path);
  db.exec(`CREATE TABLE objects_old (resource TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL, rev INTEGER NOT NULL, value TEXT NOT NULL,
      PRIMARY KEY (resource, namespace, name)) WITHOUT ROWID;
    INSERT INTO objects_old SELECT resource, namespace, name, rev, value FROM objects;
    DROP TABLE objects;
    ALTER TABLE objects_old RENAME TO objects;`);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  fill(dataDir);
  const reopened = new SqliteStore(path);
  assert.deepEqual(reopened.list('/configmaps').map((o) => o.object.metadata.name).sort(), ['a', 'b', 'c']);
  reopened.close();
});
