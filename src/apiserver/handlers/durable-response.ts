// The tail every write shares: answer only once the write is on disk, so a client that acts on the answer
// never sees it lost in a crash. A write the disk refused (it is full) is a 500, as kube-apiserver answers
// etcd's "mvcc: database space exceeded"; the server goes on serving reads.
import { StatusError } from '../../apimachinery/status-error.ts';
import { sendJsonText } from '../http/respond.ts';
import { StorageWriteError } from '../storage/sqlite-store.ts';
import type { ResourceCall } from './resource-call.ts';

export async function respondWhenDurable(call: ResourceCall, code: number, json: string, warnings: readonly string[] = []): Promise<void> {
  try {
    await call.ctx.store.durable();
  } catch (error) {
    if (error instanceof StorageWriteError) throw new StatusError(500, 'InternalError', error.message);
    throw error;
  }
  sendJsonText(call.res, code, json, warnings);
}
