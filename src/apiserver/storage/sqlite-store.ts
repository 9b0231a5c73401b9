// Durable object storage: one SQLite file (WAL), one global revision counter that is every object's
// resourceVersion, and an append-only event log that serves watch replay until it is compacted.
// Reads come from an in-memory mirror, so only writes touch SQLite; every write is one transaction.
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { KubeObject } from '../../apimachinery/object.ts';
import { checkObjectSize } from '../limits/request-limits.ts';
import { LabelIndex } from './label-index.ts';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** An object as stored: parsed (treat as read-only) and its exact JSON text. */
export interface StoredObject {
  readonly object: KubeObject;
  readonly json: string;
  readonly revision: number;
}

export interface StoreEvent {
  readonly type: EventType;
  readonly revision: number;
  /** The storage key of the resource: `group/plural`. */
  readonly resource: string;
  readonly namespace: string;
  readonly current: StoredObject;
  readonly previous: StoredObject | undefined;
}

export interface RetentionPolicy {
  /** Keep at least this many of the newest events. */
  maxEvents: number;
  /** Drop events older than this, beyond the newest maxEvents/10. */
  maxAgeMs: number;
}

export class StorageCorruptError extends Error {
  override readonly name = 'StorageCorruptError' as const;
}

/** A commit that failed: nothing of it is stored, and the store is as it was before those writes. */
export class StorageWriteError extends Error {
  override readonly name = 'StorageWriteError' as const;
}

/** SQLite's codes for "the disk is full" (a write, or the shared-memory index it needs). */
function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_SHMSIZE' || (error as NodeJS.ErrnoException).code === 'ENOSPC';
}

/**
 * The database and its -wal and -shm files hold every Secret: they are the owner's only. SQLite gives the
 * -wal and -shm files the database's mode, so creating it 0600 covers them; older ones are tightened.
 */
