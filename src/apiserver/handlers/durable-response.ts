// The tail every write shares: answer only once the write is on disk, so a client that acts on the answer
// never sees it lost in a crash.
import { sendJsonText } from '../http/respond.ts';
import type { ResourceCall } from './resource-call.ts';

export async function respondWhenDurable(call: ResourceCall, code: number, json: string, warnings: readonly string[] = []): Promise<void> {
  await call.ctx.store.durable();
  sendJsonText(call.res, code, json, warnings);
}
