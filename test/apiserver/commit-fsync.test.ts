// Durability equal to etcd's: a write is acknowledged (durable() resolves) only after the write-ahead log
// holding it was fsynced, so it survives a power loss, not only a kill -9 (crash-durability.test.ts). strace
// shows the order of the system calls: the log's fdatasync comes before the process says "acknowledged".
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

test('an acknowledged write was fsynced to the write-ahead log first', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-fsync-'));
  const db = join(dir, 'bosun.db');
  const store = pathToFileURL(join(import.meta.dirname, '..', '..', 'src', 'apiserver', 'storage', 'sqlite-store.ts')).href;
  const script = `
    import { writeSync } from 'node:fs';
    const { SqliteStore } = await import(${JSON.stringify(store)});
    const store = new SqliteStore(${JSON.stringify(db)});
    writeSync(1, 'opened\\n');
    store.write('/configmaps', 'default', 'a', 'ADDED', (rev) => ({ metadata: { name: 'a', resourceVersion: String(rev) } }));
    await store.durable();
    writeSync(1, 'acknowledged\\n');
    process.exit(0);
  `;
  const trace = join(dir, 'strace.log');
  const result = spawnSync('strace', ['-f', '-y', '-o', trace, '-e', 'trace=fsync,fdatasync,write', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, `${result.error?.message ?? ''} ${result.stderr}`);
  const lines = readFileSync(trace, 'utf8').split('\n');
  const opened = lines.findIndex((line) => line.includes('"opened\\n"'));
  const acknowledged = lines.findIndex((line) => line.includes('"acknowledged\\n"'));
  assert.ok(opened >= 0 && acknowledged > opened, 'the traced process opened the store and acknowledged the write');
  const synced = lines.slice(opened, acknowledged).some((line) => /\bf(data)?sync\(\d+<[^>]*bosun\.db-wal>/.test(line));
  assert.ok(synced, `no fsync of bosun.db-wal between the write and its acknowledgement:\n${lines.slice(opened, acknowledged + 1).join('\n')}`);
});