function restrictToOwner(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

type Listener = (event: StoreEvent) => void;

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/** A committed batch whose write-ahead log is not yet known to be on disk: neither acknowledged nor dispatched. */
interface Unsynced {
  events: StoreEvent[];
  waiters: Waiter[];
}

interface EventRow {
  rev: number;
  resource: string;
  namespace: string;
  type: EventType;
  value: string;
  prev: string | null;
}

function keyOf(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** The objects table: a rowid table (see moveObjectsToRowidTable). */
const OBJECTS_COLUMNS = `resource TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,
  rev INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (resource, namespace, name)`;

/** Committed writes between two WAL checkpoints: the log is reused from its start after each. */
export const CHECKPOINT_EVERY_WRITES = 1000;

export class SqliteStore {
  private readonly db: Database.Database;
  private readonly mirror = new Map<string, Map<string, StoredObject>>();
  private readonly labels = new LabelIndex();
  private readonly listeners = new Set<Listener>();
  private revision = 0;
  private compactedRevision = 0;
  private eventsSinceCompaction = 0;
  private writesSinceCheckpoint = 0;
  private checkpointer: Worker | undefined;
  /** Resolved when the checkpointer reports its next pass (done or skipped). */
  private checkpointWaiters: (() => void)[] = [];
  /** (revision, time) samples, one per 64 writes: the age bound of compaction without a query. */
  private readonly timeline: { revision: number; ts: number }[] = [];
  private readonly pending: StoreEvent[] = [];
  private batch: { event: StoreEvent; name: string; ts: number }[] = [];
  private waiters: Waiter[] = [];
  private flushScheduled = false;
  /** Committed batches, oldest first, waiting for the fdatasync that makes them durable. */
  private unsynced: Unsynced[] = [];
  private syncing = false;
  /** The write-ahead log, opened at the first sync; undefined in memory. */
  private logFd: number | undefined;
  private lastCommitHitFullDisk = false;
  private dispatching = false;
  private readonly statements;

  private readonly retention: RetentionPolicy;
  private readonly path: string;

  constructor(path: string, retention: RetentionPolicy = { maxEvents: 10_000, maxAgeMs: 15 * 60_000 }) {
    this.path = path;
    this.retention = retention;
    try {
      if (path !== ':memory:') restrictToOwner(path);
      this.db = SqliteStore.open(path);
      if (path !== ':memory:' && this.db.pragma('locking_mode', { simple: true }) !== 'exclusive') {
        // Checkpoints (and their fsyncs) run on a worker thread instead of inside a write.
        this.db.pragma('wal_autocheckpoint = 0');
        this.checkpointer = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), { workerData: { path } });
        this.checkpointer.unref();
        this.checkpointer.on('message', () => {
          for (const resolve of this.checkpointWaiters.splice(0)) resolve();
        });
        // A checkpointer that dies must not take the server with it: SQLite's own checkpoints take over.
        this.checkpointer.on('error', () => {
          this.checkpointer = undefined;
          for (const resolve of this.checkpointWaiters.splice(0)) resolve();
          if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
        });
      }
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS objects (${OBJECTS_COLUMNS});
        CREATE TABLE IF NOT EXISTS events (
          rev INTEGER PRIMARY KEY, resource TEXT NOT NULL, namespace TEXT NOT NULL,
          type TEXT NOT NULL, value TEXT NOT NULL, prev TEXT, ts INTEGER NOT NULL);
        CREATE INDEX IF NOT EXISTS events_by_resource ON events (resource, rev);
      `);
      SqliteStore.moveObjectsToRowidTable(this.db);
    } catch (error) {
      throw new StorageCorruptError(`cannot open storage ${path}: ${(error as Error).message}`);
    }
    this.statements = {
      getMeta: this.db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      setMeta: this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
      upsert: this.db.prepare(
        'INSERT INTO objects (resource, namespace, name, rev, value) VALUES (?, ?, ?, ?, ?) ON CONFLICT(resource, namespace, name) DO UPDATE SET rev = excluded.rev, value = excluded.value',
      ),
      remove: this.db.prepare('DELETE FROM objects WHERE resource = ? AND namespace = ? AND name = ?'),
      appendEvent: this.db.prepare('INSERT INTO events (rev, resource, namespace, type, value, prev, ts) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      eventsAfter: this.db.prepare<[string, number], EventRow>(
        'SELECT rev, resource, namespace, type, value, prev FROM events WHERE resource = ? AND rev > ? ORDER BY rev',
      ),
      maxEventRevision: this.db.prepare<[], { rev: number | null }>('SELECT MAX(rev) AS rev FROM events'),
      dropEvents: this.db.prepare('DELETE FROM events WHERE rev <= ?'),
      all: this.db.prepare<[], { resource: string; namespace: string; name: string; rev: number; value: string }>(
        'SELECT resource, namespace, name, rev, value FROM objects',
      ),
    };
    this.load();
  }

  /**
   * Opens the database in WAL mode. On a full disk SQLite cannot create the WAL's shared-memory index (its
   * -shm file), so the store opens in exclusive locking mode instead, which keeps that index in memory:
   * reads work, writes fail until space is freed, then work again. That mode has no second connection, so
   * SQLite checkpoints by itself instead of the checkpoint worker.
   */
  private static open(path: string): Database.Database {
    const configure = (db: Database.Database): Database.Database => {
      db.pragma('journal_mode = WAL');
      // NORMAL in WAL mode: a commit does not sync, checkpoints do. The store fdatasyncs the log itself after
      // each commit, off the event loop (syncLog), and acknowledges nothing before that: an acknowledged write
      // survives a power loss, as etcd's fdatasync of its WAL before it answers.
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 1000');
      // SQLite's own default page cache (2 MiB) rather than better-sqlite3's 16 MiB: reads come from the
      // in-memory mirror, so the cache only serves the write path's B-tree pages. With 16 MiB every page a
      // burst of writes touched stayed cached (+9 MiB of malloc after 1,000 ConfigMaps created and deleted),
      // interleaved with what else the burst allocated, so the process never gave that heap back.
      db.pragma('cache_size = -2000');
      return db;
    };
    const db = new Database(path);
    try {
      return configure(db);
    } catch (error) {
      db.close();
      if (!isDiskFull(error)) throw error;
      const fallback = new Database(path);
      fallback.pragma('locking_mode = EXCLUSIVE');
      return configure(fallback);
    }
  }

  /**
   * Stores before 2026-11-29 kept objects in a WITHOUT ROWID table, whose rows live in its key's B-tree:
   * objects of ~1 KiB inserted in key order split its pages and cost twice the commit time of a rowid
   * table, whose key index holds only the keys. Moved once, in one transaction.
   */
  private static moveObjectsToRowidTable(db: Database.Database): void {
    const table = db.prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'objects'").get();
    if (!table?.sql.includes('WITHOUT ROWID')) return;
    try {
      db.transaction(() => {
        db.exec(`CREATE TABLE objects_rowid (${OBJECTS_COLUMNS});
          INSERT INTO objects_rowid (resource, namespace, name, rev, value) SELECT resource, namespace, name, rev, value FROM objects;
          DROP TABLE objects;
          ALTER TABLE objects_rowid RENAME TO objects;`);
      })();
    } catch (error) {
      // On a full disk the old table stays (slower, as correct) and the next start moves it.
      if (!isDiskFull(error)) throw error;
    }
  }

  private load(): void {
    try {
      // The newest event carries the revision; compaction never drops it without recording it in meta.
      this.compactedRevision = Number(this.statements.getMeta.get('compacted')?.value ?? 0);
      const recorded = Number(this.statements.getMeta.get('revision')?.value ?? 0);
      this.revision = Math.max(this.compactedRevision, recorded, this.statements.maxEventRevision.get()?.rev ?? 0);
      for (const row of this.statements.all.iterate()) {
        const object = JSON.parse(row.value) as KubeObject;
        this.place(row.resource, keyOf(row.namespace, row.name), { object, json: row.value, revision: row.rev });
      }
    } catch (error) {
      throw new StorageCorruptError(`storage is corrupt: ${(error as Error).message}`);
    }
  }

  /** Puts `stored` at `key` in the mirror (undefined: removes it), and keeps the label index in step. */
  private place(resource: string, key: string, stored: StoredObject | undefined): void {
    let bucket = this.mirror.get(resource);
    if (!bucket) {
      bucket = new Map();
      this.mirror.set(resource, bucket);
    }
    this.labels.update(resource, key, bucket.get(key)?.object, stored?.object);
    if (stored) bucket.set(key, stored);
    else bucket.delete(key);
  }

  /** The last commit failed for a full disk (and none has succeeded since). */
  get diskFull(): boolean {
    return this.lastCommitHitFullDisk;
  }

  get currentRevision(): number {
    return this.revision;
  }

  get oldestWatchableRevision(): number {
    return this.compactedRevision;
  }

  get(resource: string, namespace: string, name: string): StoredObject | undefined {
    return this.mirror.get(resource)?.get(keyOf(namespace, name));
  }

  /** Every object of a resource, optionally in one namespace, in key order. */
  list(resource: string, namespace?: string): StoredObject[] {
    const bucket = this.mirror.get(resource);
    if (!bucket) return [];
    const prefix = namespace === undefined ? undefined : `${namespace}/`;
    const out: StoredObject[] = [];
    for (const [key, stored] of bucket) if (prefix === undefined || key.startsWith(prefix)) out.push(stored);
    return out;
  }

  /** The objects of a resource labelled `label=value`, optionally in one namespace, in no particular order. */
  listLabelled(resource: string, namespace: string | undefined, label: string, value: string): StoredObject[] {
    const bucket = this.mirror.get(resource);
    if (!bucket) return [];
    const prefix = namespace === undefined ? undefined : `${namespace}/`;
    const out: StoredObject[] = [];
    for (const key of this.labels.lookup(resource, label, value)) {
      const stored = bucket.get(key);
      if (stored && (prefix === undefined || key.startsWith(prefix))) out.push(stored);
    }
    return out;
  }

  /** Storage keys that hold objects. */
  resources(): string[] {
    return [...this.mirror.entries()].filter(([, bucket]) => bucket.size > 0).map(([key]) => key);
  }

  count(resource: string): number {
    return this.mirror.get(resource)?.size ?? 0;
  }

  /**
   * Writes (or deletes) one object. `mutate` receives the revision the write will get, so the object can
   * carry it as resourceVersion. The mirror changes at once; the commit happens with the other writes of
   * this event-loop turn in one transaction (group commit), and events are dispatched only once the commit
   * is on disk. Whoever acknowledges the write to a client awaits `durable()` first.
   */
  write(resource: string, namespace: string, name: string, type: EventType, mutate: (revision: number) => KubeObject): StoreEvent {
    const revision = this.revision + 1;
    const object = mutate(revision);
    const json = JSON.stringify(object);
    // As etcd refuses a request over its limit: before the revision or the mirror changes.
    if (type !== 'DELETED') checkObjectSize(json);
    const key = keyOf(namespace, name);
    const previous = this.mirror.get(resource)?.get(key);
    this.revision = revision;
    const current: StoredObject = { object, json, revision };
    this.place(resource, key, type === 'DELETED' ? undefined : current);
    const event: StoreEvent = { type, revision, resource, namespace, current, previous };
    this.batch.push({ event, name, ts: Date.now() });
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        // While a sync runs, the writes wait for it and then go in one commit: each commit writes whole
        // pages to the log, so fewer, larger commits write and sync less for the same writes.
        this.flushScheduled = false;
        if (this.syncing) return;
        this.commit();
        this.syncLog();
      });
    }
    return event;
  }

  /** Resolves once every write made so far is committed and on disk (and its events dispatched). */
  durable(): Promise<void> {
    const waiters = this.batch.length > 0 ? this.waiters : this.unsynced.at(-1)?.waiters;
    if (!waiters) return Promise.resolve();
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  }

  /** Commits the pending writes, syncs the log here and now, and dispatches every event that waited for it. */
  flush(): void {
    this.commit();
    if (this.unsynced.length === 0) return;
    let failure: Error | undefined;
    try {
      if (this.openLog() !== undefined) fdatasyncSync(this.logFd!);
    } catch (error) {
      failure = error as Error;
    }
    this.release(this.unsynced.length, failure);
  }

  /**
   * One fdatasync of the log at a time, on libuv's thread pool, so the event loop goes on preparing the next
   * batch meanwhile: it covers every batch committed before it started, and the next covers the rest.
   */
  private syncLog(): void {
    if (this.syncing || this.unsynced.length === 0) return;
    let fd: number | undefined;
    try {
      fd = this.openLog();
    } catch (error) {
      this.release(this.unsynced.length, error as Error);
      return;
    }
    if (fd === undefined) {
      this.release(this.unsynced.length);
      return;
    }
    this.syncing = true;
    const covered = this.unsynced.at(-1)!;
    fdatasync(fd, (error) => {
      this.syncing = false;
      // A synchronous flush() meanwhile may have released these batches already.
      const upTo = this.unsynced.indexOf(covered) + 1;
      if (upTo > 0) this.release(upTo, error ?? undefined);
      this.commit();
      this.syncLog();
    });
  }

  /** The write-ahead log's descriptor (it exists once anything was committed); undefined in memory. */
  private openLog(): number | undefined {
    if (this.path === ':memory:' || !this.db.open) return undefined;
    this.logFd ??= openSync(`${this.path}-wal`, 'r');
    return this.logFd;
  }

  /**
   * Acknowledges and dispatches the oldest `count` synced batches. A failed sync leaves the disk's state
   * unknown: its writers get an error (not an acknowledgement), but the commit stands in the mirror and in
   * SQLite, so watchers still see what reads show.
   */
  private release(count: number, failure?: Error): void {
    const done = this.unsynced.splice(0, count);
    const error = failure && new StorageWriteError(`cannot sync the write-ahead log of ${this.path}: ${failure.message}`);
    for (const { events, waiters } of done) {
      for (const event of events) this.dispatch(event);
      for (const waiter of waiters) {
        if (error) waiter.reject(error);
        else waiter.resolve();
      }
    }
  }

  /**
   * Commits the pending writes in one transaction; their events and acknowledgements wait for the sync.
   * A failed commit (a full disk) undoes the batch in the mirror and the revision counter, so memory
   * matches the disk again, and fails the batch's waiters; nothing in it was acknowledged or dispatched,
   * and reads go on.
   */
  private commit(): void {
    this.flushScheduled = false;
    if (this.batch.length === 0) return;
    const batch = this.batch;
    const waiters = this.waiters;
    this.batch = [];
    this.waiters = [];
    try {
      this.db.transaction(() => {
        for (const { event, name, ts } of batch) {
          const { resource, namespace, type, revision, current, previous } = event;
          if (type === 'DELETED') this.statements.remove.run(resource, namespace, name);
          else this.statements.upsert.run(resource, namespace, name, revision, current.json);
          this.statements.appendEvent.run(revision, resource, namespace, type, current.json, previous?.json ?? null, ts);
        }
      })();
    } catch (error) {
      this.undo(batch);
      this.lastCommitHitFullDisk = isDiskFull(error);
      const message = isDiskFull(error)
        ? `database space exceeded: the disk holding ${this.path} is full (${(error as Error).message}); writes fail until space is freed`
        : `cannot commit ${batch.length} writes to ${this.path}: ${(error as Error).message}`;
      const failure = new StorageWriteError(message);
      for (const waiter of waiters) waiter.reject(failure);
      return;
    }
    this.lastCommitHitFullDisk = false;
    for (const { event, ts } of batch) if (event.revision % 64 === 0) this.timeline.push({ revision: event.revision, ts });
    this.unsynced.push({ events: batch.map(({ event }) => event), waiters });
    this.writesSinceCheckpoint += batch.length;
    if (this.writesSinceCheckpoint >= CHECKPOINT_EVERY_WRITES && this.checkpointer) {
      this.writesSinceCheckpoint = 0;
      this.checkpointer.postMessage('checkpoint');
    }
    this.eventsSinceCompaction += batch.length;
    if (this.eventsSinceCompaction >= Math.max(100, this.retention.maxEvents / 10)) this.compact();
  }

  /** Puts back what a failed batch changed in the mirror, newest first, and the revision it started from. */
  private undo(batch: { event: StoreEvent; name: string }[]): void {
    for (const { event, name } of [...batch].reverse()) {
      const key = keyOf(event.namespace, name);
      this.place(event.resource, key, event.previous);
    }
    if (batch[0]) this.revision = batch[0].event.revision - 1;
  }

  /**
   * Listeners may write too: those writes join the next batch, and any events dispatched meanwhile queue
   * behind the current one, so every listener sees events in revision order.
   */
  private dispatch(event: StoreEvent): void {
    this.pending.push(event);
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      for (let next = this.pending.shift(); next; next = this.pending.shift()) {
        for (const listener of this.listeners) listener(next);
      }
    } finally {
      this.dispatching = false;
    }
  }

  /** Delivers every committed event synchronously after commit; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Events of one resource after `revision`, oldest first. Callers check oldestWatchableRevision first. */
  eventsAfter(resource: string, revision: number): StoreEvent[] {
    this.flush();
    return this.statements.eventsAfter.all(resource, revision).map((row) => {
      const current: StoredObject = { object: JSON.parse(row.value) as KubeObject, json: row.value, revision: row.rev };
      const previous = row.prev === null ? undefined : { object: JSON.parse(row.prev) as KubeObject, json: row.prev, revision: 0 };
      return { type: row.type, revision: row.rev, resource: row.resource, namespace: row.namespace, current, previous };
    });
  }

  /** Applies the retention policy; `force` drops the whole history (watchers then need a relist). */
  compact(force = false): void {
    this.commit();
    this.eventsSinceCompaction = 0;
    let upTo = 0;
    if (force) upTo = this.revision;
    else {
      // Every revision is exactly one event, so counts are revision arithmetic.
      const byCount = this.revision - this.retention.maxEvents;
      const keepAtLeast = this.revision - Math.max(1, Math.floor(this.retention.maxEvents / 10));
      const cutoff = Date.now() - this.retention.maxAgeMs;
      let byAge = 0;
      for (const sample of this.timeline) {
        if (sample.ts >= cutoff) break;
        byAge = sample.revision;
      }
      upTo = Math.max(byCount, Math.min(byAge, keepAtLeast));
      while (this.timeline.length > 0 && this.timeline[0]!.revision <= upTo) this.timeline.shift();
    }
    if (upTo <= this.compactedRevision) return;
    try {
      this.db.transaction(() => {
        this.statements.dropEvents.run(upTo);
        this.statements.setMeta.run('compacted', String(upTo));
        this.statements.setMeta.run('revision', String(this.revision));
      })();
    } catch (error) {
      // A full disk: the history stays as it is, and the next compaction tries again.
      if (isDiskFull(error)) return;
      throw error;
    }
    this.compactedRevision = upTo;
  }

  /** Resolves when the checkpoint worker next finishes a pass; at once for a store without one (in memory). */
  nextCheckpoint(): Promise<void> {
    if (!this.checkpointer) return Promise.resolve();
    return new Promise((resolve) => this.checkpointWaiters.push(resolve));
  }

  close(): void {
    if (this.db.open) this.flush();
    if (this.logFd !== undefined) closeSync(this.logFd);
    this.logFd = undefined;
    this.checkpointer?.postMessage('close');
    this.checkpointer = undefined;
    for (const resolve of this.checkpointWaiters.splice(0)) resolve();
    if (!this.db.open) return;
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch (error) {
      // A full disk: the log stays beside the database, committed, and is replayed at the next start.
      if (!isDiskFull(error)) throw error;
    } finally {
      this.db.close();
    }
  }
}
