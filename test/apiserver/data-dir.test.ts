// The data dir's lock and modes: a restart right after kill -9 goes ahead, a lock naming a live process that
// is not the Bosun that wrote it (its pid reused) is stale, and the dir and database are the owner's only.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startApiServer } from '../../src/apiserver/index.ts';
import { startTestServer } from '../helpers/api-server.ts';
import { exited, freePort, startBosun } from '../helpers/bosun-process.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'bosun-data-dir-'));

test('a restart right after kill -9 takes over the lock while the old process is still exiting', async () => {
  const dataDir = dir();
  const first = await startBosun(dataDir, await freePort(), ['--controllers', 'none', '--no-node']);
  first.kill('SIGKILL');
  // At once, before this process has even reaped the killed one: its lock is taken synchronously here.
  const second = startApiServer({ dataDir, port: 0 });
  await exited(first);
  const server = await second;
  await server.close();
  assert.equal(existsSync(join(dataDir, 'bosun.lock')), false);
});

test('a lock naming a live process that is not the Bosun that wrote it is stale', async () => {
  // The parent of this test process is alive, and is no Bosun: its pid stands for a reused one.
  const pid = process.ppid;
  for (const write of [
    // Today's lock: pid and a start time that is not this process's.
    (lock: string) => symlinkSync(`${pid}:1`, lock),
    // An older Bosun's lock, only a pid, written before the process with that pid started.
    (lock: string) => {
      writeFileSync(lock, String(pid));
      utimesSync(lock, new Date(0), new Date(0));
    },
  ]) {
    const dataDir = dir();
    write(join(dataDir, 'bosun.lock'));
    const server = await startTestServer({ dataDir });
    await server.close();
  }
});

test('the data dir is 0700 (an existing one is tightened) and the database files are 0600', async () => {
  const dataDir = dir();
  chmodSync(dataDir, 0o755);
  const server = await startTestServer({ dataDir });
  try {
    await server.json('/api/v1/namespaces/default/configmaps', { method: 'POST', body: JSON.stringify({ metadata: { name: 'c' } }), expect: 201 });
    assert.equal(statSync(dataDir).mode & 0o777, 0o700);
    for (const file of ['bosun.db', 'bosun.db-wal', 'bosun.db-shm']) assert.equal(statSync(join(dataDir, file)).mode & 0o777, 0o600, file);
  } finally {
    await server.close();
  }
});
