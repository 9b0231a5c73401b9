// Runs WAL checkpoints on its own connection and thread, so their fsyncs never stall the API server's event loop.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

// Opened at the first checkpoint: a store closed sooner (and its directory removed) is never touched.
let db;
parentPort.on('message', (message) => {
  if (message === 'close') {
    db?.close();
    parentPort.close();
    return;
  }
  try {
    db ??= new Database(workerData.path, { fileMustExist: true, timeout: 1000 });
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A busy database skips one checkpoint; the next write count triggers another.
  }
  parentPort.postMessage('checkpointed');
});
